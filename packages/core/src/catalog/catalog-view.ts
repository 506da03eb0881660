import { NotFoundError } from '../shared/errors.js';
import type { Categories, Products } from './ports.js';
import type { Category, Product, ProductImage } from './product.js';

/** An image as clients show it: its public URL, never its storage key. */
export interface ProductImageView {
  id: number;
  url: string;
  contentType: string;
  size: number;
  position: number;
  createdAt: string;
}

/** A product as the API and its events show it, with its images in order and its category's name. */
export interface ProductView {
  id: number;
  companyId: number;
  name: string;
  description: string;
  sku: string | null;
  price: number;
  currency: string;
  stock: number;
  trackStock: boolean;
  active: boolean;
  categoryId: number | null;
  category: { id: number; name: string } | null;
  images: ProductImageView[];
  createdAt: string;
  updatedAt: string;
}

export interface CategoryView {
  id: number;
  companyId: number;
  name: string;
  description: string;
  parentId: number | null;
  position: number;
  active: boolean;
  /** Products in this category (not counting its subcategories'). */
  productsCount: number;
  createdAt: string;
  updatedAt: string;
}

export interface CatalogReads {
  readonly products: Products;
  readonly categories: Categories;
}

const imageOrder = (a: ProductImage, b: ProductImage) => a.position - b.position || a.id - b.id;

/** Products with their images and categories, read in two queries whatever their number. */
export async function productViews(deps: CatalogReads, companyId: number, found: readonly Product[]): Promise<ProductView[]> {
  if (!found.length) return [];
  const categoryIds = [...new Set(found.flatMap((p) => (p.categoryId === null ? [] : [p.categoryId])))];
  const [images, categories] = await Promise.all([
    deps.products.images(
      companyId,
      found.map((p) => p.id),
    ),
    categoryIds.length ? deps.categories.findByIds(companyId, categoryIds) : Promise.resolve([]),
  ]);
  const names = new Map(categories.map((c) => [c.id, c.name]));
  return found.map((p) => {
    const name = p.categoryId === null ? undefined : names.get(p.categoryId);
    return {
      id: p.id,
      companyId: p.companyId,
      name: p.name,
      description: p.description,
      sku: p.sku,
      price: p.price,
      currency: p.currency,
      stock: p.stock,
      trackStock: p.trackStock,
      active: p.active,
      categoryId: p.categoryId,
      category: name === undefined ? null : { id: p.categoryId!, name },
      images: images
        .filter((i) => i.productId === p.id)
        .sort(imageOrder)
        .map((i) => ({
          id: i.id,
          url: i.url,
          contentType: i.contentType,
          size: i.size,
          position: i.position,
          createdAt: i.createdAt.toISOString(),
        })),
      createdAt: p.createdAt.toISOString(),
      updatedAt: p.updatedAt.toISOString(),
    };
  });
}

export async function productView(deps: CatalogReads, product: Product): Promise<ProductView> {
  return (await productViews(deps, product.companyId, [product]))[0]!;
}

/** Categories with their product counts, read in one query. */
export async function categoryViews(products: Products, companyId: number, found: readonly Category[]): Promise<CategoryView[]> {
  if (!found.length) return [];
  const counts = await products.countByCategories(
    companyId,
    found.map((c) => c.id),
  );
  return found.map((c) => ({
    id: c.id,
    companyId: c.companyId,
    name: c.name,
    description: c.description,
    parentId: c.parentId,
    position: c.position,
    active: c.active,
    productsCount: counts.get(c.id) ?? 0,
    createdAt: c.createdAt.toISOString(),
    updatedAt: c.updatedAt.toISOString(),
  }));
}

/** The company's product, or 404 `ERR_PRODUCT_NOT_FOUND` (also for another company's). */
export async function findProduct(products: Products, companyId: number, id: number): Promise<Product> {
  const product = await products.findById(companyId, id);
  if (!product) throw new NotFoundError('ERR_PRODUCT_NOT_FOUND');
  return product;
}

/** The company's category, or 404 `ERR_CATEGORY_NOT_FOUND` (also for another company's). */
export async function findCategory(categories: Categories, companyId: number, id: number): Promise<Category> {
  const category = await categories.findById(companyId, id);
  if (!category) throw new NotFoundError('ERR_CATEGORY_NOT_FOUND');
  return category;
}
