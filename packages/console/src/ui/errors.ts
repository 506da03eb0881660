import type { TFunction } from 'i18next';
import { ApiError } from '../api/client.js';

/** The code of a refusal (`ERR_...`), or the error's text. */
export function codeOf(err: unknown): string {
  return err instanceof ApiError ? err.code : String(err);
}

/** A refusal in words: the code's own sentence when the console has one, else the generic one naming the code. */
export function errorText(t: TFunction, err: unknown): string {
  const code = codeOf(err);
  return t(`errors.codes.${code}`, { defaultValue: t('errors.generic', { code }) });
}

/**
 * The messages of a schema refusal (`ERR_VALIDATION`, `fields: [{ path: 'body.email', message }]`)
 * by field name (`email`, `extraInfo`), for showing each beside its field.
 */
export function fieldMessages(err: unknown): Record<string, string> {
  if (!(err instanceof ApiError) || !err.fields) return {};
  const list = Array.isArray(err.fields) ? (err.fields as Array<{ path?: unknown; message?: unknown }>) : [];
  const out: Record<string, string> = {};
  for (const f of list) {
    if (typeof f.path !== 'string' || typeof f.message !== 'string') continue;
    const field = f.path.split('.')[1];
    if (field && !out[field]) out[field] = f.message;
  }
  return out;
}

/**
 * Why the channel did not deliver a message, in words: the backend records the provider's refusal
 * as `ERR_...`, often followed by `: ` and the provider's own text. A code the console knows gives
 * its sentence; any other reason is shown as recorded, inside a sentence.
 */
export function failureText(t: TFunction, reason: string | null): string {
  if (!reason) return t('errors.channelUnknown');
  const code = /^ERR_[A-Z0-9_]+/.exec(reason)?.[0];
  const fallback = t('errors.channel', { reason });
  return code ? t(`errors.codes.${code}`, { defaultValue: fallback }) : fallback;
}
