import { canonicalPhone, numberSearch } from '../contacts/phone-numbers.js';
import type { ContactIdentifier, IdentifierKind } from '../contacts/identifiers.js';
import { withContactDefaults, type Contact, type NewContact } from '../contacts/contact.js';
import type { ContactImportRow, ContactQuery, Contacts } from '../contacts/ports.js';
import { ConflictError } from '../shared/errors.js';
import { foldForSearch } from '../shared/text.js';
import { InMemoryTable, compareFolded, slice } from './table.js';

interface StoredIdentifier extends ContactIdentifier {
  readonly companyId: number;
  readonly contactId: number;
}

const KIND_ORDER: Record<IdentifierKind, number> = { phone: 0, lid: 1, psid: 2 };

const stored = (kind: IdentifierKind, value: string) => (kind === 'phone' ? canonicalPhone(value) : value);

/**
 * Contacts and their identifiers in memory, with the rules the database enforces: one contact
 * per number, one owner per identifier. No method awaits between its checks and its writes, so
 * concurrent callers cannot interleave.
 */
export class InMemoryContacts implements Contacts {
  readonly table = new InMemoryTable<Contact>();
  readonly identifiers: StoredIdentifier[] = [];
  /** The contact's tag ids, for the list's tag filter (set where the tags live: `createInMemoryPorts`). */
  tagIdsOf: (contactId: number) => readonly number[] = () => [];

  async findById(companyId: number, id: number) {
    const c = this.table.get(id);
    return c?.companyId === companyId ? c : null;
  }
  async findByIds(companyId: number, ids: readonly number[]) {
    return [...new Set(ids)].map((id) => this.table.get(id)).filter((c): c is NonNullable<typeof c> => c?.companyId === companyId);
  }
  async findByNumber(companyId: number, number: string) {
    return this.resolve(companyId, number);
  }

  async getOrCreate(draft: NewContact) {
    return this.resolve(draft.companyId, draft.number) ?? this.insert(draft);
  }

  async list(q: ContactQuery) {
    const term = q.search?.trim() ? foldForSearch(q.search) : '';
    const digits = numberSearch(q.search);
    const tagged = (c: Contact) => !q.tagIds?.length || this.tagIdsOf(c.id).some((id) => q.tagIds!.includes(id));
    const created = (c: Contact) => (!q.createdFrom || c.createdAt >= q.createdFrom) && (!q.createdBefore || c.createdAt < q.createdBefore);
    const rows = this.table
      .filter(
        (c) =>
          c.companyId === q.companyId &&
          (!term || foldForSearch(c.name).includes(term) || foldForSearch(c.email ?? '').includes(term) || (digits !== '' && c.number.includes(digits))) &&
          (q.isGroup === undefined || c.isGroup === q.isGroup) &&
          created(c) &&
          tagged(c),
      )
      .sort((a, b) => compareFolded(a.name, b.name) || a.id - b.id);
    return slice(rows, q.page);
  }

  async add(draft: NewContact) {
    if (this.resolve(draft.companyId, draft.number)) throw new ConflictError('ERR_DUPLICATED_CONTACT');
    return this.insert(draft);
  }

  async update(contact: Contact) {
    const current = this.table.get(contact.id);
    if (!current || current.companyId !== contact.companyId) return;
    const owner = this.resolve(contact.companyId, contact.number);
    if (owner && owner.id !== contact.id) throw new ConflictError('ERR_DUPLICATED_CONTACT');
    if (
      contact.linkedUserId !== null &&
      this.table.find((c) => c.companyId === contact.companyId && c.linkedUserId === contact.linkedUserId && c.id !== contact.id)
    ) {
      throw new ConflictError('ERR_USER_ALREADY_LINKED');
    }
    this.table.replace(contact);
    if (current.number !== contact.number && !contact.isGroup) {
      this.dropIdentifiers((i) => i.contactId === contact.id && i.kind === 'phone');
      this.identifiers.push({ companyId: contact.companyId, contactId: contact.id, kind: 'phone', value: canonicalPhone(contact.number), pageId: null });
    }
  }

  async remove(companyId: number, id: number) {
    if (!(await this.findById(companyId, id))) return;
    this.table.delete(id);
    this.dropIdentifiers((i) => i.contactId === id);
  }

  async identifiersOf(companyId: number, contactId: number): Promise<ContactIdentifier[]> {
    return this.identifiers
      .filter((i) => i.companyId === companyId && i.contactId === contactId)
      .sort((a, b) => KIND_ORDER[a.kind] - KIND_ORDER[b.kind] || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0))
      .map(({ kind, value, pageId }) => ({ kind, value, pageId }));
  }

  async findByIdentifier(companyId: number, kind: IdentifierKind, value: string) {
    const found = this.identifierOf(companyId, kind, stored(kind, value));
    return found ? this.findById(companyId, found.contactId) : null;
  }

  /** Another company's contact gets nothing. */
  async linkIdentifier(companyId: number, contactId: number, identifier: ContactIdentifier) {
    if (this.table.get(contactId)?.companyId !== companyId) return;
    const value = stored(identifier.kind, identifier.value);
    const owner = this.identifierOf(companyId, identifier.kind, value);
    if (owner) {
      if (owner.contactId !== contactId) throw new ConflictError('ERR_IDENTIFIER_IN_USE');
      return;
    }
    this.identifiers.push({ companyId, contactId, kind: identifier.kind, value, pageId: identifier.pageId });
  }

  async unlinkIdentifier(companyId: number, contactId: number, kind: IdentifierKind, value: string) {
    const v = stored(kind, value);
    this.dropIdentifiers((i) => i.companyId === companyId && i.contactId === contactId && i.kind === kind && i.value === v);
  }

  async importBatch(companyId: number, rows: readonly ContactImportRow[], at: Date) {
    let created = 0;
    let merged = 0;
    for (const row of rows) {
      const existing = this.resolve(companyId, row.number);
      if (!existing) {
        this.insert({ companyId, name: row.name, number: row.number, email: row.email, isGroup: false, profilePicUrl: null, createdAt: at, updatedAt: at });
        created++;
        continue;
      }
      merged++;
      const email = existing.email ?? row.email;
      const name = existing.name === existing.number && row.name !== row.number ? row.name : existing.name;
      if (email !== existing.email || name !== existing.name) this.table.replace({ ...existing, email, name, updatedAt: at });
    }
    return { created, merged };
  }

  /** Identifiers first (the canonical phone, then a LID or page-scoped id equal to the number), then the stored number. */
  private resolve(companyId: number, number: string): Contact | null {
    const canonical = canonicalPhone(number);
    const byId = this.identifiers
      .filter((i) => i.companyId === companyId && (i.kind === 'phone' ? i.value === canonical : i.value === number))
      .sort((a, b) => KIND_ORDER[a.kind] - KIND_ORDER[b.kind])[0];
    if (byId) return this.table.get(byId.contactId);
    return this.table.find((c) => c.companyId === companyId && c.number === number);
  }

  private insert(draft: NewContact): Contact {
    const contact = this.table.insert(withContactDefaults(draft));
    if (!draft.isGroup) {
      this.identifiers.push({ companyId: draft.companyId, contactId: contact.id, kind: 'phone', value: canonicalPhone(draft.number), pageId: null });
    }
    return contact;
  }

  private identifierOf(companyId: number, kind: IdentifierKind, value: string) {
    return this.identifiers.find((i) => i.companyId === companyId && i.kind === kind && i.value === value) ?? null;
  }

  private dropIdentifiers(match: (i: StoredIdentifier) => boolean) {
    for (let i = this.identifiers.length - 1; i >= 0; i--) if (match(this.identifiers[i]!)) this.identifiers.splice(i, 1);
  }
}
