import { ValidationError } from '../shared/errors.js';
import {
  CATALOG_LIMITS,
  cleanCategoryName,
  cleanCurrency,
  cleanProductDescription,
  cleanProductName,
  cleanSku,
  DEFAULT_CURRENCY,
  parsePriceText,
} from './catalog-rules.js';
import type { ProductField, ProductRowInput } from './import-rows.js';
import type { ImportedProduct } from './ports.js';
import type { ProductImportRowError } from './product-import.js';

/** A valid row: the product's fields, its category still by name. */
export type CleanRow = Omit<ImportedProduct, 'categoryId'> & { readonly category: string | null };

const YES = new Set(['sim', 's', 'yes', 'y', 'true', 'verdadeiro', 'v', '1', 'ativo', 'ativa', 'active', 'x']);
const NO = new Set(['nao', 'não', 'n', 'no', 'false', 'falso', 'f', '0', 'inativo', 'inativa', 'inactive']);

/**
 * One spreadsheet row as a product, or its first fault (`{row, field, error}`). `name` and `price`
 * are required; an empty cell of another column takes its default: no description, no SKU, BRL,
 * stock not counted, active, no category.
 */
export function cleanImportRow(r: ProductRowInput): { product: CleanRow } | ProductImportRowError {
  const text = (field: ProductField) => r.cells[field] ?? '';
  let field: ProductField = 'name';
  try {
    const name = cleanProductName(text('name'));
    field = 'currency';
    const currency = text('currency') ? cleanCurrency(text('currency')) : DEFAULT_CURRENCY;
    field = 'price';
    const price = parsePriceText(text('price'), currency);
    field = 'description';
    const description = cleanProductDescription(text('description'));
    field = 'sku';
    const sku = cleanSku(text('sku'));
    field = 'stock';
    const stock = text('stock') ? stockOf(text('stock')) : null;
    field = 'active';
    const active = text('active') ? activeOf(text('active')) : true;
    field = 'category';
    const category = text('category') ? cleanCategoryName(text('category')) : null;
    return { product: { name, description, sku, price, currency, stock: stock ?? 0, trackStock: stock !== null, active, category } };
  } catch (err) {
    if (!(err instanceof ValidationError)) throw err;
    return { row: r.row, field, error: err.code };
  }
}

/** A whole count (`12`, or `12.0` as a spreadsheet may store it). */
function stockOf(value: string): number {
  const m = /^(\d+)(?:[.,]0+)?$/.exec(value);
  const stock = m ? Number(m[1]) : NaN;
  if (!Number.isSafeInteger(stock) || stock > CATALOG_LIMITS.stock) throw new ValidationError('ERR_PRODUCT_INVALID_STOCK');
  return stock;
}

function activeOf(value: string): boolean {
  const v = value.trim().toLowerCase();
  if (YES.has(v)) return true;
  if (NO.has(v)) return false;
  throw new ValidationError('ERR_PRODUCT_INVALID_ACTIVE');
}
