import type { ErrorCode } from '../shared/error-codes.js';
import { ValidationError } from '../shared/errors.js';

/**
 * A money-like decimal with at most two places, as the string numeric(12,2) columns return
 * (`'10'`, `10` and `'10,5'` become `'10.00'` and `'10.50'`). Negative values are refused.
 */
export function cleanDecimal(value: string | number, code: ErrorCode): string {
  const text = typeof value === 'number' ? (Number.isFinite(value) ? String(value) : '') : value.trim().replace(',', '.');
  if (!/^\d{1,10}(\.\d{1,2})?$/.test(text)) throw new ValidationError(code);
  return Number(text).toFixed(2);
}

/** A real calendar day as `YYYY-MM-DD`; a datetime is cut to its day. `2026-02-30` is refused. */
export function cleanDay(value: string, code: ErrorCode): string {
  const day = value.trim().slice(0, 10);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) throw new ValidationError(code);
  const parsed = new Date(`${day}T00:00:00.000Z`);
  if (Number.isNaN(parsed.getTime()) || parsed.toISOString().slice(0, 10) !== day) throw new ValidationError(code);
  return day;
}

/** Trimmed text within bounds. */
export function cleanText(value: string, code: ErrorCode, min: number, max: number): string {
  const text = value.trim();
  if (text.length < min || text.length > max) throw new ValidationError(code);
  return text;
}

/** Like `cleanText` for optional fields: absent or blank text becomes null. */
export function optionalText(value: string | null | undefined, code: ErrorCode, max: number): string | null {
  if (value === null || value === undefined || value.trim() === '') return null;
  return cleanText(value, code, 1, max);
}
