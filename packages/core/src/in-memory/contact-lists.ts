import { numberSearch } from '../contacts/phone-numbers.js';
import { MAX_REPORTED_ROW_ERRORS, type ContactListImport, type ImportProgress, type NewContactListImport } from '../contact-lists/contact-list-import.js';
import {
  NO_ITEMS,
  type ContactList,
  type ContactListCounts,
  type ContactListItem,
  type NewContactList,
  type NewContactListItem,
} from '../contact-lists/contact-list.js';
import type {
  ContactListImports,
  ContactListItems,
  ContactLists,
  ContactListUsage,
  ImportedItem,
  ItemQuery,
  ListReader,
  NumberCheckOutcome,
} from '../contact-lists/ports.js';
import { ConflictError } from '../shared/errors.js';
import type { PageRequest } from '../shared/paging.js';
import { foldForSearch } from '../shared/text.js';
import { compareFolded, InMemoryTable, slice } from './table.js';

const byName = <T extends { name: string; id: number }>(a: T, b: T) => compareFolded(a.name, b.name) || a.id - b.id;

/** Whether the item waits for a number check: never checked, or its check failed at or before `errorBefore`. */
const toCheck = (i: ContactListItem, errorBefore: Date) =>
  i.validity === 'unknown' || (i.validity === 'error' && (i.validatedAt === null || i.validatedAt.getTime() <= errorBefore.getTime()));

/** The items of every list; a canonical number appears once per list, as the unique constraint keeps it. */
export class InMemoryContactListItems implements ContactListItems {
  readonly table = new InMemoryTable<ContactListItem>();

  private holder(contactListId: number, canonicalNumber: string, exceptId?: number) {
    return this.table.find((i) => i.contactListId === contactListId && i.canonicalNumber === canonicalNumber && i.id !== exceptId);
  }

  async findById(companyId: number, id: number) {
    const i = this.table.get(id);
    return i?.companyId === companyId ? i : null;
  }
  /** No await between the check and the write: concurrent callers cannot both take a number. */
  async add(item: NewContactListItem) {
    if (this.holder(item.contactListId, item.canonicalNumber)) throw new ConflictError('ERR_CONTACT_LIST_ITEM_DUPLICATE');
    return this.table.insert(item);
  }
  async update(item: ContactListItem) {
    const stored = this.table.get(item.id);
    if (!stored || stored.companyId !== item.companyId) return;
    if (this.holder(stored.contactListId, item.canonicalNumber, item.id)) throw new ConflictError('ERR_CONTACT_LIST_ITEM_DUPLICATE');
    this.table.replace({ ...item, companyId: stored.companyId, contactListId: stored.contactListId });
  }
  async remove(companyId: number, id: number) {
    if (!(await this.findById(companyId, id))) return false;
    this.table.delete(id);
    return true;
  }
  async page(q: ItemQuery) {
    const term = q.search?.trim() ? foldForSearch(q.search) : '';
    const digits = numberSearch(q.search);
    const rows = this.table.filter(
      (i) =>
        i.companyId === q.companyId &&
        (q.contactListId === undefined || i.contactListId === q.contactListId) &&
        (!term || foldForSearch(i.name).includes(term) || (digits !== '' && (i.number.includes(digits) || i.canonicalNumber.includes(digits)))),
    );
    return slice(rows.sort(byName), q.page);
  }
  async all(companyId: number, contactListId: number) {
    return this.table.filter((i) => i.companyId === companyId && i.contactListId === contactListId).sort(byName);
  }
  async importBatch(companyId: number, contactListId: number, rows: readonly ImportedItem[], at: Date) {
    let created = 0;
    for (const r of rows) {
      const known = this.holder(contactListId, r.canonicalNumber);
      if (!known) {
        this.table.insert({
          companyId,
          contactListId,
          name: r.name,
          number: r.number,
          canonicalNumber: r.canonicalNumber,
          email: r.email,
          isGroup: false,
          validity: 'unknown',
          validatedAt: null,
          validationError: null,
          variables: { ...r.variables },
          createdAt: at,
          updatedAt: at,
        });
        created++;
        continue;
      }
      this.table.replace({
        ...known,
        email: known.email || r.email,
        name: known.name === known.number ? r.name : known.name,
        variables: { ...r.variables, ...known.variables },
        updatedAt: at,
      });
    }
    return { created, merged: rows.length - created };
  }
  async companiesToCheck(errorBefore: Date, limit: number) {
    const oldest = new Map<number, number>();
    for (const i of this.table.filter((x) => toCheck(x, errorBefore))) oldest.set(i.companyId, Math.min(oldest.get(i.companyId) ?? i.id, i.id));
    return [...oldest.entries()]
      .sort((a, b) => a[1] - b[1])
      .slice(0, limit)
      .map(([companyId]) => companyId);
  }
  async toCheck(companyId: number, errorBefore: Date, limit: number) {
    const rank = (i: ContactListItem) => (i.validity === 'unknown' ? 0 : 1);
    return this.table
      .filter((i) => i.companyId === companyId && toCheck(i, errorBefore))
      .sort((a, b) => rank(a) - rank(b) || a.id - b.id)
      .slice(0, limit);
  }
  async saveChecks(companyId: number, outcomes: readonly NumberCheckOutcome[], at: Date) {
    const saved: ContactListItem[] = [];
    for (const o of outcomes) {
      const item = this.table.get(o.id);
      if (!item || item.companyId !== companyId || item.number !== o.checked) continue;
      const next = { ...item, validity: o.validity, number: o.number, validationError: o.validationError, validatedAt: at, updatedAt: at };
      this.table.replace(next);
      saved.push(next);
    }
    return saved.sort((a, b) => a.id - b.id);
  }
  /** Counts per verdict of each list (for the lists adapter). */
  countsOf(listIds: readonly number[]): Map<number, ContactListCounts> {
    const counts = new Map<number, ContactListCounts>();
    for (const i of this.table.filter((x) => listIds.includes(x.contactListId))) {
      const c: { -readonly [K in keyof ContactListCounts]: number } = { ...(counts.get(i.contactListId) ?? NO_ITEMS) };
      c.contactsCount++;
      c[`${i.validity}Count`]++;
      counts.set(i.contactListId, c);
    }
    return counts;
  }
  dropList(contactListId: number) {
    for (const i of this.table.filter((x) => x.contactListId === contactListId)) this.table.delete(i.id);
  }
}

/** The imports; a deleted list takes its imports along. */
export class InMemoryContactListImports implements ContactListImports {
  readonly table = new InMemoryTable<ContactListImport>();

  async findById(companyId: number, id: number) {
    const i = this.table.get(id);
    return i?.companyId === companyId ? i : null;
  }
  async add(entry: NewContactListImport) {
    return this.table.insert(entry);
  }
  async advance(companyId: number, id: number, processed: number, p: ImportProgress, at: Date) {
    const i = await this.findById(companyId, id);
    if (!i || (i.status !== 'pending' && i.status !== 'running') || i.processed !== processed) return false;
    this.table.replace({
      ...i,
      status: 'running',
      processed: i.processed + p.processed,
      created: i.created + p.created,
      duplicates: i.duplicates + p.duplicates,
      invalid: i.invalid + p.invalid,
      errors: [...i.errors, ...p.errors].slice(0, MAX_REPORTED_ROW_ERRORS),
      updatedAt: at,
    });
    return true;
  }
  async finish(companyId: number, id: number, status: 'done' | 'failed', error: string | null, at: Date) {
    const i = await this.findById(companyId, id);
    if (!i || (i.status !== 'pending' && i.status !== 'running')) return false;
    this.table.replace({ ...i, status, error, blobKey: null, updatedAt: at });
    return true;
  }
  async latest(companyId: number, listIds: readonly number[]) {
    const latest = new Map<number, ContactListImport>();
    for (const i of this.table.filter((x) => x.companyId === companyId && listIds.includes(x.contactListId))) {
      if ((latest.get(i.contactListId)?.id ?? 0) < i.id) latest.set(i.contactListId, i);
    }
    return latest;
  }
  dropList(contactListId: number) {
    for (const i of this.table.filter((x) => x.contactListId === contactListId)) this.table.delete(i.id);
  }
}

/** The lists; removing one removes its items and imports, as the foreign keys do. */
export class InMemoryContactLists implements ContactLists {
  readonly table = new InMemoryTable<ContactList>();

  constructor(
    private readonly items: InMemoryContactListItems,
    private readonly imports: InMemoryContactListImports,
  ) {}

  async findById(companyId: number, id: number) {
    const l = this.table.get(id);
    return l?.companyId === companyId ? l : null;
  }
  async add(list: NewContactList) {
    return this.table.insert(list);
  }
  async update(list: ContactList) {
    const stored = await this.findById(list.companyId, list.id);
    if (stored) this.table.replace({ ...stored, name: list.name, updatedAt: list.updatedAt });
  }
  async remove(companyId: number, id: number) {
    if (!(await this.findById(companyId, id))) return false;
    this.table.delete(id);
    this.items.dropList(id);
    this.imports.dropList(id);
    return true;
  }
  async page(q: { readonly companyId: number; readonly search?: string; readonly page: PageRequest }) {
    const term = q.search?.trim() ? foldForSearch(q.search) : '';
    return slice(
      (await this.all(q.companyId)).filter((l) => !term || foldForSearch(l.name).includes(term)),
      q.page,
    );
  }
  async all(companyId: number) {
    return this.table.filter((l) => l.companyId === companyId).sort(byName);
  }
  async counts(companyId: number, listIds: readonly number[]) {
    const mine = listIds.filter((id) => this.table.get(id)?.companyId === companyId);
    return this.items.countsOf(mine);
  }
}

/** No campaigns read any list unless a test says so (`readers`, by `companyId:listId`). */
export class InMemoryContactListUsage implements ContactListUsage {
  readonly readers = new Map<string, ListReader[]>();
  async campaignsReading(companyId: number, contactListId: number) {
    return [...(this.readers.get(`${companyId}:${contactListId}`) ?? [])];
  }
}
