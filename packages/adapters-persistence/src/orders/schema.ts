import { BigIntType, EntitySchema } from '@mikro-orm/core';
import { ORDER_LOG_TYPES, ORDER_STATUSES } from '@servicedesk/core/orders/order';
import { foreignKeysOf } from '../shared/columns.js';

/*
 * The order tables as m0027 creates them. The repositories read and write them with SQL (a counter
 * upsert, conditional updates, row locks), so these rows are the tables' shape: the schema drift
 * test compares them with the migration.
 */

/** An amount in minor units: bigint in the table, a number in the domain (exact up to 2^53). */
const amount = { type: new BigIntType('number') } as const;

export interface OrderNumberRow {
  companyId: number;
  lastNumber: number;
}

export const OrderNumberSchema = new EntitySchema<OrderNumberRow>({
  name: 'OrderNumber',
  tableName: 'order_numbers',
  properties: {
    companyId: foreignKeysOf('order_numbers')('company_id', 'Company', 'cascade', { primary: true }),
    lastNumber: { type: 'number' },
  },
});

export interface OrderRow {
  id: number;
  companyId: number;
  number: number;
  contactId: number | null;
  ticketId: number | null;
  userId: number | null;
  status: string;
  currency: string;
  subtotal: number;
  discount: number;
  shippingFee: number;
  total: number;
  paymentMethod: string | null;
  notes: string;
  address: string | null;
  version: number;
  createdAt: Date;
  updatedAt: Date;
}

const orders = foreignKeysOf('orders');

export const OrderSchema = new EntitySchema<OrderRow>({
  name: 'Order',
  tableName: 'orders',
  properties: {
    id: { type: 'number', primary: true, autoincrement: true },
    companyId: orders('company_id', 'Company', 'cascade'),
    number: { type: 'number' },
    contactId: orders('contact_id', 'Contact', 'set null', { nullable: true }),
    ticketId: orders('ticket_id', 'Ticket', 'set null', { nullable: true }),
    userId: orders('user_id', 'User', 'set null', { nullable: true }),
    status: { type: 'string', enum: true, items: [...ORDER_STATUSES], columnType: 'varchar(10)' },
    currency: { type: 'string', length: 3 },
    subtotal: amount,
    discount: { ...amount, default: 0 },
    shippingFee: { ...amount, default: 0 },
    total: amount,
    paymentMethod: { type: 'string', length: 50, nullable: true },
    notes: { type: 'text', default: '' },
    address: { type: 'string', length: 1000, nullable: true },
    version: { type: 'number', default: 1 },
    createdAt: { type: 'Date' },
    updatedAt: { type: 'Date' },
  },
  checks: [
    { name: 'orders_subtotal_check', property: 'subtotal', expression: 'subtotal >= 0' },
    { name: 'orders_discount_check', property: 'discount', expression: 'discount >= 0' },
    { name: 'orders_shipping_fee_check', property: 'shippingFee', expression: 'shipping_fee >= 0' },
    { name: 'orders_total_check', property: 'total', expression: 'total >= 0' },
  ],
  uniques: [{ name: 'orders_company_id_number_key', properties: ['companyId', 'number'] }],
  indexes: [
    { name: 'orders_company_id_status_idx', properties: ['companyId', 'status'] },
    { name: 'orders_company_id_created_at_idx', properties: ['companyId', 'createdAt'] },
    { name: 'orders_contact_id_idx', properties: ['contactId'] },
    { name: 'orders_ticket_id_idx', properties: ['ticketId'] },
    { name: 'orders_user_id_idx', properties: ['userId'] },
  ],
});

export interface OrderItemRow {
  id: number;
  companyId: number;
  orderId: number;
  productId: number | null;
  name: string;
  sku: string | null;
  unitPrice: number;
  quantity: number;
  total: number;
  reserved: number;
  position: number;
}

const items = foreignKeysOf('order_items');

export const OrderItemSchema = new EntitySchema<OrderItemRow>({
  name: 'OrderItem',
  tableName: 'order_items',
  properties: {
    id: { type: 'number', primary: true, autoincrement: true },
    companyId: items('company_id', 'Company', 'cascade'),
    orderId: items('order_id', 'Order', 'cascade'),
    productId: items('product_id', 'Product', 'set null', { nullable: true }),
    name: { type: 'text' },
    sku: { type: 'text', nullable: true },
    unitPrice: amount,
    quantity: { type: 'number' },
    total: amount,
    reserved: { type: 'number', default: 0 },
    position: { type: 'number' },
  },
  checks: [
    { name: 'order_items_unit_price_check', property: 'unitPrice', expression: 'unit_price >= 0' },
    { name: 'order_items_quantity_check', property: 'quantity', expression: 'quantity >= 1' },
    { name: 'order_items_total_check', property: 'total', expression: 'total >= 0' },
    { name: 'order_items_reserved_check', property: 'reserved', expression: 'reserved >= 0' },
  ],
  indexes: [
    { name: 'order_items_order_id_idx', properties: ['orderId'] },
    { name: 'order_items_product_id_idx', properties: ['productId'] },
  ],
});

export interface OrderLogRow {
  id: number;
  companyId: number;
  orderId: number;
  userId: number | null;
  type: string;
  fromValue: string | null;
  toValue: string | null;
  data: Record<string, unknown>;
  createdAt: Date;
}

const logs = foreignKeysOf('order_logs');

export const OrderLogSchema = new EntitySchema<OrderLogRow>({
  name: 'OrderLog',
  tableName: 'order_logs',
  properties: {
    id: { type: 'number', primary: true, autoincrement: true },
    companyId: logs('company_id', 'Company', 'cascade'),
    orderId: logs('order_id', 'Order', 'cascade'),
    userId: logs('user_id', 'User', 'set null', { nullable: true }),
    type: { type: 'string', enum: true, items: [...ORDER_LOG_TYPES], columnType: 'varchar(10)' },
    fromValue: { type: 'string', length: 40, nullable: true },
    toValue: { type: 'string', length: 40, nullable: true },
    data: { type: 'json', defaultRaw: `'{}'` },
    createdAt: { type: 'Date' },
  },
  indexes: [
    { name: 'order_logs_order_id_idx', properties: ['orderId'] },
    { name: 'order_logs_user_id_idx', properties: ['userId'] },
  ],
});

export interface OrderSettingRow {
  id: number;
  companyId: number;
  connectionId: number | null;
  currency: string;
  paymentInstructions: string;
  statusMessages: Record<string, string>;
  createdAt: Date;
  updatedAt: Date;
}

const settings = foreignKeysOf('order_settings');

export const OrderSettingSchema = new EntitySchema<OrderSettingRow>({
  name: 'OrderSetting',
  tableName: 'order_settings',
  properties: {
    id: { type: 'number', primary: true, autoincrement: true },
    companyId: settings('company_id', 'Company', 'cascade'),
    connectionId: settings('connection_id', 'Connection', 'cascade', { nullable: true }),
    currency: { type: 'string', length: 3 },
    paymentInstructions: { type: 'text', default: '' },
    statusMessages: { type: 'json' },
    createdAt: { type: 'Date' },
    updatedAt: { type: 'Date' },
  },
  uniques: [
    { name: 'order_settings_connection_id_key', properties: ['connectionId'] },
    // One default row per company: `findFor(companyId, null)` and the use cases rely on it.
    {
      name: 'order_settings_default_idx',
      expression: 'create unique index order_settings_default_idx on order_settings (company_id) where connection_id is null',
    },
  ],
  indexes: [{ name: 'order_settings_company_id_idx', properties: ['companyId'] }],
});

/** The entity schemas of m0027 (`order_items.product_id` refers to the catalog's `Product`). */
export const ORDER_SCHEMAS = [OrderNumberSchema, OrderSchema, OrderItemSchema, OrderLogSchema, OrderSettingSchema];
