import { ValidationError } from '../shared/errors.js';

/**
 * A company's named list of numbers for campaigns: a snapshot, independent of the CRM contacts
 * (editing a contact does not change a list, and the other way round).
 */
export interface ContactList {
  id: number;
  companyId: number;
  name: string;
  createdAt: Date;
  updatedAt: Date;
}

export type NewContactList = Omit<ContactList, 'id'>;

/**
 * The number check's verdict on an item: `unknown` until checked, `valid` or `invalid` as the
 * provider answered, `error` when the check could not run (the session was down…): not `invalid`,
 * and checked again later.
 */
export type NumberValidity = 'unknown' | 'valid' | 'invalid' | 'error';

export const NUMBER_VALIDITIES: readonly NumberValidity[] = ['unknown', 'valid', 'invalid', 'error'];

/** One number of a list. `canonicalNumber` (the number's canonical form) is unique per list. */
export interface ContactListItem {
  id: number;
  companyId: number;
  contactListId: number;
  name: string;
  /** Digits; the provider's form of the number once a check found it (a Brazilian mobile with or without its ninth digit). */
  number: string;
  canonicalNumber: string;
  /** Empty when none. */
  email: string;
  isGroup: boolean;
  validity: NumberValidity;
  validatedAt: Date | null;
  /** Why the last check could not run (an error code), with `validity: 'error'`. */
  validationError: string | null;
  /** The spreadsheet's other columns (header → value), usable as campaign placeholders. */
  variables: Record<string, string>;
  createdAt: Date;
  updatedAt: Date;
}

export type NewContactListItem = Omit<ContactListItem, 'id'>;

/** How many items of a list have each verdict. */
export interface ContactListCounts {
  readonly contactsCount: number;
  readonly validCount: number;
  readonly invalidCount: number;
  readonly unknownCount: number;
  readonly errorCount: number;
}

export const NO_ITEMS: ContactListCounts = { contactsCount: 0, validCount: 0, invalidCount: 0, unknownCount: 0, errorCount: 0 };

export const MAX_CONTACT_LIST_NAME = 255;
export const MAX_ITEM_NAME = 200;
export const MAX_VARIABLES = 50;
export const MAX_VARIABLE_NAME = 100;
export const MAX_VARIABLE_VALUE = 1000;

/** Trimmed, 1 to 255 characters (422 `ERR_INVALID_CONTACT_LIST_NAME` otherwise). */
export function cleanContactListName(raw: string): string {
  const name = raw.trim().replace(/\s+/g, ' ');
  if (!name || name.length > MAX_CONTACT_LIST_NAME) throw new ValidationError('ERR_INVALID_CONTACT_LIST_NAME');
  return name;
}

/** A variable's name as placeholders use it: trimmed, spaces collapsed, lower case. */
export function variableName(header: string): string {
  return header.trim().replace(/\s+/g, ' ').toLowerCase();
}

/**
 * At most 50 variables, names 1 to 100 characters (kept as `variableName` gives them), values up
 * to 1,000 characters; 422 `ERR_INVALID_CONTACT_LIST_VARIABLES` otherwise. Blank names are refused.
 */
export function cleanVariables(raw: Readonly<Record<string, string>>): Record<string, string> {
  const entries = Object.entries(raw);
  if (entries.length > MAX_VARIABLES) throw new ValidationError('ERR_INVALID_CONTACT_LIST_VARIABLES');
  // A Map, then own properties: a header such as `__proto__` or `constructor` is a name like any other.
  const out = new Map<string, string>();
  for (const [key, value] of entries) {
    const name = variableName(key);
    if (!name || name.length > MAX_VARIABLE_NAME || value.length > MAX_VARIABLE_VALUE) throw new ValidationError('ERR_INVALID_CONTACT_LIST_VARIABLES');
    if (!out.has(name)) out.set(name, value);
  }
  return Object.fromEntries(out);
}
