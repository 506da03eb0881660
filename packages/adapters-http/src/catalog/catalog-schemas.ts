import { PRODUCT_IMPORT_MODES } from '@servicedesk/core/catalog/product-import';
import { z } from 'zod';

/** What the catalog routes answer (packages/core/src/catalog): products, categories and imports. */

const timestamp = z.iso.datetime();
const count = z.number().int().nonnegative();
const positiveId = z.number().int().positive();

const IMAGE_EXAMPLE = {
  id: 12,
  url: 'https://files.example.com/public/company-1/products/7/3f1c.png',
  contentType: 'image/png',
  size: 48_213,
  position: 0,
  createdAt: '2026-02-01T12:00:00.000Z',
};
const PRODUCT_EXAMPLE = {
  id: 7,
  companyId: 1,
  name: 'Café especial 250 g',
  description: 'Torra média, grãos',
  sku: 'CAF-250',
  price: 3490,
  currency: 'BRL',
  stock: 18,
  trackStock: true,
  active: true,
  categoryId: 3,
  category: { id: 3, name: 'Cafés' },
  images: [IMAGE_EXAMPLE],
  createdAt: '2026-02-01T12:00:00.000Z',
  updatedAt: '2026-02-03T09:30:00.000Z',
};
const CATEGORY_EXAMPLE = {
  id: 3,
  companyId: 1,
  name: 'Cafés',
  description: 'Grãos e moídos',
  parentId: null,
  position: 0,
  active: true,
  productsCount: 12,
  createdAt: '2026-02-01T12:00:00.000Z',
  updatedAt: '2026-02-01T12:00:00.000Z',
};
const IMPORT_EXAMPLE = {
  id: 5,
  status: 'completed' as const,
  mode: 'upsert' as const,
  fileName: 'produtos.xlsx',
  total: 120,
  processed: 120,
  created: 100,
  updated: 18,
  skipped: 0,
  failed: 2,
  errors: [
    { row: 14, field: 'price', error: 'ERR_PRODUCT_INVALID_PRICE' },
    { row: 90, field: 'sku', error: 'ERR_PRODUCT_IMPORT_DUPLICATE_SKU' },
  ],
  error: null,
  createdAt: '2026-02-04T10:00:00.000Z',
  startedAt: '2026-02-04T10:00:01.000Z',
  finishedAt: '2026-02-04T10:00:03.000Z',
};

export const productImageSchema = z
  .object({
    id: positiveId,
    url: z.string().meta({ description: 'Public URL of the image' }),
    contentType: z.string().meta({ description: 'As recognised from its bytes: `image/png`, `image/jpeg`, `image/webp` or `image/gif`' }),
    size: count.meta({ description: 'Bytes' }),
    position: count.meta({ description: "Order among the product's images (the first is the one sent in conversations)" }),
    createdAt: timestamp,
  })
  .meta({ id: 'ProductImage', description: 'One image of a product', example: IMAGE_EXAMPLE });

export const productSchema = z
  .object({
    id: positiveId,
    companyId: positiveId,
    name: z.string(),
    description: z.string(),
    sku: z.string().nullable().meta({ description: "The seller's code, unique in the company; null for none" }),
    price: count.meta({ description: 'Minor units (cents) of `currency`: 3490 is R$ 34,90' }),
    currency: z.string().length(3).meta({ description: 'ISO 4217 code', example: 'BRL' }),
    stock: count.meta({ description: 'Units on hand; meaningful only with `trackStock`' }),
    trackStock: z.boolean().meta({ description: 'Orders reserve stock (never below zero) only when on' }),
    active: z.boolean().meta({ description: 'Inactive products are never sent to contacts nor ordered' }),
    categoryId: positiveId.nullable(),
    category: z.object({ id: positiveId, name: z.string() }).nullable(),
    images: z.array(productImageSchema),
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .meta({ id: 'Product', description: "A product of the company's catalog", example: PRODUCT_EXAMPLE });

export const productPageSchema = z
  .object({
    products: z.array(productSchema),
    count: count.meta({ description: 'How many products match in all' }),
    hasMore: z.boolean(),
  })
  .meta({ id: 'ProductPage', description: 'A page (20) of products by name', example: { products: [PRODUCT_EXAMPLE], count: 1, hasMore: false } });

export const productsDeletedSchema = z
  .object({
    deleted: count.meta({ description: 'How many products were deleted' }),
    ids: z.array(positiveId),
  })
  .meta({ id: 'ProductsDeleted', description: 'The products are gone, with their images', example: { deleted: 2, ids: [7, 9] } });

export const categorySchema = z
  .object({
    id: positiveId,
    companyId: positiveId,
    name: z.string(),
    description: z.string(),
    parentId: positiveId.nullable().meta({ description: 'The top-level category this one is under; null at the top level' }),
    position: count.meta({ description: 'Order in lists (then by name)' }),
    active: z.boolean(),
    productsCount: count.meta({ description: "Products in this category (not counting its subcategories')" }),
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .meta({ id: 'Category', description: 'A category of the catalog', example: CATEGORY_EXAMPLE });

export const categoryArraySchema = z
  .array(categorySchema)
  .meta({ id: 'CategoryArray', description: 'Every category of the company, by position then name', example: [CATEGORY_EXAMPLE] });

export const categoryPageSchema = z
  .object({
    categories: z.array(categorySchema),
    count,
    hasMore: z.boolean(),
  })
  .meta({
    id: 'CategoryPage',
    description: 'A page (20) of categories by position then name',
    example: { categories: [CATEGORY_EXAMPLE], count: 1, hasMore: false },
  });

export const categoriesDeletedSchema = z
  .object({
    deleted: count.meta({ description: 'How many categories were deleted' }),
    ids: z.array(positiveId),
  })
  .meta({ id: 'CategoriesDeleted', description: 'The categories are gone; their subcategories moved to the top level', example: { deleted: 1, ids: [3] } });

export const productImportSchema = z
  .object({
    id: positiveId,
    status: z.enum(['queued', 'processing', 'completed', 'failed']),
    mode: z
      .enum(PRODUCT_IMPORT_MODES)
      .meta({ description: "`create` adds every row (a SKU the catalog has is skipped); `upsert` updates the product with the row's SKU or adds it" }),
    fileName: z.string(),
    total: count.meta({ description: 'Rows of the file with any value' }),
    processed: count,
    created: count,
    updated: count,
    skipped: count.meta({ description: '`create` rows whose SKU the catalog already had' }),
    failed: count.meta({ description: 'Rows refused (all of them; `errors` lists the first 100)' }),
    errors: z.array(
      z.object({
        row: z.number().int().positive().meta({ description: 'As the spreadsheet numbers it (the header is row 1)' }),
        field: z.string().meta({ description: 'The column at fault: name, price, sku, currency, stock, active, description or category' }),
        error: z.string().meta({ description: 'The error code' }),
      }),
    ),
    error: z.string().nullable().meta({ description: 'Why a failed import stopped (rows of earlier batches stay)' }),
    createdAt: timestamp,
    startedAt: timestamp.nullable(),
    finishedAt: timestamp.nullable(),
  })
  .meta({ id: 'ProductImport', description: 'A spreadsheet import into the catalog', example: IMPORT_EXAMPLE });
