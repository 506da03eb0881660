import { ValidationError } from '../shared/errors.js';
import { foldForSearch } from '../shared/text.js';

/** A spreadsheet as read from a file: its header cells and the data rows with their numbers (the header is row 1). */
export interface SheetTable {
  readonly headers: readonly string[];
  readonly rows: ReadonlyArray<{ readonly row: number; readonly cells: readonly string[] }>;
}

export const PRODUCT_FIELDS = ['name', 'description', 'sku', 'price', 'currency', 'stock', 'active', 'category'] as const;
export type ProductField = (typeof PRODUCT_FIELDS)[number];

/** One row of a product spreadsheet, before validation: the text of each column the file has. */
export interface ProductRowInput {
  readonly row: number;
  readonly cells: Partial<Record<ProductField, string>>;
}

/** What the import job works through: the columns found, and the rows with any value. */
export interface ProductSheet {
  readonly columns: readonly ProductField[];
  readonly rows: readonly ProductRowInput[];
}

/** Header names recognised, in Portuguese and English (compared folded: case, accents, spaces and punctuation ignored). */
const KNOWN_HEADERS: Record<ProductField, readonly string[]> = {
  name: ['name', 'nome', 'produto', 'product', 'productname', 'nomedoproduto', 'titulo', 'title'],
  description: ['description', 'descricao', 'desc', 'detalhes', 'details'],
  sku: ['sku', 'codigo', 'code', 'cod', 'ref', 'referencia', 'reference', 'retailerid'],
  price: ['price', 'preco', 'valor', 'value', 'precounitario', 'unitprice', 'precodevenda'],
  currency: ['currency', 'moeda'],
  stock: ['stock', 'estoque', 'quantidade', 'quantity', 'qty', 'qtd', 'inventory'],
  active: ['active', 'ativo', 'ativa', 'enabled', 'disponivel', 'available'],
  category: ['category', 'categoria', 'secao', 'section'],
};

function headerKey(header: string): string {
  return foldForSearch(header).replace(/[^a-z0-9]/g, '');
}

/**
 * The rows of a product spreadsheet: each column found by its header (the first of a repeated one
 * counts, unknown ones are ignored); rows with no value at all are skipped. 422
 * `ERR_PRODUCT_IMPORT_MISSING_COLUMNS` without a name and a price column.
 */
export function productRowsOfTable(table: SheetTable): ProductSheet {
  const keys = table.headers.map(headerKey);
  const found: Array<[ProductField, number]> = [];
  for (const field of PRODUCT_FIELDS) {
    const index = keys.findIndex((k) => KNOWN_HEADERS[field].includes(k));
    if (index >= 0) found.push([field, index]);
  }
  const columns = found.map(([field]) => field);
  if (!columns.includes('name') || !columns.includes('price')) throw new ValidationError('ERR_PRODUCT_IMPORT_MISSING_COLUMNS');
  const rows = table.rows
    .filter((r) => r.cells.some((c) => c.trim() !== ''))
    .map((r) => ({ row: r.row, cells: Object.fromEntries(found.map(([field, index]) => [field, (r.cells[index] ?? '').trim()])) }));
  return { columns, rows };
}
