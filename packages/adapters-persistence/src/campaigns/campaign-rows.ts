import type { CampaignMedia } from '@servicedesk/core';

export type Time = Date | string;

export type Row = Record<string, unknown>;

export const time = (v: unknown) => new Date(v as Time);

export const maybeTime = (v: unknown) => (v === null || v === undefined ? null : new Date(v as Time));

export const maybeNumber = (v: unknown) => (v === null || v === undefined ? null : Number(v));

/** A jsonb value: the driver may hand it over parsed or as text. */
export const json = <T>(v: unknown): T => (typeof v === 'string' ? JSON.parse(v) : v) as T;

export const mediaOf = (r: Row): CampaignMedia | null =>
  r.media_path === null || r.media_path === undefined
    ? null
    : { path: String(r.media_path), name: String(r.media_name ?? ''), contentType: String(r.media_content_type ?? ''), size: Number(r.media_size ?? 0) };

export const mediaValues = (m: CampaignMedia | null) => [m?.path ?? null, m?.name ?? null, m?.contentType ?? null, m?.size ?? null];

// --- suppressions, settings, audience ----------------------------------------------------------

/** A list of values as one parameter, for `in (select jsonb_array_elements_text(...))` of any length. */
export const IN_JSON = 'select jsonb_array_elements_text(cast(? as jsonb))';
