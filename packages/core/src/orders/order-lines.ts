import type { Products } from '../catalog/ports.js';
import type { Product } from '../catalog/product.js';
import { FieldsValidationError, NotFoundError, ValidationError } from '../shared/errors.js';
import { ORDER_LIMITS, type CleanLine, type NewOrderItem, type OrderItem } from './order.js';

/** A line about to be written (its order's id is set when the order exists). */
export type PricedLine = Omit<NewOrderItem, 'orderId'>;

/** An order's lines priced, and how each product's stock must move for them (negative: taken). */
export interface PricedLines {
  readonly lines: PricedLine[];
  readonly stock: Map<number, number>;
  /** What the stock errors name: each product's name and where the client asked for it. */
  readonly named: Map<number, { readonly name: string; readonly index: number }>;
}

/**
 * Prices the lines asked for in the order's currency. A product already on the order keeps the
 * name and unit price it was ordered at (editing one line does not reprice the others); any other
 * is read from the catalog now: the company's (404), active and priced in the order's currency
 * (422). Stock is counted for products that track it; `existing` lines give back what they took.
 */
export async function priceLines(
  products: Pick<Products, 'findByIds'>,
  companyId: number,
  currency: string,
  asked: readonly CleanLine[],
  existing: readonly OrderItem[] = [],
): Promise<PricedLines> {
  const found = new Map(
    (
      await products.findByIds(
        companyId,
        asked.map((l) => l.productId),
      )
    ).map((p) => [p.id, p]),
  );
  const kept = new Map(existing.flatMap((i) => (i.productId === null ? [] : [[i.productId, i] as const])));
  const stock = heldStock(existing);
  const named = new Map<number, { name: string; index: number }>();
  const lines = asked.map((line, position): PricedLine => {
    const product: Product | undefined = found.get(line.productId);
    if (!product) throw new NotFoundError('ERR_PRODUCT_NOT_FOUND');
    const before = kept.get(line.productId);
    if (!before && !product.active) throw new ValidationError('ERR_ORDER_PRODUCT_INACTIVE');
    if (!before && product.currency !== currency) throw new ValidationError('ERR_ORDER_CURRENCY_MISMATCH');
    const unitPrice = before ? before.unitPrice : product.price;
    const total = unitPrice * line.quantity;
    if (!Number.isSafeInteger(total) || total > ORDER_LIMITS.amount) throw new ValidationError('ERR_ORDER_INVALID_AMOUNT');
    const reserved = product.trackStock ? line.quantity : 0;
    stock.set(product.id, (stock.get(product.id) ?? 0) - reserved);
    named.set(product.id, { name: before?.name ?? product.name, index: line.index });
    return {
      companyId,
      productId: product.id,
      name: before?.name ?? product.name,
      sku: before ? before.sku : product.sku,
      unitPrice,
      quantity: line.quantity,
      total,
      reserved,
      position,
    };
  });
  // What is taken now must be on hand: refused before anything is written (the moves below check again, atomically).
  const short = [...stock].filter(([id, delta]) => delta < 0 && (found.get(id)?.stock ?? 0) < -delta).map(([id]) => id);
  if (short.length) throw outOfStock(short.map((id) => ({ productId: id, ...named.get(id)!, quantity: -(stock.get(id) ?? 0) })));
  return { lines, stock, named };
}

/** 422 `ERR_ORDER_OUT_OF_STOCK`, naming each product short of stock and the line that asked for it. */
export function outOfStock(products: ReadonlyArray<{ productId: number; name: string; index: number; quantity: number }>): FieldsValidationError {
  return new FieldsValidationError(
    'ERR_ORDER_OUT_OF_STOCK',
    products.map((p) => ({
      path: `items.${p.index}.quantity`,
      message: `Not enough "${p.name}" (product ${p.productId}) in stock to take ${p.quantity}`,
    })),
  );
}

/**
 * Moves each product's stock by its delta, in product id order (two orders taking the same
 * products lock their rows in the same order, so they never deadlock). A take the stock cannot
 * cover throws `ERR_ORDER_OUT_OF_STOCK`: the transaction around it writes nothing.
 */
export async function moveStock(
  products: Pick<Products, 'moveStock'>,
  companyId: number,
  deltas: ReadonlyMap<number, number>,
  named: ReadonlyMap<number, { readonly name: string; readonly index: number }> = new Map(),
): Promise<void> {
  for (const [productId, delta] of [...deltas].sort((a, b) => a[0] - b[0])) {
    if (delta === 0) continue;
    const moved = await products.moveStock(companyId, productId, delta);
    if (!moved && delta < 0) {
      const line = named.get(productId) ?? { name: `#${productId}`, index: 0 };
      throw outOfStock([{ productId, ...line, quantity: -delta }]);
    }
  }
}

/** The stock an order's lines hold, to give back. */
export function heldStock(items: readonly OrderItem[]): Map<number, number> {
  const held = new Map<number, number>();
  for (const item of items) if (item.productId !== null && item.reserved > 0) held.set(item.productId, (held.get(item.productId) ?? 0) + item.reserved);
  return held;
}
