import type { Page, PageRequest } from '../shared/paging.js';
import type { Contact, NewContact } from './contact.js';
import type { ContactIdentifier, IdentifierKind } from './identifiers.js';

export interface ContactQuery {
  readonly companyId: number;
  /** In the name or e-mail (case- and accent-insensitive), or, when it is all digits and punctuation, in the number. */
  readonly search?: string;
  /** Only contacts with at least one of these tags (the lineage's `contactTag` filter); none or empty: all. */
  readonly tagIds?: readonly number[];
  /** Only groups (true) or only people (false). */
  readonly isGroup?: boolean;
  /** Only contacts created at or after this instant. */
  readonly createdFrom?: Date;
  /** Only contacts created before this instant. */
  readonly createdBefore?: Date;
  readonly page: PageRequest;
}

/** One validated row of an import: digits-only number, trimmed name, lower-case e-mail. */
export interface ContactImportRow {
  readonly name: string;
  readonly number: string;
  readonly email: string | null;
}

export interface ContactImportOutcome {
  readonly created: number;
  /** Rows that reached an existing contact (by number, ninth digit or not) and were merged into it. */
  readonly merged: number;
}

/**
 * A company's contacts and the identifiers that reach them. A person is resolved through their
 * identifiers: the phone identifier holds the canonical number (`canonicalPhone`), so a Brazilian
 * mobile with or without its ninth digit reaches one contact; a LID or page-scoped id linked to a
 * contact reaches it too. Groups have no identifiers and are found by their stored number.
 */
export interface Contacts {
  findById(companyId: number, id: number): Promise<Contact | null>;
  /** The contacts of the company among `ids`, in one read (missing ids are absent). */
  findByIds(companyId: number, ids: readonly number[]): Promise<Contact[]>;
  /** The contact the number reaches: its identifiers first, then a contact stored with exactly this number. */
  findByNumber(companyId: number, number: string): Promise<Contact | null>;
  /**
   * Returns the contact the number reaches (as `findByNumber`), creating it with its phone
   * identifier first if absent; safe under concurrency: racing callers, even with the two forms
   * of one Brazilian mobile, get one contact. An existing contact is returned unchanged.
   */
  getOrCreate(contact: NewContact): Promise<Contact>;
  /** A page of the company's contacts by name (folded), then id. */
  list(query: ContactQuery): Promise<Page<Contact>>;
  /** Creates the contact and its phone identifier; ConflictError `ERR_DUPLICATED_CONTACT` when the number already reaches one. */
  add(contact: NewContact): Promise<Contact>;
  /**
   * Saves every field; the phone identifier follows a changed number. ConflictError
   * `ERR_DUPLICATED_CONTACT` when the new number reaches another contact, `ERR_USER_ALREADY_LINKED`
   * when another contact is linked to the same user.
   */
  update(contact: Contact): Promise<void>;
  /** Removes the contact and its identifiers (the database also removes its tickets and their messages). */
  remove(companyId: number, id: number): Promise<void>;
  /** The contact's identifiers, phone first, then by kind and value. */
  identifiersOf(companyId: number, contactId: number): Promise<ContactIdentifier[]>;
  /** The contact an identifier (a phone one in canonical form) belongs to. */
  findByIdentifier(companyId: number, kind: IdentifierKind, value: string): Promise<Contact | null>;
  /** Links an identifier to the contact; linking it again changes nothing; another contact's throws ConflictError `ERR_IDENTIFIER_IN_USE`. */
  linkIdentifier(companyId: number, contactId: number, identifier: ContactIdentifier): Promise<void>;
  unlinkIdentifier(companyId: number, contactId: number, kind: IdentifierKind, value: string): Promise<void>;
  /**
   * One batch of an import, rows already validated and distinct by canonical number: a row whose
   * number reaches a contact is merged into it (an e-mail fills an empty one, a name replaces one
   * that is just the number), any other row creates a contact with its phone identifier.
   */
  importBatch(companyId: number, rows: readonly ContactImportRow[], at: Date): Promise<ContactImportOutcome>;
}
