import { categoryRoutes, productRoutes } from '@servicedesk/adapters-http';
import { createCatalog, type CatalogApi } from '@servicedesk/core/compose/catalog';
import { feature, type Feature } from './feature.js';
import { PERSISTENCE_FEATURES, tablesOf } from '@servicedesk/adapters-persistence/features';

/**
 * The catalog (`/products`, `/categories`): products with their images (public blobs under
 * `public/company-<id>/products/`), categories nested one level, and spreadsheet imports written by
 * a one-off job per run of batches (`catalog.import-products`). Its `products` port is also what the
 * send-catalog and the orders read.
 */
export const catalog: Feature<object, { catalog: CatalogApi }> = feature({
  name: 'catalog',
  ...tablesOf(PERSISTENCE_FEATURES.catalog),
  ports: ({ infra }) => PERSISTENCE_FEATURES.catalog.repositories(infra.db.orm),
  api: (ports) => ({ catalog: createCatalog(ports) }),
  routes: (app) => [...productRoutes(app), ...categoryRoutes(app)],
  jobs: (app) => app.catalog.jobs(),
});
