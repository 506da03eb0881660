import { Type } from '@mikro-orm/core';

/**
 * A calendar day as `YYYY-MM-DD`. PostgreSQL's driver returns `date` columns as strings but
 * PGlite returns Date objects; this type gives the domain the same string from both.
 */
export class DayType extends Type<string | null, string | null> {
  override convertToDatabaseValue(value: string | null): string | null {
    return value;
  }
  override convertToJSValue(value: unknown): string | null {
    if (value === null || value === undefined) return null;
    if (value instanceof Date) return value.toISOString().slice(0, 10);
    return String(value).slice(0, 10);
  }
  override getColumnType(): string {
    return 'date';
  }
  override compareAsType(): string {
    return 'string';
  }
}
