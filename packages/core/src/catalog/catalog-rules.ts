import { ValidationError } from '../shared/errors.js';

/** The limits of the catalog's fields, as the API documents them. */
export const CATALOG_LIMITS = {
  productName: 200,
  productDescription: 5000,
  sku: 64,
  /** Minor units: R$ 10,000,000.00 fits an int4 column with room to spare. */
  price: 1_000_000_000,
  stock: 1_000_000_000,
  categoryName: 100,
  categoryDescription: 1000,
  position: 1_000_000,
} as const;

export const DEFAULT_CURRENCY = 'BRL';

/** Line breaks and other control characters: a name, a SKU or a currency is one line. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
const CONTROL = /[\u0000-\u001f\u007f]/;

export function cleanProductName(name: string): string {
  const clean = name.trim();
  if (!clean || clean.length > CATALOG_LIMITS.productName || CONTROL.test(clean)) throw new ValidationError('ERR_PRODUCT_INVALID_NAME');
  return clean;
}

export function cleanProductDescription(description: string): string {
  const clean = description.trim();
  if (clean.length > CATALOG_LIMITS.productDescription) throw new ValidationError('ERR_PRODUCT_INVALID_DESCRIPTION');
  return clean;
}

/** Trimmed, kept as typed (case-sensitive); empty or null is no SKU. */
export function cleanSku(sku: string | null): string | null {
  const clean = sku?.trim() ?? '';
  if (!clean) return null;
  if (clean.length > CATALOG_LIMITS.sku || CONTROL.test(clean)) throw new ValidationError('ERR_PRODUCT_INVALID_SKU');
  return clean;
}

export function cleanPrice(price: number): number {
  if (!Number.isSafeInteger(price) || price < 0 || price > CATALOG_LIMITS.price) throw new ValidationError('ERR_PRODUCT_INVALID_PRICE');
  return price;
}

/** An ISO 4217 code, upper-cased (`brl` → `BRL`). */
export function cleanCurrency(currency: string): string {
  const clean = currency.trim().toUpperCase();
  if (!/^[A-Z]{3}$/.test(clean)) throw new ValidationError('ERR_PRODUCT_INVALID_CURRENCY');
  return clean;
}

export function cleanStock(stock: number): number {
  if (!Number.isSafeInteger(stock) || stock < 0 || stock > CATALOG_LIMITS.stock) throw new ValidationError('ERR_PRODUCT_INVALID_STOCK');
  return stock;
}

export function cleanCategoryName(name: string): string {
  const clean = name.trim();
  if (!clean || clean.length > CATALOG_LIMITS.categoryName || CONTROL.test(clean)) throw new ValidationError('ERR_CATEGORY_INVALID_NAME');
  return clean;
}

export function cleanCategoryDescription(description: string): string {
  const clean = description.trim();
  if (clean.length > CATALOG_LIMITS.categoryDescription) throw new ValidationError('ERR_CATEGORY_INVALID_DESCRIPTION');
  return clean;
}

export function cleanPosition(position: number): number {
  if (!Number.isSafeInteger(position) || position < 0 || position > CATALOG_LIMITS.position) throw new ValidationError('ERR_CATEGORY_INVALID_POSITION');
  return position;
}

/** How many decimal places a currency's minor unit has (2 for BRL and USD, 0 for JPY). */
export function minorDigits(currency: string): number {
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    return 2;
  }
}

/**
 * A price as a spreadsheet writes it, in minor units of `currency`: `12,50`, `12.50`, `R$ 12,50`,
 * `1.234,56` and `1,234.56` are all read. With both separators the last one is the decimal one; with
 * one kind only, a separator repeated or followed by exactly three digits groups thousands
 * (`1.250` is 1250), otherwise it is the decimal one. 422 `ERR_PRODUCT_INVALID_PRICE` for anything
 * else (negative, more decimals than the currency has, text).
 */
export function parsePriceText(text: string, currency: string): number {
  const invalid = () => new ValidationError('ERR_PRODUCT_INVALID_PRICE');
  // Currency symbols and codes around the amount: `R$`, `US$`, `BRL`, `€`.
  const amount = text
    .replace(/^[^\d,.-]*/u, '')
    .replace(/[^\d,.]*$/u, '')
    .replace(/\s/g, '');
  if (!/^\d[\d,.]*$/.test(amount) || /[,.]{2}/.test(amount)) throw invalid();
  const digits = minorDigits(currency);
  const lastComma = amount.lastIndexOf(',');
  const lastDot = amount.lastIndexOf('.');
  let integer = amount;
  let fraction = '';
  if (lastComma >= 0 && lastDot >= 0) {
    const decimal = Math.max(lastComma, lastDot);
    const grouping = decimal === lastComma ? '.' : ',';
    if (amount.slice(decimal + 1).includes(grouping)) throw invalid();
    integer = amount.slice(0, decimal).split(grouping).join('');
    fraction = amount.slice(decimal + 1);
  } else if (lastComma >= 0 || lastDot >= 0) {
    const separator = lastComma >= 0 ? ',' : '.';
    const parts = amount.split(separator);
    if (parts.length > 2 || parts[1]!.length === 3) {
      if (parts.slice(1).some((p) => p.length !== 3)) throw invalid();
      integer = parts.join('');
    } else {
      [integer, fraction] = [parts[0]!, parts[1]!];
    }
  }
  if (!/^\d+$/.test(integer) || !/^\d*$/.test(fraction) || fraction.length > digits) throw invalid();
  const minor = Number(integer) * 10 ** digits + Number(fraction.padEnd(digits, '0') || '0');
  return cleanPrice(minor);
}
