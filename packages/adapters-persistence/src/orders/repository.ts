import type { MikroORM } from '@mikro-orm/core';
import { MikroOrmOrders } from './orders-repository.js';
import { MikroOrmOrderLogs } from './order-logs-repository.js';
import { MikroOrmOrderSettings } from './order-settings-repository.js';

/** The orders' repositories over one ORM. */
export const ordersRepositories = (orm: MikroORM) => ({
  orders: new MikroOrmOrders(orm),
  orderLogs: new MikroOrmOrderLogs(orm),
  orderSettings: new MikroOrmOrderSettings(orm),
});
