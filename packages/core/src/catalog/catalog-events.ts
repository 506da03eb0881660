import type { RealtimeEventOf } from '../realtime/ports.js';
import type { CategoryView, ProductView } from './catalog-view.js';
import type { ProductImportView } from './product-import.js';

/** `company-<id>-product`: a product was created or changed (its images too), or products were deleted. */
export type ProductEvent = RealtimeEventOf<
  'product',
  | { readonly action: 'create'; readonly product: ProductView }
  | { readonly action: 'update'; readonly product: ProductView }
  | { readonly action: 'delete'; readonly productIds: number[] }
>;

/** `company-<id>-category`: a category was created or changed, or categories were deleted. */
export type CategoryEvent = RealtimeEventOf<
  'category',
  | { readonly action: 'create'; readonly category: CategoryView }
  | { readonly action: 'update'; readonly category: CategoryView }
  | { readonly action: 'delete'; readonly categoryIds: number[] }
>;

/** `company-<id>-productImport`: an import's record after each batch (`progress`) and once it ended (`done`). */
export type ProductImportEvent = RealtimeEventOf<
  'productImport',
  { readonly action: 'progress'; readonly record: ProductImportView } | { readonly action: 'done'; readonly record: ProductImportView }
>;

export type CatalogEvents = ProductEvent | CategoryEvent | ProductImportEvent;
