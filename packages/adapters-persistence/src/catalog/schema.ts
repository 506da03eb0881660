import { EntitySchema } from '@mikro-orm/core';
import type { Category, Product, ProductImage } from '@servicedesk/core/catalog/product';
import type { ProductImport } from '@servicedesk/core/catalog/product-import';
import { foreignKeysOf } from '../shared/columns.js';

const categories = foreignKeysOf('categories');

/** As m0026 creates `categories`: names unique among siblings ignoring case. */
export const CategorySchema = new EntitySchema<Category>({
  name: 'Category',
  tableName: 'categories',
  properties: {
    id: { type: 'number', primary: true, autoincrement: true },
    companyId: categories('company_id', 'Company', 'cascade'),
    parentId: categories('parent_id', 'Category', 'set null', { nullable: true }),
    name: { type: 'string', length: 100 },
    description: { type: 'text', default: '' },
    position: { type: 'integer', default: 0 },
    active: { type: 'boolean', default: true },
    createdAt: { type: 'Date' },
    updatedAt: { type: 'Date' },
  },
  uniques: [
    {
      name: 'categories_sibling_name_idx',
      expression: 'create unique index categories_sibling_name_idx on categories (company_id, coalesce(parent_id, 0), lower(name))',
    },
  ],
  indexes: [{ name: 'categories_parent_id_idx', properties: ['parentId'] }],
});

const products = foreignKeysOf('products');

/** As m0026 creates `products`. */
export const ProductSchema = new EntitySchema<Product>({
  name: 'Product',
  tableName: 'products',
  properties: {
    id: { type: 'number', primary: true, autoincrement: true },
    companyId: products('company_id', 'Company', 'cascade'),
    categoryId: products('category_id', 'Category', 'no action', { nullable: true }),
    name: { type: 'string', length: 200 },
    description: { type: 'text', default: '' },
    sku: { type: 'string', length: 64, nullable: true },
    price: { type: 'integer' },
    currency: { type: 'string', length: 3, default: 'BRL' },
    stock: { type: 'integer', default: 0 },
    trackStock: { type: 'boolean', default: false },
    active: { type: 'boolean', default: true },
    createdAt: { type: 'Date' },
    updatedAt: { type: 'Date' },
  },
  checks: [
    { name: 'products_price_check', property: 'price', expression: '(price >= 0)' },
    { name: 'products_stock_check', property: 'stock', expression: '(stock >= 0)' },
  ],
  uniques: [{ name: 'products_company_sku_unique', properties: ['companyId', 'sku'] }],
  indexes: [{ name: 'products_category_id_idx', properties: ['categoryId'] }],
});

const images = foreignKeysOf('product_images');

/** As m0026 creates `product_images`. */
export const ProductImageSchema = new EntitySchema<ProductImage>({
  name: 'ProductImage',
  tableName: 'product_images',
  properties: {
    id: { type: 'number', primary: true, autoincrement: true },
    companyId: images('company_id', 'Company', 'cascade'),
    productId: images('product_id', 'Product', 'cascade'),
    key: { type: 'string', length: 500, fieldName: 'blob_key' },
    url: { type: 'string', length: 1000 },
    contentType: { type: 'string', length: 100 },
    size: { type: 'integer' },
    position: { type: 'integer', default: 0 },
    createdAt: { type: 'Date' },
  },
  indexes: [{ name: 'product_images_product_position_idx', properties: ['productId', 'position'] }],
});

const imports = foreignKeysOf('product_imports');

/** As m0026 creates `product_imports`: one queued or processing per company. */
export const ProductImportSchema = new EntitySchema<ProductImport>({
  name: 'ProductImport',
  tableName: 'product_imports',
  properties: {
    id: { type: 'number', primary: true, autoincrement: true },
    companyId: imports('company_id', 'Company', 'cascade'),
    userId: imports('user_id', 'User', 'set null', { nullable: true }),
    status: { type: 'string', enum: true, items: ['queued', 'processing', 'completed', 'failed'], columnType: 'varchar(10)' },
    mode: { type: 'string', enum: true, items: ['create', 'upsert'], columnType: 'varchar(10)' },
    fileName: { type: 'string', length: 255 },
    total: { type: 'integer', default: 0 },
    processed: { type: 'integer', default: 0 },
    created: { type: 'integer', default: 0 },
    updated: { type: 'integer', default: 0 },
    skipped: { type: 'integer', default: 0 },
    failed: { type: 'integer', default: 0 },
    errors: { type: 'json', defaultRaw: `'[]'` },
    error: { type: 'string', length: 500, nullable: true },
    createdAt: { type: 'Date' },
    startedAt: { type: 'Date', nullable: true },
    finishedAt: { type: 'Date', nullable: true },
  },
  uniques: [
    {
      name: 'product_imports_open_idx',
      expression: `create unique index product_imports_open_idx on product_imports (company_id) where status in ('queued', 'processing')`,
    },
  ],
  indexes: [{ name: 'product_imports_company_id_idx', properties: ['companyId', 'id'] }],
});

/** The tables of the catalog feature. */
export const CATALOG_SCHEMAS = [CategorySchema, ProductSchema, ProductImageSchema, ProductImportSchema];
