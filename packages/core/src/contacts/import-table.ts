import { ValidationError } from '../shared/errors.js';
import { foldForSearch } from '../shared/text.js';

/** A spreadsheet as read from a file: its header cells and the data rows with their row numbers (the header is row 1). */
export interface ContactTable {
  readonly headers: readonly string[];
  readonly rows: ReadonlyArray<{ readonly row: number; readonly cells: readonly string[] }>;
}

export type ContactField = 'name' | 'number' | 'email';

/** An explicit mapping: for a field, the header naming its column (any case or accents) or its 1-based column number. */
export type ColumnMapping = Partial<Record<ContactField, string | number>>;

/** One row to import, before validation; `row` is how the report names it. */
export interface ImportRowInput {
  readonly row: number;
  readonly name?: string;
  readonly number?: string;
  readonly email?: string;
}

/** Header names recognised without a mapping, in Portuguese and English (compared folded, letters and digits only). */
const KNOWN_HEADERS: Record<ContactField, readonly string[]> = {
  name: ['name', 'nome', 'nomecompleto', 'fullname', 'contato', 'contact', 'contactname', 'nomedocontato', 'cliente'],
  number: ['number', 'numero', 'telefone', 'phone', 'phonenumber', 'celular', 'whatsapp', 'fone', 'mobile', 'tel', 'telephone', 'numerodetelefone'],
  email: ['email', 'mail', 'emailaddress', 'enderecodeemail', 'correioeletronico'],
};

const FIELDS: readonly ContactField[] = ['name', 'number', 'email'];

function headerKey(header: string): string {
  return foldForSearch(header).replace(/[^a-z0-9]/g, '');
}

/** The column of each field: 422 `ERR_IMPORT_UNKNOWN_COLUMN` for a mapping that names none, `ERR_IMPORT_NO_NUMBER_COLUMN` without a number column. */
export function columnsOf(headers: readonly string[], mapping: ColumnMapping = {}): Partial<Record<ContactField, number>> {
  const keys = headers.map(headerKey);
  const columns: Partial<Record<ContactField, number>> = {};
  for (const field of FIELDS) {
    const wanted = mapping[field];
    if (wanted === undefined || wanted === '') {
      const found = keys.findIndex((k) => KNOWN_HEADERS[field].includes(k));
      if (found >= 0) columns[field] = found;
    } else if (typeof wanted === 'number') {
      if (!Number.isInteger(wanted) || wanted < 1 || wanted > headers.length) throw new ValidationError('ERR_IMPORT_UNKNOWN_COLUMN');
      columns[field] = wanted - 1;
    } else {
      const found = keys.indexOf(headerKey(wanted));
      if (found < 0) throw new ValidationError('ERR_IMPORT_UNKNOWN_COLUMN');
      columns[field] = found;
    }
  }
  if (columns.number === undefined) throw new ValidationError('ERR_IMPORT_NO_NUMBER_COLUMN');
  return columns;
}

/** The rows to import from a table; rows with no value at all are skipped (not errors). */
export function rowsOfTable(table: ContactTable, mapping?: ColumnMapping): ImportRowInput[] {
  const columns = columnsOf(table.headers, mapping);
  const cell = (cells: readonly string[], field: ContactField) => {
    const i = columns[field];
    return i === undefined ? undefined : (cells[i] ?? '');
  };
  return table.rows
    .filter((r) => r.cells.some((c) => c.trim() !== ''))
    .map((r) => ({ row: r.row, name: cell(r.cells, 'name'), number: cell(r.cells, 'number'), email: cell(r.cells, 'email') }));
}
