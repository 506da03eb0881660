import { ValidationError, type ErrorCode } from '@servicedesk/core';
import { productRowsOfTable } from '@servicedesk/core/catalog/import-rows';
import { MAX_BULK_IDS } from '@servicedesk/core/catalog/manage-products';
import { MAX_PRODUCT_IMAGE_BYTES } from '@servicedesk/core/catalog/product-images';
import { MAX_PRODUCT_IMAGES } from '@servicedesk/core/catalog/product';
import { PRODUCT_IMPORT_MODES } from '@servicedesk/core/catalog/product-import';
import type { CatalogApi } from '@servicedesk/core/compose/catalog';
import { z } from 'zod';
import { MAX_CONTACT_FILE_BYTES, readContactTable } from '../contacts/contact-files.js';
import { HttpError } from '../http/error-middleware.js';
import { route, type RouteError } from '../http/route.js';
import { formBoolean, id, idParam, pagedQuery } from '../http/schemas.js';
import {
  categoriesDeletedSchema,
  categoryArraySchema,
  categoryPageSchema,
  categorySchema,
  productImportSchema,
  productPageSchema,
  productSchema,
  productsDeletedSchema,
} from './catalog-schemas.js';

export const CATALOG_TAG = 'Catalog, products, orders';
const ADMINS: RouteError = { status: 403, codes: ['ERR_NO_PERMISSION'], description: 'The caller is not an admin' };
const PRODUCT_NOT_FOUND: RouteError = { status: 404, codes: ['ERR_PRODUCT_NOT_FOUND'] };
const CATEGORY_NOT_FOUND: RouteError = {
  status: 404,
  codes: ['ERR_CATEGORY_NOT_FOUND'],
  description: '`categoryId` (or `parentId`) is not a category of the company',
};
const IMPORT_NOT_FOUND: RouteError = { status: 404, codes: ['ERR_IMPORT_NOT_FOUND'] };
const PRODUCT_FIELD_ERRORS: ErrorCode[] = [
  'ERR_PRODUCT_INVALID_NAME',
  'ERR_PRODUCT_INVALID_DESCRIPTION',
  'ERR_PRODUCT_INVALID_SKU',
  'ERR_PRODUCT_INVALID_PRICE',
  'ERR_PRODUCT_INVALID_CURRENCY',
  'ERR_PRODUCT_INVALID_STOCK',
];
const CATEGORY_FIELD_ERRORS: ErrorCode[] = [
  'ERR_CATEGORY_INVALID_NAME',
  'ERR_CATEGORY_INVALID_DESCRIPTION',
  'ERR_CATEGORY_INVALID_POSITION',
  'ERR_CATEGORY_INVALID_PARENT',
];
const IMPORT_FILE_ERRORS: ErrorCode[] = [
  'ERR_IMPORT_NO_FILE',
  'ERR_IMPORT_EMPTY',
  'ERR_IMPORT_UNSUPPORTED_FILE',
  'ERR_IMPORT_INVALID_FILE',
  'ERR_PRODUCT_IMPORT_MISSING_COLUMNS',
];

/** Types only: the use cases check each field and answer with its own code. */
const productBody = z
  .object({
    name: z.string().max(10_000).meta({ description: 'Trimmed, one line, 1 to 200 characters; required to create', example: 'Vaso de cerâmica 20 cm' }),
    description: z
      .string()
      .max(100_000)
      .meta({ description: 'Trimmed, up to 5,000 characters; empty by default', example: 'Feito à mão, com furo de drenagem.' }),
    sku: z.string().max(1000).nullable().meta({ description: 'Unique in the company; empty or null for none' }),
    price: z.number().meta({ description: 'Minor units (cents), a whole number from 0 to 1,000,000,000: 1250 is R$ 12,50' }),
    currency: z.string().max(100).meta({ description: 'ISO 4217 code (default BRL)' }),
    stock: z.number().meta({ description: "The units on hand (an operator's count); giving it turns `trackStock` on unless that is given too" }),
    trackStock: z.boolean().meta({
      description: 'Whether orders take units from `stock` (and are refused beyond what is on hand); false by default, true when a `stock` is given without it',
    }),
    active: z.boolean().meta({ description: 'An inactive product cannot be put in new orders; true by default' }),
    categoryId: id.nullable().meta({ description: 'A category of the company; null for none (the default)', example: 3 }),
  })
  .partial();
const PRODUCT_EXAMPLE = {
  name: 'Vaso de cerâmica 20 cm',
  description: 'Feito à mão, com furo de drenagem.',
  sku: 'VASO-20',
  price: 4990,
  currency: 'BRL',
  stock: 12,
  active: true,
  categoryId: 3,
};

const categoryBody = z
  .object({
    name: z
      .string()
      .max(10_000)
      .meta({ description: 'Trimmed, one line, 1 to 100 characters, unique among its siblings ignoring case; required to create', example: 'Vasos' }),
    description: z.string().max(100_000).meta({ description: 'Trimmed, up to 1,000 characters; empty by default', example: 'Vasos de cerâmica e barro' }),
    parentId: id.nullable().meta({ description: 'A top-level category of the company; null or absent for the top level' }),
    position: z
      .number()
      .meta({ description: 'Order among the categories, a whole number from 0 to 1,000,000 (lower first, then by name); 0 by default', example: 1 }),
    active: z.boolean().meta({ description: "A flag for clients (the category's products are not affected); true by default" }),
  })
  .partial();

const bulkIdsField = (what: string) =>
  bulkIds.optional().meta({ description: `The ${what} to delete (1 to ${MAX_BULK_IDS}); absent: those of the \`ids\` query`, example: [4, 7] });
const idListQuery = (what: string) =>
  idList.optional().meta({ description: `The ${what} to delete, comma-separated (\`4,7\`), when the body has no \`ids\``, example: '4,7' });

/** `?ids=1,2,3`, the bulk deletes' alternative to a body (some clients send no body with DELETE). */
const idList = z
  .string()
  .max(20_000)
  .regex(/^\d+(,\d+)*$/)
  .transform((s) => s.split(',').map(Number))
  .pipe(z.array(z.number().int().positive().max(2_147_483_647)).max(MAX_BULK_IDS));
const bulkIds = z.array(id).min(1).max(MAX_BULK_IDS);

/** The ids of a bulk delete, from the body or else the query; neither is 422 `ERR_VALIDATION`. */
function idsOf(body: { ids?: number[] | undefined }, query: { ids?: number[] | undefined }): number[] {
  const ids = body.ids ?? query.ids;
  if (!ids?.length) throw new HttpError(422, 'ERR_VALIDATION', [{ path: 'body.ids', message: 'Give `ids` in the body or the query' }]);
  return ids;
}

const defined = <T extends object>(fields: T) => Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as T;

type CatalogApp = { readonly catalog: CatalogApi };

/**
 * The catalog's products (`/products`): every user of the company reads them, admins change them,
 * upload their images and import spreadsheets. Events: `company-<id>-product` to every user,
 * `-productImport` to admins.
 */
export function productRoutes(app: CatalogApp) {
  const tag = CATALOG_TAG;
  const catalog = app.catalog;
  const byProductId = idParam('productId');
  return [
    route({
      method: 'GET',
      path: '/products',
      auth: 'isAuth',
      tag,
      summary: 'Page through the products',
      description:
        'Any user of the company. A page (20) as `{products, count, hasMore}`, by name, each with its `images` and `category {id, name}`; ' +
        "`searchParam` in the name or the SKU (case and accents ignored), `categoryId` one category's, `active` only active (`true`) or inactive (`false`) ones.",
      query: pagedQuery.extend({
        categoryId: id.optional().meta({ description: "Only this category's products; absent: every category's", example: 3 }),
        active: formBoolean.optional().meta({ description: '`true` (or `1`): only active products, `false` (or `0`): only inactive ones; absent: both' }),
      }),
      response: productPageSchema,
      handler: async ({ actor, query }) => catalog.listProducts.execute({ actor, ...defined(query) }),
    }),
    route({
      method: 'GET',
      path: '/products/import/status',
      auth: 'isAuth',
      tag,
      summary: "The company's latest product import",
      description: 'Admins. The most recent import, running or ended (for a progress banner); 404 `ERR_IMPORT_NOT_FOUND` when the company never imported.',
      response: productImportSchema,
      errors: [ADMINS, IMPORT_NOT_FOUND],
      handler: async ({ actor }) => catalog.showLatestProductImport.execute({ actor }),
    }),
    route({
      method: 'GET',
      path: '/products/import/:id',
      auth: 'isAuth',
      tag,
      summary: 'A product import with its report',
      description: "Admins. Its counts and the first 100 refused rows `{row, field, error}`. Another company's import is 404.",
      params: idParam('id'),
      response: productImportSchema,
      errors: [ADMINS, IMPORT_NOT_FOUND],
      handler: async ({ actor, params }) => catalog.showProductImport.execute({ actor, importId: params.id }),
    }),
    route({
      method: 'GET',
      path: '/products/:productId',
      auth: 'isAuth',
      tag,
      summary: 'A product with its images and category',
      description: "Any user of the company. Another company's product is 404.",
      params: byProductId,
      response: productSchema,
      errors: [PRODUCT_NOT_FOUND],
      handler: async ({ actor, params }) => catalog.showProduct.execute({ actor, productId: params.productId }),
    }),
    route({
      method: 'POST',
      path: '/products',
      auth: 'isAuth',
      tag,
      summary: 'Create a product',
      description:
        'Admins. `{name, price, description?, sku?, currency?, stock?, trackStock?, active?, categoryId?}`: `price` in minor units (cents); ' +
        'currency BRL, active and no stock counting by default. Answers 200 with the product; emits `product` `create`.',
      body: productBody.meta({ example: PRODUCT_EXAMPLE }),
      response: productSchema,
      errors: [ADMINS, CATEGORY_NOT_FOUND, { status: 409, codes: ['ERR_PRODUCT_SKU_IN_USE'] }, { status: 422, codes: PRODUCT_FIELD_ERRORS }],
      handler: async ({ actor, body }) => catalog.createProduct.execute({ actor, ...defined(body) }),
    }),
    route({
      method: 'PUT',
      path: '/products/:productId',
      auth: 'isAuth',
      tag,
      summary: 'Change a product',
      description:
        'Admins. The fields given change, the others stay (a client may send the whole product back: `images`, `category` and the ' +
        'timestamps are ignored). A `stock` given is the new count. Emits `product` `update`.',
      params: byProductId,
      body: productBody.meta({ example: { price: 5490, stock: 20, active: true } }),
      response: productSchema,
      errors: [ADMINS, PRODUCT_NOT_FOUND, CATEGORY_NOT_FOUND, { status: 409, codes: ['ERR_PRODUCT_SKU_IN_USE'] }, { status: 422, codes: PRODUCT_FIELD_ERRORS }],
      handler: async ({ actor, params, body }) => catalog.updateProduct.execute({ actor, productId: params.productId, ...defined(body) }),
    }),
    route({
      method: 'DELETE',
      path: '/products',
      auth: 'isAuth',
      tag,
      summary: 'Delete products in bulk',
      description:
        `Admins. \`{ids: [...]}\` in the body, or \`?ids=1,2\` (up to ${MAX_BULK_IDS}): all go with their images, or none does ` +
        "(an id that is not one of the company's products is 404). Emits one `product` `delete` with `productIds`.",
      body: z.object({ ids: bulkIdsField('products') }).meta({ example: { ids: [4, 7] } }),
      query: z.object({ ids: idListQuery('products') }),
      response: productsDeletedSchema,
      errors: [ADMINS, { status: 404, codes: ['ERR_PRODUCT_NOT_FOUND'], description: 'An id is not a product of the company; nothing was deleted' }],
      handler: async ({ actor, body, query }) => {
        const ids = await catalog.deleteProducts.execute({ actor, ids: idsOf(body, query) });
        return { deleted: ids.length, ids };
      },
    }),
    route({
      method: 'POST',
      path: '/products/:productId/images',
      auth: 'isAuth',
      tag,
      summary: 'Upload images of a product (multipart `images`)',
      description:
        `Admins. Multipart: up to ${MAX_PRODUCT_IMAGES} files in \`images\` (or \`file\`), each up to ${MAX_PRODUCT_IMAGE_BYTES / 1024 / 1024} MiB, ` +
        "added after the product's other images (a product has at most 10). Each is recognised by its bytes: PNG, JPEG, WebP or GIF (the claimed type is ignored; " +
        'SVG and anything else is 422). Stored as public files under the company. Answers the product; emits `product` `update`.',
      params: byProductId,
      body: z.object({}).meta({ description: 'No form field besides the images; others are ignored', example: {} }),
      response: productSchema,
      multipart: { fileFields: ['images', 'file'], maxFileBytes: MAX_PRODUCT_IMAGE_BYTES, maxFiles: MAX_PRODUCT_IMAGES, maxFields: 10 },
      errors: [
        ADMINS,
        PRODUCT_NOT_FOUND,
        { status: 413, codes: ['ERR_FILE_TOO_LARGE'] },
        { status: 422, codes: ['ERR_NO_FILE', 'ERR_FILE_TYPE_NOT_ALLOWED', 'ERR_PRODUCT_TOO_MANY_IMAGES'] },
      ],
      handler: async ({ actor, params, multipart }) =>
        catalog.addProductImages.execute({
          actor,
          productId: params.productId,
          files: [...(multipart.files.images ?? []), ...(multipart.files.file ?? [])],
        }),
    }),
    route({
      method: 'DELETE',
      path: '/products/:productId/images/:imageId',
      auth: 'isAuth',
      tag,
      summary: 'Delete an image of a product',
      description: 'Admins. Its file is deleted once the change has committed. Answers the product; emits `product` `update`.',
      params: z.object({
        productId: id.meta({ description: "The product's id", example: 1 }),
        imageId: id.meta({ description: "The image's id, one of the product's", example: 1 }),
      }),
      response: productSchema,
      errors: [ADMINS, PRODUCT_NOT_FOUND, { status: 404, codes: ['ERR_PRODUCT_IMAGE_NOT_FOUND'] }],
      handler: async ({ actor, params }) => catalog.removeProductImage.execute({ actor, productId: params.productId, imageId: params.imageId }),
    }),
    route({
      method: 'POST',
      path: '/products/import',
      auth: 'isAuth',
      tag,
      status: 202,
      summary: 'Import products from a CSV or XLSX file (multipart `file`, `mode`), in the background',
      description:
        'Admins. Columns by header, ignoring case and accents: name/nome/produto and price/preço/valor (required), description/descrição, sku/código, ' +
        'currency/moeda, stock/estoque, active/ativo (sim/não, yes/no, 1/0), category/categoria (by name, ignoring case; created at the top level when missing). ' +
        'Prices as a spreadsheet writes them (`12,50`, `12.50`, `R$ 12,50`, `1.234,56`). `mode` `create` (default: a SKU the catalog has is skipped) ' +
        "or `upsert` (the product with the row's SKU takes the columns the file has). Answers 202 with the import (`queued`); rows are then written 500 per " +
        'transaction. Progress as `productImport` `progress` frames and `GET /products/import/:id`. One import per company at a time.',
      body: z
        .object({
          mode: z.enum(PRODUCT_IMPORT_MODES).optional().meta({
            description: "`create` (the default): a row whose SKU the catalog has is skipped; `upsert`: that product takes the row's columns",
            example: 'upsert',
          }),
        })
        .meta({ example: { mode: 'upsert' } }),
      response: productImportSchema,
      multipart: { fileFields: ['file'], maxFileBytes: MAX_CONTACT_FILE_BYTES, maxFiles: 1, maxFields: 10 },
      errors: [
        ADMINS,
        { status: 409, codes: ['ERR_PRODUCT_IMPORT_IN_PROGRESS'] },
        { status: 413, codes: ['ERR_IMPORT_TOO_MANY_ROWS'] },
        { status: 422, codes: IMPORT_FILE_ERRORS },
      ],
      handler: async ({ actor, body, multipart: form }) => {
        const file = form.files.file?.[0];
        if (!file) throw new ValidationError('ERR_IMPORT_NO_FILE');
        return catalog.startProductImport.execute({
          actor,
          fileName: file.filename,
          ...defined({ mode: body.mode }),
          sheet: async () => productRowsOfTable(await readContactTable(file)),
        });
      },
    }),
  ];
}

/** The catalog's categories (`/categories`): every user reads them, admins change them. Events: `company-<id>-category`, to every user. */
export function categoryRoutes(app: CatalogApp) {
  const tag = CATALOG_TAG;
  const catalog = app.catalog;
  return [
    route({
      method: 'GET',
      path: '/categories/all',
      auth: 'isAuth',
      tag,
      summary: 'Every category of the company (pickers)',
      description: 'Any user of the company. A bare array by position then name, each with its `parentId` and `productsCount`.',
      response: categoryArraySchema,
      handler: async ({ actor }) => catalog.listAllCategories.execute({ actor }),
    }),
    route({
      method: 'GET',
      path: '/categories',
      auth: 'isAuth',
      tag,
      summary: 'Page through the categories',
      description:
        'Any user of the company. A page (20) as `{categories, count, hasMore}` by position then name; `searchParam` in the name, ignoring case and accents.',
      query: pagedQuery,
      response: categoryPageSchema,
      handler: async ({ actor, query }) => catalog.listCategories.execute({ actor, ...defined(query) }),
    }),
    route({
      method: 'POST',
      path: '/categories',
      auth: 'isAuth',
      tag,
      summary: 'Create a category',
      description:
        'Admins. `{name, description?, parentId?, position?, active?}`; categories nest one level (a parent is a top-level category). ' +
        'Answers 200 with the category; emits `category` `create`.',
      body: categoryBody.meta({ example: { name: 'Vasos', description: 'Vasos de cerâmica e barro', parentId: null, position: 1, active: true } }),
      response: categorySchema,
      errors: [ADMINS, CATEGORY_NOT_FOUND, { status: 409, codes: ['ERR_CATEGORY_NAME_IN_USE'] }, { status: 422, codes: CATEGORY_FIELD_ERRORS }],
      handler: async ({ actor, body }) => catalog.createCategory.execute({ actor, ...defined(body) }),
    }),
    route({
      method: 'PUT',
      path: '/categories/:id',
      auth: 'isAuth',
      tag,
      summary: 'Change a category',
      description: 'Admins. The fields given change, the others stay. A category with subcategories stays at the top level. Emits `category` `update`.',
      params: idParam('id'),
      body: categoryBody.meta({ example: { name: 'Vasos e cachepôs', position: 2 } }),
      response: categorySchema,
      errors: [ADMINS, CATEGORY_NOT_FOUND, { status: 409, codes: ['ERR_CATEGORY_NAME_IN_USE'] }, { status: 422, codes: CATEGORY_FIELD_ERRORS }],
      handler: async ({ actor, params, body }) => catalog.updateCategory.execute({ actor, categoryId: params.id, ...defined(body) }),
    }),
    route({
      method: 'DELETE',
      path: '/categories',
      auth: 'isAuth',
      tag,
      summary: 'Delete categories in bulk',
      description:
        `Admins. \`{ids: [...], detach?}\` in the body, or \`?ids=1,2&detach=true\` (up to ${MAX_BULK_IDS}): all go or none does. ` +
        'While products are in them the delete is refused with 409 `ERR_CATEGORY_IN_USE`, unless `detach: true`, which takes the products out (no ' +
        'category) in the same transaction. Subcategories move to the top level. Emits `category` `delete` with `categoryIds`, then `update` for each subcategory moved.',
      body: z
        .object({
          ids: bulkIdsField('categories'),
          detach: z.boolean().optional().meta({
            description: 'true: take the products out of the categories first; absent: that of the query, else false (409 while products are in them)',
          }),
        })
        .meta({ example: { ids: [4, 7], detach: true } }),
      query: z.object({
        ids: idListQuery('categories'),
        detach: formBoolean
          .optional()
          .meta({ description: '`true` (or `1`): take the products out of the categories first, when the body has no `detach`; default false' }),
      }),
      response: categoriesDeletedSchema,
      errors: [
        ADMINS,
        { status: 404, codes: ['ERR_CATEGORY_NOT_FOUND'], description: 'An id is not a category of the company; nothing was deleted' },
        { status: 409, codes: ['ERR_CATEGORY_IN_USE', 'ERR_CATEGORY_NAME_IN_USE'] },
      ],
      handler: async ({ actor, body, query }) => {
        const ids = await catalog.deleteCategories.execute({ actor, ids: idsOf(body, query), detach: body.detach ?? query.detach ?? false });
        return { deleted: ids.length, ids };
      },
    }),
  ];
}
