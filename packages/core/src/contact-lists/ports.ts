import type { Page, PageRequest } from '../shared/paging.js';
import type { ContactListImport, ImportProgress, NewContactListImport } from './contact-list-import.js';
import type { ContactList, ContactListCounts, ContactListItem, NewContactList, NewContactListItem, NumberValidity } from './contact-list.js';

/** A company's contact lists. Every method is scoped by `companyId`: another company's list is absent. */
export interface ContactLists {
  findById(companyId: number, id: number): Promise<ContactList | null>;
  add(list: NewContactList): Promise<ContactList>;
  /** Saves the name and `updatedAt`. */
  update(list: ContactList): Promise<void>;
  /** Removes the list with its items and imports; false when it was not there. */
  remove(companyId: number, id: number): Promise<boolean>;
  /** A page of the company's lists by name (case- and accent-folded), then id; `search` in the name, folded the same way. */
  page(query: { readonly companyId: number; readonly search?: string; readonly page: PageRequest }): Promise<Page<ContactList>>;
  /** Every list of the company, in the page's order. */
  all(companyId: number): Promise<ContactList[]>;
  /** The items of each list per verdict, in one read; a list without items is absent. */
  counts(companyId: number, listIds: readonly number[]): Promise<Map<number, ContactListCounts>>;
}

export interface ItemQuery {
  readonly companyId: number;
  readonly contactListId?: number;
  /** In the name (case- and accent-folded) or, when it holds digits, in the number. */
  readonly search?: string;
  readonly page: PageRequest;
}

/** A row an import writes: cleaned, its canonical number computed. */
export interface ImportedItem {
  readonly name: string;
  readonly number: string;
  readonly canonicalNumber: string;
  /** Empty when none. */
  readonly email: string;
  readonly variables: Readonly<Record<string, string>>;
}

/** A number check's outcome for one item, written only if the item still has the number checked. */
export interface NumberCheckOutcome {
  readonly id: number;
  /** The number the check asked about. */
  readonly checked: string;
  readonly validity: Exclude<NumberValidity, 'unknown'>;
  /** The number to keep (the provider's form when it was found under another). */
  readonly number: string;
  readonly validationError: string | null;
}

/**
 * The items of the company's lists. Scoped by `companyId`; the use cases make sure the list is
 * the company's before adding to it. Two items of a list never share a canonical number: `add`
 * and `update` throw ConflictError `ERR_CONTACT_LIST_ITEM_DUPLICATE`.
 */
export interface ContactListItems {
  findById(companyId: number, id: number): Promise<ContactListItem | null>;
  add(item: NewContactListItem): Promise<ContactListItem>;
  /** Saves every field but the company and the list. */
  update(item: ContactListItem): Promise<void>;
  remove(companyId: number, id: number): Promise<boolean>;
  /** A page by name (folded), then id. */
  page(query: ItemQuery): Promise<Page<ContactListItem>>;
  /** Every item of one list, in the page's order. */
  all(companyId: number, contactListId: number): Promise<ContactListItem[]>;
  /**
   * Writes a batch in one statement: a row whose canonical number is new to the list is created;
   * one already there is merged into that item (fills an empty e-mail, replaces a name that was
   * just the number, adds variables it lacks), keeping its verdict. Rows of one batch have
   * distinct canonical numbers.
   */
  importBatch(companyId: number, contactListId: number, rows: readonly ImportedItem[], at: Date): Promise<{ created: number; merged: number }>;
  /**
   * Companies with items to check: `unknown` ones, or `error` ones whose last check was at or
   * before `errorBefore`; the company with the oldest such item first.
   */
  companiesToCheck(errorBefore: Date, limit: number): Promise<number[]>;
  /** Up to `limit` of the company's items to check (as `companiesToCheck`), `unknown` first, then by id. */
  toCheck(companyId: number, errorBefore: Date, limit: number): Promise<ContactListItem[]>;
  /** Writes the outcomes (an item whose number changed since the check is left alone); answers the items written. */
  saveChecks(companyId: number, outcomes: readonly NumberCheckOutcome[], at: Date): Promise<ContactListItem[]>;
}

/** The imports into the company's lists. */
export interface ContactListImports {
  findById(companyId: number, id: number): Promise<ContactListImport | null>;
  add(entry: NewContactListImport): Promise<ContactListImport>;
  /**
   * Adds one batch's counts (and its first errors, up to 1,000 kept in all) and marks the import
   * `running`, only if it is still pending or running with exactly `processed` rows done: of two
   * runs writing the same batch, one gets false (and rolls its batch back).
   */
  advance(companyId: number, id: number, processed: number, progress: ImportProgress, at: Date): Promise<boolean>;
  /** Ends a pending or running import (`done`, or `failed` with why); false when it had already ended. */
  finish(companyId: number, id: number, status: 'done' | 'failed', error: string | null, at: Date): Promise<boolean>;
  /** The latest import of each list, in one read; lists never imported into are absent. */
  latest(companyId: number, listIds: readonly number[]): Promise<Map<number, ContactListImport>>;
}

/** A campaign that will still read a list when it starts: deleting the list would leave it without recipients. */
export interface ListReader {
  readonly id: number;
  readonly name: string;
}

/** Who still needs a list (campaigns that have not started). Another feature answers it. */
export interface ContactListUsage {
  campaignsReading(companyId: number, contactListId: number): Promise<ListReader[]>;
}
