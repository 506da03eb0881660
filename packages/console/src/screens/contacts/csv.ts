/**
 * Contacts as a CSV file that spreadsheets open as written: UTF-8 with a byte-order mark (Excel
 * reads accents), every field quoted with its quotes doubled, CRLF line ends, and a cell that a
 * spreadsheet would run as a formula (starting with `=`, `+`, `-`, `@`, a tab or a carriage
 * return) led by an apostrophe so it stays text.
 */
export const BOM = '\uFEFF';

/** One cell, quoted and neutralised. */
export function csvCell(value: string | number | boolean | null | undefined): string {
  let text = value === null || value === undefined ? '' : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return `"${text.replace(/"/g, '""')}"`;
}

/** The lines of the file, the header first, with the byte-order mark. */
export function toCsv(header: readonly string[], rows: ReadonlyArray<ReadonlyArray<string | number | boolean | null | undefined>>): string {
  return `${BOM}${[header, ...rows].map((r) => r.map(csvCell).join(',')).join('\r\n')}\r\n`;
}
