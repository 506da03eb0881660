import { raw, UniqueConstraintViolationException } from '@mikro-orm/core';
import {
  canonicalPhone,
  ConflictError,
  foldForSearch,
  numberSearch,
  withContactDefaults,
  type Contact,
  type ContactIdentifier,
  type ContactImportRow,
  type ContactQuery,
  type Contacts,
  type IdentifierKind,
  type NewContact,
  type Page,
} from '@servicedesk/core';
import { ContactSchema } from '../messaging/schema.js';
import { likeTerm, MikroOrmRepository } from '../shared/context.js';
import { foldedOrder, foldSql } from '../shared/search.js';
import { inCompany, marks } from '../shared/sql.js';

const READ = { disableIdentityMap: true } as const;
/** How often a get-or-create retries when the row it collided with vanished before it could be read. */
const RACE_RETRIES = 3;
const KIND_RANK = `case kind when 'phone' then 0 when 'lid' then 1 else 2 end`;
/** The contact a number reaches: its phone identifier first, then a LID or page-scoped id, then a contact stored with that exact number. */
const RESOLVE_SQL = `select id from (
    select contact_id as id, ${KIND_RANK} as rank from contact_identifiers
      where company_id = ? and ((kind = 'phone' and value = ?) or (kind <> 'phone' and value = ?))
    union all
    select id, 3 from contacts where company_id = ? and number = ?
  ) found order by rank limit 1`;
const resolveParams = (companyId: number, number: string) => [companyId, canonicalPhone(number), number, companyId, number];

const stored = (kind: IdentifierKind, value: string) => (kind === 'phone' ? canonicalPhone(value) : value);

/** The unique indexes of `contacts` as the port's conflicts. */
function contactConflict(err: unknown): never {
  if (err instanceof UniqueConstraintViolationException) {
    if (/contacts_company_id_number/.test(err.message)) throw new ConflictError('ERR_DUPLICATED_CONTACT');
    if (/contacts_linked_user_idx/.test(err.message)) throw new ConflictError('ERR_USER_ALREADY_LINKED');
  }
  throw err;
}

/**
 * Contacts and `contact_identifiers`. The unique (company, kind, value) of the identifiers decides
 * every race about who a person is: a writer that loses it removes the contact it just inserted
 * (inside its own savepoint, so nobody else ever saw it) and takes the winner's.
 */
export class MikroOrmContacts extends MikroOrmRepository implements Contacts {
  async findById(companyId: number, id: number) {
    return this.em.findOne(ContactSchema, { id, ...inCompany(companyId) }, READ);
  }

  async findByIds(companyId: number, ids: readonly number[]) {
    if (!ids.length) return [];
    return this.em.find(ContactSchema, { id: { $in: [...new Set(ids)] }, ...inCompany(companyId) }, READ);
  }

  /** One statement: the contact the number resolves to (see `resolve`), read with it. */
  async findByNumber(companyId: number, number: string) {
    const match = raw((alias: string) => `${alias}.id = (${RESOLVE_SQL})`, resolveParams(companyId, number));
    return this.em.findOne(ContactSchema, { [match]: [], ...inCompany(companyId) }, READ);
  }

  async getOrCreate(draft: NewContact): Promise<Contact> {
    const contact = withContactDefaults(draft);
    for (let attempt = 0; attempt < RACE_RETRIES; attempt++) {
      const existing = await this.findByNumber(contact.companyId, contact.number);
      if (existing) return existing;
      const create = async () => {
        // One round trip: the contact, and (not for a group) its phone identifier claimed in the same statement.
        const [row] = contact.isGroup
          ? await this.em.execute<Array<{ id: number; claimed: boolean }>>(
              `${INSERT_CONTACT} on conflict (company_id, number) do nothing returning id, true as claimed`,
              contactParams(contact),
            )
          : await this.em.execute<Array<{ id: number; claimed: boolean }>>(
              `with c as (${INSERT_CONTACT} on conflict (company_id, number) do nothing returning id),
               i as (insert into contact_identifiers (company_id, contact_id, kind, value, created_at) select ?, c.id, 'phone', ?, ? from c
                     on conflict (company_id, kind, value) do nothing returning id)
             select c.id, exists (select 1 from i) as claimed from c`,
              [...contactParams(contact), contact.companyId, canonicalPhone(contact.number), contact.createdAt],
            );
        if (!row) return null;
        if (row.claimed) return Number(row.id);
        // Another contact holds the number's identifier (the other form of a Brazilian mobile): give way to it.
        await this.em.execute('delete from contacts where id = ?', [row.id]);
        return null;
      };
      // Neither statement fails on a conflict, so inside the caller's transaction no savepoint is
      // needed (that one rolls everything back on an error); alone, the pair is made atomic here.
      const id = this.em.isInTransaction() ? await create() : await this.em.transactional(create);
      if (id !== null) return { ...contact, id };
    }
    throw new Error(`contact ${draft.number} of company ${draft.companyId} could be neither created nor read`);
  }

  async list(q: ContactQuery): Promise<Page<Contact>> {
    const where: Record<string, unknown> = { companyId: q.companyId };
    if (q.search?.trim()) {
      const term = likeTerm(foldForSearch(q.search));
      const digits = numberSearch(q.search);
      const expr = (a: string) => `(${foldSql(`${a}.name`)} like ? or ${foldSql(`${a}.email`)} like ?${digits ? ` or ${a}.number like ?` : ''})`;
      where[raw(expr, digits ? [term, term, likeTerm(digits)] : [term, term])] = [];
    }
    if (q.isGroup !== undefined) where.isGroup = q.isGroup;
    if (q.createdFrom || q.createdBefore) {
      where.createdAt = { ...(q.createdFrom ? { $gte: q.createdFrom } : {}), ...(q.createdBefore ? { $lt: q.createdBefore } : {}) };
    }
    if (q.tagIds?.length) {
      const tagIds = [...new Set(q.tagIds)];
      const tagged = (a: string) => `exists (select 1 from contact_tags ct where ct.contact_id = ${a}.id and ct.tag_id in (${marks(tagIds.length)}))`;
      where[raw(tagged, tagIds)] = [];
    }
    const [rows, count] = await this.em.findAndCount(ContactSchema, where, {
      ...READ,
      orderBy: [foldedOrder('name'), { id: 'asc' }],
      offset: q.page.offset,
      limit: q.page.limit,
    });
    return { rows, count };
  }

  async add(draft: NewContact): Promise<Contact> {
    const contact = withContactDefaults(draft);
    return this.em.transactional(async () => {
      if ((await this.resolve(contact.companyId, contact.number)) !== null) throw new ConflictError('ERR_DUPLICATED_CONTACT');
      const [row] = await this.em.execute<Array<{ id: number }>>(`${INSERT_CONTACT} returning id`, contactParams(contact)).catch(contactConflict);
      const id = Number(row!.id);
      if (!contact.isGroup && !(await this.claimPhone(contact.companyId, id, contact.number, contact.createdAt))) {
        throw new ConflictError('ERR_DUPLICATED_CONTACT');
      }
      return { ...contact, id };
    });
  }

  async update(contact: Contact) {
    const { id, companyId, ...fields } = contact;
    await this.em.transactional(async () => {
      const changed = await this.em.nativeUpdate(ContactSchema, { id, companyId }, fields).catch(contactConflict);
      if (!changed || contact.isGroup) return;
      const value = canonicalPhone(contact.number);
      await this.em.execute(`delete from contact_identifiers where contact_id = ? and kind = 'phone' and value <> ?`, [id, value]);
      if (await this.claimPhone(companyId, id, contact.number, contact.updatedAt)) return;
      const [owner] = await this.em.execute<Array<{ contact_id: number }>>(
        `select contact_id from contact_identifiers where company_id = ? and kind = 'phone' and value = ?`,
        [companyId, value],
      );
      if (owner && Number(owner.contact_id) !== id) throw new ConflictError('ERR_DUPLICATED_CONTACT');
    });
  }

  async remove(companyId: number, id: number) {
    await this.em.nativeDelete(ContactSchema, { id, companyId });
  }

  async identifiersOf(companyId: number, contactId: number): Promise<ContactIdentifier[]> {
    const rows = await this.em.execute<Array<{ kind: IdentifierKind; value: string; page_id: string | null }>>(
      `select kind, value, page_id from contact_identifiers where company_id = ? and contact_id = ? order by ${KIND_RANK}, value`,
      [companyId, contactId],
    );
    return rows.map((r) => ({ kind: r.kind, value: r.value, pageId: r.page_id }));
  }

  async findByIdentifier(companyId: number, kind: IdentifierKind, value: string) {
    const [row] = await this.em.execute<Array<{ contact_id: number }>>(
      'select contact_id from contact_identifiers where company_id = ? and kind = ? and value = ?',
      [companyId, kind, stored(kind, value)],
    );
    return row ? this.findById(companyId, Number(row.contact_id)) : null;
  }

  /** The no-op update makes a conflicting insert return the owner's row; another company's contact gets nothing. */
  async linkIdentifier(companyId: number, contactId: number, identifier: ContactIdentifier) {
    const value = stored(identifier.kind, identifier.value);
    const [row] = await this.em.execute<Array<{ contact_id: number }>>(
      `insert into contact_identifiers (company_id, contact_id, kind, value, page_id, created_at)
       select ?, id, ?, ?, ?, ? from contacts where id = ? and company_id = ?
       on conflict (company_id, kind, value) do update set page_id = contact_identifiers.page_id returning contact_id`,
      [companyId, identifier.kind, value, identifier.pageId, new Date(), contactId, companyId],
    );
    if (row && Number(row.contact_id) !== contactId) throw new ConflictError('ERR_IDENTIFIER_IN_USE');
  }

  async unlinkIdentifier(companyId: number, contactId: number, kind: IdentifierKind, value: string) {
    await this.em.execute('delete from contact_identifiers where company_id = ? and contact_id = ? and kind = ? and value = ?', [
      companyId,
      contactId,
      kind,
      stored(kind, value),
    ]);
  }

  async importBatch(companyId: number, rows: readonly ContactImportRow[], at: Date) {
    if (!rows.length) return { created: 0, merged: 0 };
    const owners = await this.owners(companyId, rows);
    const merges = rows.flatMap((r, i) => (owners[i] === undefined ? [] : [{ id: owners[i]!, row: r }]));
    const fresh = rows.filter((_, i) => owners[i] === undefined);
    if (merges.length) {
      await this.em.execute(
        `update contacts c set email = coalesce(c.email, v.email),
           name = case when c.name = c.number and v.named then v.name else c.name end, updated_at = ?
         from (values ${marks(merges.length, '(cast(? as int), cast(? as text), cast(? as text), cast(? as boolean))')}) as v(id, name, email, named)
         where c.id = v.id and c.company_id = ? and ((c.email is null and v.email is not null) or (c.name = c.number and v.named and c.name <> v.name))`,
        [at, ...merges.flatMap((m) => [m.id, m.row.name, m.row.email, m.row.name !== m.row.number]), companyId],
      );
    }
    let created = 0;
    if (fresh.length) {
      const inserted = await this.em.execute<Array<{ id: number; number: string }>>(
        `insert into contacts (company_id, name, number, email, created_at, updated_at) values ${marks(fresh.length, '(?, ?, ?, ?, ?, ?)')}
         on conflict (company_id, number) do nothing returning id, number`,
        fresh.flatMap((r) => [companyId, r.name, r.number, r.email, at, at]),
      );
      created = inserted.length;
      if (inserted.length) {
        const claimed = await this.em.execute<Array<{ contact_id: number }>>(
          `insert into contact_identifiers (company_id, contact_id, kind, value, created_at) values ${marks(inserted.length, `(?, ?, 'phone', ?, ?)`)}
           on conflict (company_id, kind, value) do nothing returning contact_id`,
          inserted.flatMap((c) => [companyId, c.id, canonicalPhone(c.number), at]),
        );
        // Created meanwhile under the number's other form: those rows join that contact instead.
        const kept = new Set(claimed.map((c) => Number(c.contact_id)));
        const lost = inserted.map((c) => Number(c.id)).filter((id) => !kept.has(id));
        if (lost.length) await this.em.execute(`delete from contacts where id in (${marks(lost.length)})`, lost);
        created -= lost.length;
      }
    }
    return { created, merged: rows.length - created };
  }

  /** The contact each row reaches (as `resolve`), in one read per kind of match. */
  private async owners(companyId: number, rows: readonly ContactImportRow[]): Promise<Array<number | undefined>> {
    const canon = rows.map((r) => canonicalPhone(r.number));
    const numbers = rows.map((r) => r.number);
    const ids = await this.em.execute<Array<{ kind: IdentifierKind; value: string; contact_id: number }>>(
      `select kind, value, contact_id from contact_identifiers where company_id = ?
         and ((kind = 'phone' and value in (${marks(rows.length)})) or (kind <> 'phone' and value in (${marks(rows.length)})))
       order by ${KIND_RANK} desc`,
      [companyId, ...canon, ...numbers],
    );
    const byPhone = new Map<string, number>();
    const byOther = new Map<string, number>();
    for (const r of ids) (r.kind === 'phone' ? byPhone : byOther).set(r.value, Number(r.contact_id));
    const exact = await this.em.execute<Array<{ id: number; number: string }>>(
      `select id, number from contacts where company_id = ? and number in (${marks(rows.length)})`,
      [companyId, ...numbers],
    );
    const byNumber = new Map(exact.map((r) => [r.number, Number(r.id)]));
    return rows.map((r, i) => byPhone.get(canon[i]!) ?? byOther.get(r.number) ?? byNumber.get(r.number));
  }

  /** The canonical phone identifier first, then a LID or page-scoped id equal to the number, then a contact stored with exactly it. */
  private async resolve(companyId: number, number: string): Promise<number | null> {
    const [row] = await this.em.execute<Array<{ id: number }>>(RESOLVE_SQL, resolveParams(companyId, number));
    return row ? Number(row.id) : null;
  }

  /** Inserts the contact's phone identifier; false when the canonical number already belongs to a contact (maybe this one). */
  private async claimPhone(companyId: number, contactId: number, number: string, at: Date): Promise<boolean> {
    const rows = await this.em.execute<Array<{ id: number }>>(
      `insert into contact_identifiers (company_id, contact_id, kind, value, created_at) values (?, ?, 'phone', ?, ?)
       on conflict (company_id, kind, value) do nothing returning id`,
      [companyId, contactId, canonicalPhone(number), at],
    );
    return rows.length === 1;
  }
}

const CONTACT_COLUMNS = [
  'company_id',
  'name',
  'number',
  'email',
  'is_group',
  'profile_pic_url',
  'created_at',
  'updated_at',
  'blocked',
  'accept_audio',
  'disable_bot',
  'wallet_user_id',
  'linked_user_id',
  'extra_info',
];

const INSERT_CONTACT = `insert into contacts (${CONTACT_COLUMNS.join(', ')}) values (${CONTACT_COLUMNS.map((c) => (c === 'extra_info' ? 'cast(? as jsonb)' : '?')).join(', ')})`;

function contactParams(c: Omit<Contact, 'id'>): unknown[] {
  return [
    c.companyId,
    c.name,
    c.number,
    c.email,
    c.isGroup,
    c.profilePicUrl,
    c.createdAt,
    c.updatedAt,
    c.blocked,
    c.acceptAudio,
    c.disableBot,
    c.walletUserId,
    c.linkedUserId,
    JSON.stringify(c.extraInfo),
  ];
}
