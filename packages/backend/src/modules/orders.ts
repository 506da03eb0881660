import { orderRoutes } from '@servicedesk/adapters-http';
import { createOrders, type OrdersApi } from '@servicedesk/core/compose/orders';
import { feature, type Feature } from './feature.js';
import { PERSISTENCE_FEATURES, tablesOf } from '@servicedesk/adapters-persistence/features';

/**
 * Orders (`/orders`) and order settings (`/order-settings`): orders priced from the catalog's
 * products (the catalog feature provides `products`), their stock taken and given back in the same
 * transactions, and each status's message sent to the contact through the one send path.
 */
export const orders: Feature<object, { orders: OrdersApi }> = feature({
  name: 'orders',
  ...tablesOf(PERSISTENCE_FEATURES.orders),
  ports: ({ infra }) => PERSISTENCE_FEATURES.orders.repositories(infra.db.orm),
  api: (ports) => ({ orders: createOrders(ports) }),
  routes: (app) => orderRoutes(app),
});
