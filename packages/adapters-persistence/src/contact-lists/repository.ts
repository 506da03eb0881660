import { raw, UniqueConstraintViolationException, type MikroORM } from '@mikro-orm/core';
import { ConflictError, foldForSearch, numberSearch, type Page, type PageRequest } from '@servicedesk/core';
import type { ContactList, ContactListCounts, ContactListItem, NewContactList, NewContactListItem } from '@servicedesk/core/contact-lists/contact-list';
import {
  MAX_REPORTED_ROW_ERRORS,
  type ContactListImport,
  type ImportProgress,
  type NewContactListImport,
} from '@servicedesk/core/contact-lists/contact-list-import';
import type { ContactListImports, ContactListItems, ContactLists, ImportedItem, ItemQuery, NumberCheckOutcome } from '@servicedesk/core/contact-lists/ports';
import { likeTerm, MikroOrmRepository } from '../shared/context.js';
import { foldedOrder, foldSql, searchWhere } from '../shared/search.js';
import { marks } from '../shared/sql.js';
import { ContactListImportSchema, ContactListItemSchema, ContactListSchema } from './schema.js';

const READ = { disableIdentityMap: true } as const;
/** By folded name, then id; built per query (a raw fragment is used once). */
const byName = () => [foldedOrder('name'), { id: 'asc' as const }];
type IdRow = { id: number };

/** The unique constraint on (contact_list_id, canonical_number) decides two writers adding one number. */
async function numberUnique<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (err instanceof UniqueConstraintViolationException && err.message.includes('contact_list_items_list_number_unique')) {
      throw new ConflictError('ERR_CONTACT_LIST_ITEM_DUPLICATE');
    }
    throw err;
  }
}

export class MikroOrmContactLists extends MikroOrmRepository implements ContactLists {
  async findById(companyId: number, id: number) {
    return this.em.findOne(ContactListSchema, { id, companyId }, READ);
  }
  async add(list: NewContactList): Promise<ContactList> {
    const id = (await this.em.insert(ContactListSchema, { ...list } as ContactList)) as number;
    return { ...list, id };
  }
  async update(list: ContactList) {
    await this.em.nativeUpdate(ContactListSchema, { id: list.id, companyId: list.companyId }, { name: list.name, updatedAt: list.updatedAt });
  }
  async remove(companyId: number, id: number) {
    return (await this.em.nativeDelete(ContactListSchema, { id, companyId })) > 0;
  }
  async page(q: { readonly companyId: number; readonly search?: string; readonly page: PageRequest }): Promise<Page<ContactList>> {
    const [rows, count] = await this.em.findAndCount(
      ContactListSchema,
      { companyId: q.companyId, ...searchWhere(['name'], q.search) },
      {
        ...READ,
        orderBy: byName(),
        offset: q.page.offset,
        limit: q.page.limit,
      },
    );
    return { rows, count };
  }
  async all(companyId: number) {
    return this.em.find(ContactListSchema, { companyId }, { ...READ, orderBy: byName() });
  }
  async counts(companyId: number, listIds: readonly number[]) {
    const counts = new Map<number, ContactListCounts>();
    if (!listIds.length) return counts;
    const rows = await this.em.execute<Array<Record<'contact_list_id' | 'n' | 'valid' | 'invalid' | 'unknown' | 'error', number | string>>>(
      `select contact_list_id, count(*) as n,
         count(*) filter (where validity = 'valid') as valid, count(*) filter (where validity = 'invalid') as invalid,
         count(*) filter (where validity = 'unknown') as unknown, count(*) filter (where validity = 'error') as error
       from contact_list_items where company_id = ? and contact_list_id in (${marks(listIds.length)}) group by contact_list_id`,
      [companyId, ...listIds],
    );
    for (const r of rows) {
      counts.set(Number(r.contact_list_id), {
        contactsCount: Number(r.n),
        validCount: Number(r.valid),
        invalidCount: Number(r.invalid),
        unknownCount: Number(r.unknown),
        errorCount: Number(r.error),
      });
    }
    return counts;
  }
}

/** Items waiting for a check: never checked, or their check failed at or before the moment given. */
const TO_CHECK = `validity in ('unknown', 'error') and (validity = 'unknown' or validated_at is null or validated_at <= ?)`;

export class MikroOrmContactListItems extends MikroOrmRepository implements ContactListItems {
  async findById(companyId: number, id: number) {
    return this.em.findOne(ContactListItemSchema, { id, companyId }, READ);
  }
  async add(item: NewContactListItem): Promise<ContactListItem> {
    const id = (await numberUnique(() => this.em.insert(ContactListItemSchema, { ...item } as ContactListItem))) as number;
    return { ...item, id };
  }
  async update(item: ContactListItem) {
    const { id, companyId, contactListId, createdAt, ...fields } = item;
    void contactListId;
    void createdAt;
    await numberUnique(() => this.em.nativeUpdate(ContactListItemSchema, { id, companyId }, fields));
  }
  async remove(companyId: number, id: number) {
    return (await this.em.nativeDelete(ContactListItemSchema, { id, companyId })) > 0;
  }
  async page(q: ItemQuery): Promise<Page<ContactListItem>> {
    const where: Record<string, unknown> = { companyId: q.companyId };
    if (q.contactListId !== undefined) where.contactListId = q.contactListId;
    if (q.search?.trim()) {
      const term = likeTerm(foldForSearch(q.search));
      const digits = numberSearch(q.search);
      const expr = (a: string) => `(${foldSql(`${a}.name`)} like ?${digits ? ` or ${a}.number like ? or ${a}.canonical_number like ?` : ''})`;
      where[raw(expr, digits ? [term, likeTerm(digits), likeTerm(digits)] : [term])] = [];
    }
    const [rows, count] = await this.em.findAndCount(ContactListItemSchema, where, { ...READ, orderBy: byName(), offset: q.page.offset, limit: q.page.limit });
    return { rows, count };
  }
  async all(companyId: number, contactListId: number) {
    return this.em.find(ContactListItemSchema, { companyId, contactListId }, { ...READ, orderBy: byName() });
  }

  async importBatch(companyId: number, contactListId: number, rows: readonly ImportedItem[], at: Date) {
    if (!rows.length) return { created: 0, merged: 0 };
    // A known number keeps its verdict; `xmax = 0` tells the rows this statement inserted from those it updated.
    const written = await this.em.execute<Array<{ inserted: boolean }>>(
      `insert into contact_list_items as i (company_id, contact_list_id, name, number, canonical_number, email, variables, created_at, updated_at)
       values ${marks(rows.length, '(?, ?, ?, ?, ?, ?, cast(? as jsonb), ?, ?)')}
       on conflict (contact_list_id, canonical_number) do update set
         email = case when i.email = '' then excluded.email else i.email end,
         name = case when i.name = i.number then excluded.name else i.name end,
         variables = excluded.variables || i.variables,
         updated_at = excluded.updated_at
       where i.company_id = excluded.company_id
       returning (i.xmax = 0) as inserted`,
      rows.flatMap((r) => [companyId, contactListId, r.name, r.number, r.canonicalNumber, r.email, JSON.stringify(r.variables), at, at]),
    );
    const created = written.filter((w) => w.inserted === true || String(w.inserted) === 'true').length;
    return { created, merged: rows.length - created };
  }

  async companiesToCheck(errorBefore: Date, limit: number) {
    const rows = await this.em.execute<Array<{ company_id: number }>>(
      `select company_id from contact_list_items where ${TO_CHECK} group by company_id order by min(id) limit ?`,
      [errorBefore, limit],
    );
    return rows.map((r) => Number(r.company_id));
  }
  async toCheck(companyId: number, errorBefore: Date, limit: number) {
    const ids = await this.em.execute<IdRow[]>(
      `select id from contact_list_items where company_id = ? and ${TO_CHECK} order by (validity <> 'unknown'), id limit ?`,
      [companyId, errorBefore, limit],
    );
    return this.inOrder(
      companyId,
      ids.map((r) => Number(r.id)),
    );
  }
  async saveChecks(companyId: number, outcomes: readonly NumberCheckOutcome[], at: Date) {
    if (!outcomes.length) return [];
    const saved = await this.em.execute<IdRow[]>(
      `update contact_list_items i set validity = v.validity, number = v.number, validation_error = v.error, validated_at = ?, updated_at = ?
       from (values ${marks(outcomes.length, '(cast(? as int), cast(? as text), cast(? as text), cast(? as text), cast(? as text))')}) as v(id, checked, validity, number, error)
       where i.id = v.id and i.company_id = ? and i.number = v.checked
       returning i.id`,
      [at, at, ...outcomes.flatMap((o) => [o.id, o.checked, o.validity, o.number, o.validationError]), companyId],
    );
    return (
      await this.inOrder(
        companyId,
        saved.map((r) => Number(r.id)),
      )
    ).sort((a, b) => a.id - b.id);
  }

  /** The company's items with these ids, in the order of the ids. */
  private async inOrder(companyId: number, ids: number[]): Promise<ContactListItem[]> {
    if (!ids.length) return [];
    const found = new Map((await this.em.find(ContactListItemSchema, { companyId, id: { $in: ids } }, READ)).map((i) => [i.id, i]));
    return ids.flatMap((id) => found.get(id) ?? []);
  }
}

export class MikroOrmContactListImports extends MikroOrmRepository implements ContactListImports {
  async findById(companyId: number, id: number) {
    return this.em.findOne(ContactListImportSchema, { id, companyId }, READ);
  }
  async add(entry: NewContactListImport): Promise<ContactListImport> {
    const id = (await this.em.insert(ContactListImportSchema, { ...entry } as ContactListImport)) as number;
    return { ...entry, id };
  }
  async advance(companyId: number, id: number, processed: number, p: ImportProgress, at: Date) {
    const rows = await this.em.execute<IdRow[]>(
      `update contact_list_imports set status = 'running', processed = processed + ?, created = created + ?, duplicates = duplicates + ?, invalid = invalid + ?,
         errors = (select coalesce(jsonb_agg(t.e order by t.n), cast('[]' as jsonb))
                   from jsonb_array_elements(contact_list_imports.errors || cast(? as jsonb)) with ordinality as t(e, n) where t.n <= ?),
         updated_at = ?
       where id = ? and company_id = ? and status in ('pending', 'running') and processed = ? returning id`,
      [p.processed, p.created, p.duplicates, p.invalid, JSON.stringify(p.errors), MAX_REPORTED_ROW_ERRORS, at, id, companyId, processed],
    );
    return rows.length > 0;
  }
  async finish(companyId: number, id: number, status: 'done' | 'failed', error: string | null, at: Date) {
    const rows = await this.em.execute<IdRow[]>(
      `update contact_list_imports set status = ?, error = ?, blob_key = null, updated_at = ?
       where id = ? and company_id = ? and status in ('pending', 'running') returning id`,
      [status, error, at, id, companyId],
    );
    return rows.length > 0;
  }
  async latest(companyId: number, listIds: readonly number[]) {
    const latest = new Map<number, ContactListImport>();
    if (!listIds.length) return latest;
    const ids = await this.em.execute<IdRow[]>(
      `select distinct on (contact_list_id) id from contact_list_imports
       where company_id = ? and contact_list_id in (${marks(listIds.length)}) order by contact_list_id, id desc`,
      [companyId, ...listIds],
    );
    if (!ids.length) return latest;
    for (const i of await this.em.find(ContactListImportSchema, { companyId, id: { $in: ids.map((r) => Number(r.id)) } }, READ)) latest.set(i.contactListId, i);
    return latest;
  }
}

/**
 * The contact lists' own tables on one database. `contactListUsage` is not here: it reads the
 * campaigns' table (`MikroOrmContactListUsage`), so it comes with that table.
 */
export const contactListsRepositories = (orm: MikroORM) => ({
  contactLists: new MikroOrmContactLists(orm),
  contactListItems: new MikroOrmContactListItems(orm),
  contactListImports: new MikroOrmContactListImports(orm),
});
