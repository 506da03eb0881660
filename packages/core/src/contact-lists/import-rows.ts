import { columnsOf, type ContactTable } from '../contacts/import-table.js';
import { ValidationError } from '../shared/errors.js';
import { MAX_VARIABLES, variableName } from './contact-list.js';

/** One spreadsheet row for a list, before validation; `row` is how the report names it. */
export interface ListRowInput {
  readonly row: number;
  readonly name?: string;
  readonly number?: string;
  readonly email?: string;
  /** The row's cells under the other columns: header (as `variableName` gives it) → text. */
  readonly variables: Readonly<Record<string, string>>;
}

/**
 * The rows of a spreadsheet for a list: name, number and e-mail found by their headers as the
 * contacts import finds them (name/nome, number/numero/telefone/phone…, email/e-mail), every
 * other column with a header becoming a variable of the row. Rows with no value at all are
 * skipped. 422 `ERR_IMPORT_NO_NUMBER_COLUMN` without a number column, 422
 * `ERR_INVALID_CONTACT_LIST_VARIABLES` for more than 50 other columns.
 */
export function listRowsOfTable(table: ContactTable): ListRowInput[] {
  const columns = columnsOf(table.headers);
  const known = new Set(Object.values(columns));
  const extra: Array<{ index: number; name: string }> = [];
  const taken = new Set<string>();
  table.headers.forEach((header, index) => {
    const name = variableName(header);
    // A blank header names nothing; a repeated one keeps its first column.
    if (known.has(index) || !name || taken.has(name)) return;
    taken.add(name);
    extra.push({ index, name });
  });
  if (extra.length > MAX_VARIABLES) throw new ValidationError('ERR_INVALID_CONTACT_LIST_VARIABLES');
  const cell = (cells: readonly string[], index: number | undefined) => (index === undefined ? undefined : (cells[index] ?? ''));
  return table.rows
    .filter((r) => r.cells.some((c) => c.trim() !== ''))
    .map((r) => ({
      row: r.row,
      name: cell(r.cells, columns.name),
      number: cell(r.cells, columns.number),
      email: cell(r.cells, columns.email),
      variables: Object.fromEntries(extra.map((e) => [e.name, (r.cells[e.index] ?? '').trim()])),
    }));
}
