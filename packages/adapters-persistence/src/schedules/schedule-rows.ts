export type Row = Record<string, unknown>;

export const time = (v: unknown) => new Date(v as Date | string);

export const maybeTime = (v: unknown) => (v === null || v === undefined ? null : new Date(v as Date | string));

export const maybeNumber = (v: unknown) => (v === null || v === undefined ? null : Number(v));

export const maybeText = (v: unknown) => (v === null || v === undefined ? null : String(v));
