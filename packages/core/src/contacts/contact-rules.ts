import type { ContactExtraInfo } from './contact.js';
import { ValidationError } from '../shared/errors.js';
import { isEmail, normalizeEmail } from '../shared/text.js';
import { IDENTIFIER_KINDS, MAX_IDENTIFIER_VALUE, MAX_IDENTIFIERS_PER_CONTACT, type ContactIdentifier } from './identifiers.js';
import { canonicalPhone, digitsOf, isPhoneNumber } from './phone-numbers.js';

export const MAX_CONTACT_NAME = 200;
export const MAX_EXTRA_INFO = 50;
export const MAX_EXTRA_INFO_NAME = 100;
export const MAX_EXTRA_INFO_VALUE = 1000;

/**
 * The field rules shared by the contact forms and the imports. Each throws ValidationError with
 * the code an import reports as a row's reason.
 */
export function cleanContactNumber(raw: string): string {
  if (!raw.trim()) throw new ValidationError('ERR_MISSING_NUMBER');
  const digits = digitsOf(raw);
  if (!isPhoneNumber(digits)) throw new ValidationError('ERR_INVALID_NUMBER');
  return digits;
}

/** Trimmed, at most 200 characters; `fallback` (the number) when empty, or 422 `ERR_INVALID_NAME` without one. */
export function cleanContactName(raw: string, fallback?: string): string {
  const name = raw.trim().replace(/\s+/g, ' ');
  if (name.length > MAX_CONTACT_NAME) throw new ValidationError('ERR_NAME_TOO_LONG');
  if (name) return name;
  if (fallback) return fallback;
  throw new ValidationError('ERR_INVALID_NAME');
}

/** Empty means none; anything else must be an address (stored lower case). */
export function cleanContactEmail(raw: string | null | undefined): string | null {
  const email = raw?.trim() ?? '';
  if (!email) return null;
  if (!isEmail(email)) throw new ValidationError('ERR_INVALID_EMAIL');
  return normalizeEmail(email);
}

/** Rows left wholly blank (a form's unused "add" row) are dropped; a value without a name is refused. */
export function cleanExtraInfo(items: ReadonlyArray<{ name: string; value: string }>): ContactExtraInfo[] {
  const given = items.filter((i) => i.name.trim() !== '' || i.value.trim() !== '');
  if (given.length > MAX_EXTRA_INFO) throw new ValidationError('ERR_TOO_MANY_EXTRA_INFO');
  return given.map((i) => {
    const name = i.name.trim();
    if (!name || name.length > MAX_EXTRA_INFO_NAME || i.value.length > MAX_EXTRA_INFO_VALUE) throw new ValidationError('ERR_INVALID_EXTRA_INFO');
    return { name, value: i.value };
  });
}

/** LIDs and page-scoped ids a form gives; phone identifiers follow the contact's number and are not given. */
export function cleanIdentifiers(items: ReadonlyArray<{ kind: string; value: string; pageId?: string | null }>): ContactIdentifier[] {
  if (items.length > MAX_IDENTIFIERS_PER_CONTACT) throw new ValidationError('ERR_TOO_MANY_IDENTIFIERS');
  const seen = new Set<string>();
  const out: ContactIdentifier[] = [];
  for (const i of items) {
    const kind = IDENTIFIER_KINDS.find((k) => k === i.kind);
    const value = i.value.trim();
    if (!kind || kind === 'phone' || !value || value.length > MAX_IDENTIFIER_VALUE) throw new ValidationError('ERR_INVALID_IDENTIFIER');
    const pageId = kind === 'psid' ? i.pageId?.trim() || null : null;
    if (kind === 'psid' && !pageId) throw new ValidationError('ERR_INVALID_IDENTIFIER');
    const key = `${kind}:${value}`;
    if (!seen.has(key)) out.push({ kind, value, pageId });
    seen.add(key);
  }
  return out;
}

/** The canonical phone identifier of a person's number. */
export function phoneIdentifier(number: string): ContactIdentifier {
  return { kind: 'phone', value: canonicalPhone(number), pageId: null };
}
