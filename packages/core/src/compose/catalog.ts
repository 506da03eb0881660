import { AddProductImages, RemoveProductImage } from '../catalog/product-images.js';
import { RunProductImport, ShowLatestProductImport, ShowProductImport, StartProductImport } from '../catalog/import-products.js';
import { catalogJobs } from '../catalog/jobs.js';
import { CreateCategory, DeleteCategories, ListAllCategories, ListCategories, UpdateCategory } from '../catalog/manage-categories.js';
import { CreateProduct, DeleteProducts, ListProducts, ShowProduct, UpdateProduct } from '../catalog/manage-products.js';
import type { Categories, ProductImports, Products } from '../catalog/ports.js';
import type { SharedPorts } from './shared-ports.js';

/** The catalog's own ports; `products` is also read by the send-catalog and the orders. */
export interface CatalogPorts {
  readonly products: Products;
  readonly categories: Categories;
  readonly productImports: ProductImports;
}

/** The catalog: products with their images, categories, and spreadsheet imports (the job's use case too). */
export function createCatalog(p: CatalogPorts & SharedPorts) {
  const { products, categories, productImports: imports, blobs, jobQueue, realtime, tx, clock, ids } = p;
  const reads = { products, categories };
  const writes = { ...reads, blobs, tx, clock, realtime };
  const runProductImport = new RunProductImport({ ...reads, imports, blobs, jobQueue, tx, clock, realtime });
  return {
    listProducts: new ListProducts(reads),
    showProduct: new ShowProduct(reads),
    createProduct: new CreateProduct(writes),
    updateProduct: new UpdateProduct(writes),
    deleteProducts: new DeleteProducts(writes),
    addProductImages: new AddProductImages({ ...writes, ids }),
    removeProductImage: new RemoveProductImage(writes),
    listCategories: new ListCategories(reads),
    listAllCategories: new ListAllCategories(reads),
    createCategory: new CreateCategory(writes),
    updateCategory: new UpdateCategory(writes),
    deleteCategories: new DeleteCategories(writes),
    startProductImport: new StartProductImport({ imports, blobs, jobQueue, tx, clock, ids }),
    showProductImport: new ShowProductImport({ imports }),
    showLatestProductImport: new ShowLatestProductImport({ imports }),
    runProductImport,
    /** The import's runs (`catalog.import-products`). */
    jobs: () => catalogJobs({ runProductImport }),
  };
}
export type CatalogApi = ReturnType<typeof createCatalog>;
