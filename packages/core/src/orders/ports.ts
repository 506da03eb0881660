import type { Page, PageRequest } from '../shared/paging.js';
import type { NewOrder, NewOrderItem, NewOrderLog, Order, OrderItem, OrderLog, OrderStatus } from './order.js';
import type { NewOrderSetting, OrderSetting } from './order-setting.js';

export interface OrderQuery {
  readonly companyId: number;
  readonly page: PageRequest;
  readonly status?: OrderStatus;
  readonly contactId?: number;
  /** Created at or after. */
  readonly from?: Date;
  /** Created before. */
  readonly to?: Date;
  /** Digits: the order's number, or part of its contact's number; any text: part of its contact's name (case- and accent-folded). */
  readonly search?: string;
}

/**
 * A company's orders and their lines. Every method is scoped by `companyId`: another company's
 * order is absent. Lists run newest first (by number, descending).
 */
export interface Orders {
  findById(companyId: number, id: number): Promise<Order | null>;
  /** The company's orders among `ids` (others absent), in no particular order. */
  findByIds(companyId: number, ids: readonly number[]): Promise<Order[]>;
  list(query: OrderQuery): Promise<Page<Order>>;
  /**
   * The company's next order number, from 1, never handed out twice (a rolled back order's number
   * may be skipped). Inside a transaction the company's counter stays locked until it ends.
   */
  nextNumber(companyId: number): Promise<number>;
  add(order: NewOrder): Promise<Order>;
  /**
   * Saves the status, the totals, the payment method, notes, address and `updatedAt` (the rest is
   * fixed at creation; contact, ticket and creator only ever become null, when theirs are deleted)
   * and bumps `version`, only while the stored row still has `expected`'s status and version:
   * false, and nothing written, when another write came first.
   */
  update(order: Order, expected: { readonly status: OrderStatus; readonly version: number }): Promise<boolean>;
  /** The lines of these orders (the company's), by order, then position. */
  items(companyId: number, orderIds: readonly number[]): Promise<OrderItem[]>;
  /** Replaces the lines of an order. */
  replaceItems(companyId: number, orderId: number, items: readonly NewOrderItem[]): Promise<OrderItem[]>;
  /**
   * Removes the company's orders among `ids`, their lines and logs with them; answers each order
   * removed with its lines as they were when it went (the rows are locked before they are read).
   */
  remove(companyId: number, ids: readonly number[]): Promise<Array<{ order: Order; items: OrderItem[] }>>;
}

/** What happened to each order, oldest first. */
export interface OrderLogs {
  add(log: NewOrderLog): Promise<OrderLog>;
  list(companyId: number, orderId: number): Promise<OrderLog[]>;
}

/**
 * A company's order settings: at most one default row (`connectionId` null) and one per connection;
 * `add` and `update` throw ConflictError `ERR_ORDER_SETTING_EXISTS` for a second one.
 */
export interface OrderSettings {
  findById(companyId: number, id: number): Promise<OrderSetting | null>;
  /** The default row first, then by connection id. */
  list(companyId: number): Promise<OrderSetting[]>;
  /** The row of the connection (or, for null, the default row), exactly: no fallback. */
  findFor(companyId: number, connectionId: number | null): Promise<OrderSetting | null>;
  add(setting: NewOrderSetting): Promise<OrderSetting>;
  /** Saves every field but `companyId` and `createdAt`. */
  update(setting: OrderSetting): Promise<void>;
  /** False when it was not there. */
  remove(companyId: number, id: number): Promise<boolean>;
}
