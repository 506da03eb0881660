import { readFile } from 'node:fs/promises';
import type { CellValue } from 'exceljs';
import { ValidationError, type ContactTable, type UploadedFile } from '@servicedesk/core';

/*
 * The parsers are imported when a file is read, not with the routes: exceljs alone is ~30 MB of
 * heap, and most processes never import a contact spreadsheet.
 */

/** Uploads of contact spreadsheets (CSV or XLSX). */
export const MAX_CONTACT_FILE_BYTES = 20 * 1024 * 1024;

const ZIP = Buffer.from([0x50, 0x4b, 0x03, 0x04]);
const OLE = Buffer.from([0xd0, 0xcf, 0x11, 0xe0]);

/**
 * Reads the first sheet of an XLSX file, or a CSV file (`,`, `;` or tab separated, UTF-8 or
 * Latin-1), as a table: the first non-empty row is the header, each other row keeps its row
 * number as a spreadsheet shows it. The kind is told by the bytes, not by the name. 422
 * `ERR_IMPORT_UNSUPPORTED_FILE` for anything else (an old binary .xls), `ERR_IMPORT_INVALID_FILE`
 * for a file that cannot be read, `ERR_IMPORT_EMPTY` for one without a header.
 */
export async function readContactTable(file: UploadedFile): Promise<ContactTable> {
  // Parsing needs the whole file: an upload's temporary file is read, within the route's MAX_CONTACT_FILE_BYTES.
  const data = 'path' in file ? await readFile(file.path) : file.data;
  const head = data.subarray(0, 4);
  if (head.equals(ZIP)) return readXlsx(data);
  if (head.equals(OLE) || data.includes(0)) throw new ValidationError('ERR_IMPORT_UNSUPPORTED_FILE');
  return readCsv(data);
}

function tableOf(records: Array<{ row: number; cells: string[] }>): ContactTable {
  const headerAt = records.findIndex((r) => r.cells.some((c) => c.trim() !== ''));
  if (headerAt < 0) throw new ValidationError('ERR_IMPORT_EMPTY');
  return { headers: records[headerAt]!.cells.map((c) => c.trim()), rows: records.slice(headerAt + 1) };
}

async function readCsv(data: Buffer): Promise<ContactTable> {
  const { parse } = await import('csv-parse/sync');
  let text = data.toString('utf8');
  // Spreadsheets saved as "CSV" on Windows are often Latin-1: bytes that are not UTF-8 say so.
  if (text.includes('\uFFFD')) text = data.toString('latin1');
  text = text.replace(/^\uFEFF/, '');
  let records: string[][];
  try {
    records = parse(text, { delimiter: delimiterOf(text), relax_column_count: true, relax_quotes: true, skip_empty_lines: false }) as string[][];
  } catch {
    throw new ValidationError('ERR_IMPORT_INVALID_FILE');
  }
  return tableOf(records.map((cells, i) => ({ row: i + 1, cells })));
}

/** The separator the first line uses most, outside quotes: `;` (Brazilian Excel), tab or `,`. */
function delimiterOf(text: string): string {
  const firstLine = text.split(/\r?\n/, 1)[0]!.replace(/"[^"]*"/g, '');
  const counts = [';', '\t', ','].map((d) => ({ d, n: firstLine.split(d).length - 1 }));
  const best = counts.reduce((a, b) => (b.n > a.n ? b : a));
  return best.n > 0 ? best.d : ',';
}

async function readXlsx(data: Buffer): Promise<ContactTable> {
  const { default: ExcelJS } = await import('exceljs');
  const workbook = new ExcelJS.Workbook();
  try {
    await workbook.xlsx.load(data as unknown as Parameters<typeof workbook.xlsx.load>[0]);
  } catch {
    throw new ValidationError('ERR_IMPORT_INVALID_FILE');
  }
  const sheet = workbook.worksheets[0];
  if (!sheet) throw new ValidationError('ERR_IMPORT_EMPTY');
  const columns = sheet.actualColumnCount || sheet.columnCount;
  const records: Array<{ row: number; cells: string[] }> = [];
  sheet.eachRow({ includeEmpty: false }, (row, rowNumber) => {
    const cells: string[] = [];
    for (let c = 1; c <= columns; c++) cells.push(cellText(row.getCell(c).value));
    records.push({ row: rowNumber, cells });
  });
  return tableOf(records);
}

/** A cell as text: whole numbers without exponent or decimals (phone numbers are often typed as numbers). */
function cellText(value: CellValue): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isInteger(value) ? value.toFixed(0) : String(value);
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return String(value);
  if (value instanceof Date) return value.toISOString();
  if ('richText' in value) return value.richText.map((t) => t.text).join('');
  if ('hyperlink' in value) return typeof value.text === 'string' ? value.text : cellText(value.text as CellValue);
  if ('result' in value) return cellText(value.result as CellValue);
  return '';
}
