import { ValidationError } from '../shared/errors.js';

/**
 * An order a company takes in its conversations: a contact's items priced from the catalog when
 * they were ordered (a snapshot: later price changes do not move it), totals computed here in
 * integer minor units of one currency, and a status that only moves forward along `NEXT_STATUSES`.
 */
export const ORDER_STATUSES = ['new', 'confirmed', 'paid', 'shipped', 'delivered', 'cancelled'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];
/** The statuses an order moves to (it starts `new`, and never goes back to it). */
export type ReachedStatus = Exclude<OrderStatus, 'new'>;

/**
 * The moves the status machine makes: one step forward, or cancelled while nothing has left the
 * shop (a shipped order is on its way: it is delivered, or returned outside the system).
 */
export const NEXT_STATUSES: Readonly<Record<OrderStatus, readonly ReachedStatus[]>> = {
  new: ['confirmed', 'cancelled'],
  confirmed: ['paid', 'cancelled'],
  paid: ['shipped', 'cancelled'],
  shipped: ['delivered'],
  delivered: [],
  cancelled: [],
};

/** Statuses whose order still holds the stock it reserved (cancelling or deleting it gives it back). */
export const HOLDING_STATUSES: readonly OrderStatus[] = ['new', 'confirmed', 'paid'];

export const ORDER_LIMITS = {
  lines: 100,
  quantity: 10_000,
  /** Any amount (a line, a total, a discount) in minor units: far above any order, well within exact doubles. */
  amount: 1_000_000_000_000,
  notes: 2000,
  address: 1000,
  paymentMethod: 50,
  /** Orders one bulk delete takes. */
  deletedAtOnce: 1000,
} as const;

export interface Order {
  id: number;
  companyId: number;
  /** The company's own sequence, from 1, never reused. */
  number: number;
  /** Null once the contact was deleted (the order stays, with its figures). */
  contactId: number | null;
  /** The conversation it came from; null when none, or once that ticket was deleted. */
  ticketId: number | null;
  /** Who created it; null once that user was deleted. */
  userId: number | null;
  status: OrderStatus;
  /** ISO 4217; every line is in it. */
  currency: string;
  subtotal: number;
  discount: number;
  shippingFee: number;
  total: number;
  paymentMethod: string | null;
  notes: string;
  /** Where it goes, as the contact wrote it (free text: a chat address is rarely structured). */
  address: string | null;
  /** Bumped by every write: a write based on an older read is refused (`ERR_ORDER_STATUS_CONFLICT`). */
  version: number;
  createdAt: Date;
  updatedAt: Date;
}
export type NewOrder = Omit<Order, 'id'>;

/** One line of an order: what was ordered, as the catalog priced it then. */
export interface OrderItem {
  id: number;
  companyId: number;
  orderId: number;
  /** Null once the product was deleted. */
  productId: number | null;
  name: string;
  sku: string | null;
  /** Minor units of the order's currency. */
  unitPrice: number;
  quantity: number;
  total: number;
  /** Units taken from the product's stock for this line (0 when it did not track stock). */
  reserved: number;
  position: number;
}
export type NewOrderItem = Omit<OrderItem, 'id'>;

export const ORDER_LOG_TYPES = ['created', 'status', 'items', 'note'] as const;
export type OrderLogType = (typeof ORDER_LOG_TYPES)[number];

/** One change of an order, written with it: creation, a status move, new items or totals, other details. */
export interface OrderLog {
  id: number;
  companyId: number;
  orderId: number;
  userId: number | null;
  type: OrderLogType;
  /** For `status`, the statuses; for `items`, the totals before and after; otherwise null. */
  from: string | null;
  to: string | null;
  data: Record<string, unknown>;
  createdAt: Date;
}
export type NewOrderLog = Omit<OrderLog, 'id'>;

/** What an order line asks for. */
export interface OrderLineInput {
  readonly productId: number;
  readonly quantity: number;
}

const isAmount = (n: number) => Number.isSafeInteger(n) && n >= 0 && n <= ORDER_LIMITS.amount;

/** A discount or a shipping fee: whole minor units, not negative. */
export function cleanAmount(n: number): number {
  if (!isAmount(n)) throw new ValidationError('ERR_ORDER_INVALID_AMOUNT');
  return n;
}

/** The totals of lines with a discount and a shipping fee; a discount above what is charged is refused. */
export function totalsOf(lineTotals: readonly number[], discount: number, shippingFee: number) {
  const subtotal = lineTotals.reduce((sum, n) => sum + n, 0);
  const total = subtotal + shippingFee - discount;
  if (!isAmount(subtotal) || !isAmount(total)) throw new ValidationError('ERR_ORDER_INVALID_AMOUNT');
  return { subtotal, discount, shippingFee, total };
}

/** A line checked: `index` is where the client first named its product (what an error points to). */
export interface CleanLine extends OrderLineInput {
  readonly index: number;
}

/** 1 to 100 lines, each a whole quantity from 1 to 10,000; a product named twice is one line of the summed quantity. */
export function cleanLines(lines: readonly OrderLineInput[]): CleanLine[] {
  const merged = new Map<number, { quantity: number; index: number }>();
  lines.forEach((line, index) => {
    if (!Number.isSafeInteger(line.productId) || line.productId < 1) throw new ValidationError('ERR_ORDER_INVALID_ITEMS');
    if (!Number.isSafeInteger(line.quantity) || line.quantity < 1) throw new ValidationError('ERR_ORDER_INVALID_ITEMS');
    const seen = merged.get(line.productId);
    merged.set(line.productId, { quantity: (seen?.quantity ?? 0) + line.quantity, index: seen?.index ?? index });
  });
  if (merged.size < 1 || merged.size > ORDER_LIMITS.lines || [...merged.values()].some((l) => l.quantity > ORDER_LIMITS.quantity)) {
    throw new ValidationError('ERR_ORDER_INVALID_ITEMS');
  }
  return [...merged].map(([productId, l]) => ({ productId, quantity: l.quantity, index: l.index }));
}

function cleanText(text: string, max: number): string {
  const trimmed = text.trim();
  if (trimmed.length > max) throw new ValidationError('ERR_ORDER_INVALID_DETAILS');
  return trimmed;
}

export const cleanNotes = (notes: string) => cleanText(notes, ORDER_LIMITS.notes);
/** Empty is none. */
export const cleanAddress = (address: string | null) => (address === null ? null : cleanText(address, ORDER_LIMITS.address) || null);
export const cleanPaymentMethod = (method: string | null) => (method === null ? null : cleanText(method, ORDER_LIMITS.paymentMethod) || null);
