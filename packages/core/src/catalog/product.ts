/**
 * What a company sells in its conversations. Prices are integer minor units (cents) of the product's
 * currency (ISO 4217, `BRL` by default), never floating point; stock is counted only when
 * `trackStock` is on, and never goes below zero.
 */
export interface Product {
  id: number;
  companyId: number;
  name: string;
  description: string;
  /** The seller's code, unique per company (case-sensitive as typed); null when the product has none. */
  sku: string | null;
  /** Minor units of `currency`. */
  price: number;
  currency: string;
  /** Units on hand; only meaningful with `trackStock`. */
  stock: number;
  trackStock: boolean;
  active: boolean;
  categoryId: number | null;
  createdAt: Date;
  updatedAt: Date;
}
export type NewProduct = Omit<Product, 'id'>;

/** One image of a product, in blob storage; a product has at most `MAX_PRODUCT_IMAGES`. */
export interface ProductImage {
  id: number;
  companyId: number;
  productId: number;
  /** The blob storage key. */
  key: string;
  url: string;
  contentType: string;
  size: number;
  position: number;
  createdAt: Date;
}
export type NewProductImage = Omit<ProductImage, 'id'>;

/** A shelf of the catalog: flat or nested one level under `parentId`, ordered by `position`. */
export interface Category {
  id: number;
  companyId: number;
  name: string;
  description: string;
  parentId: number | null;
  position: number;
  active: boolean;
  createdAt: Date;
  updatedAt: Date;
}
export type NewCategory = Omit<Category, 'id'>;

export const MAX_PRODUCT_IMAGES = 10;
