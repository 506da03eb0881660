export type Row = Record<string, unknown>;

export const time = (v: unknown) => new Date(v as Date | string);

export const maybeNumber = (v: unknown) => (v === null || v === undefined ? null : Number(v));

export const maybeText = (v: unknown) => (v === null || v === undefined ? null : String(v));

/** A jsonb value: the driver may hand it over parsed or as text. */
export const json = <T>(v: unknown): T => (typeof v === 'string' ? JSON.parse(v) : v) as T;

/** A positive int4: anything else names no row (and must not reach an int4 parameter). */
export const isId = (id: number) => Number.isSafeInteger(id) && id > 0 && id <= 2_147_483_647;
