import { raw, UniqueConstraintViolationException } from '@mikro-orm/core';
import { ConflictError, type NewTag, type Page, type Tag, type TagQuery, type Tags } from '@servicedesk/core';
import { TagSchema } from './schema.js';
import { MikroOrmRepository } from '../shared/context.js';
import { foldedOrder, foldSql, searchWhere } from '../shared/search.js';
import { marks } from '../shared/sql.js';

const READ = { disableIdentityMap: true } as const;

/** One join table: the links of a ticket or of a contact to tags. */
interface LinkTable {
  readonly table: 'ticket_tags' | 'contact_tags';
  readonly owner: 'ticket_id' | 'contact_id';
  readonly owners: 'tickets' | 'contacts';
}
const TICKETS: LinkTable = { table: 'ticket_tags', owner: 'ticket_id', owners: 'tickets' };
const CONTACTS: LinkTable = { table: 'contact_tags', owner: 'contact_id', owners: 'contacts' };

interface TagRow {
  owner_id: number;
  id: number;
  company_id: number;
  name: string;
  color: string;
  kanban: boolean;
  lane_order: number;
  created_at: Date | string;
  updated_at: Date | string;
}

/** The unique index on (company_id, lower(name)) decides two writers taking one name. */
async function nameUnique<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (err instanceof UniqueConstraintViolationException && /tags_company_id_lower_name_idx/.test(err.message)) {
      throw new ConflictError('ERR_TAG_NAME_ALREADY_EXISTS');
    }
    throw err;
  }
}

export class MikroOrmTags extends MikroOrmRepository implements Tags {
  async findById(companyId: number, id: number) {
    return this.em.findOne(TagSchema, { id, companyId }, READ);
  }
  async findByIds(companyId: number, ids: readonly number[]) {
    if (!ids.length) return [];
    return this.em.find(TagSchema, { companyId, id: { $in: [...ids] } }, { ...READ, orderBy: { id: 'asc' } });
  }
  async findByName(companyId: number, name: string) {
    return this.em.findOne(TagSchema, { companyId, [raw((a: string) => `lower(${a}.name) = lower(?)`, [name])]: [] }, READ);
  }
  async listAll(companyId: number, filter: { readonly kanban?: boolean } = {}) {
    return this.em.find(
      TagSchema,
      { companyId, ...(filter.kanban === undefined ? {} : { kanban: filter.kanban }) },
      {
        ...READ,
        orderBy: [foldedOrder('name'), { id: 'asc' }],
      },
    );
  }
  async lanes(companyId: number) {
    return this.em.find(TagSchema, { companyId, kanban: true }, { ...READ, orderBy: [{ laneOrder: 'asc' }, { id: 'asc' }] });
  }
  async list(q: TagQuery): Promise<Page<Tag>> {
    const where = { companyId: q.companyId, ...(q.kanban === undefined ? {} : { kanban: q.kanban }), ...searchWhere(['name'], q.search) };
    const [rows, count] = await this.em.findAndCount(TagSchema, where, {
      ...READ,
      orderBy: [foldedOrder('name'), { id: 'asc' }],
      offset: q.page.offset,
      limit: q.page.limit,
    });
    return { rows, count };
  }
  async countTickets(companyId: number, tagIds: readonly number[]) {
    const counts = new Map<number, number>();
    if (!tagIds.length) return counts;
    const rows = await this.em.execute<Array<{ tag_id: number; n: string | number }>>(
      `select l.tag_id, count(*) as n from ticket_tags l join tags g on g.id = l.tag_id where g.company_id = ? and l.tag_id in (${marks(tagIds.length)}) group by l.tag_id`,
      [companyId, ...tagIds],
    );
    for (const r of rows) counts.set(Number(r.tag_id), Number(r.n));
    return counts;
  }
  async add(tag: NewTag): Promise<Tag> {
    const id = (await nameUnique(() => this.em.insert(TagSchema, { ...tag } as Tag))) as number;
    return { ...tag, id };
  }
  async update(tag: Tag) {
    const { id, companyId, ...fields } = tag;
    await nameUnique(() => this.em.nativeUpdate(TagSchema, { id, companyId }, fields));
  }
  async remove(companyId: number, id: number) {
    await this.em.nativeDelete(TagSchema, { id, companyId });
  }

  tagsOfTickets(companyId: number, ticketIds: readonly number[]) {
    return this.tagsOf(TICKETS, companyId, ticketIds);
  }
  lockTicketTags(companyId: number, ticketId: number) {
    return this.lock(TICKETS, companyId, ticketId);
  }
  setTicketTags(companyId: number, ticketId: number, tagIds: readonly number[]) {
    return this.set(TICKETS, companyId, ticketId, tagIds);
  }
  addTicketTag(companyId: number, ticketId: number, tagId: number) {
    return this.insert(TICKETS, companyId, ticketId, [tagId]);
  }
  removeTicketTags(companyId: number, ticketId: number, tagIds?: readonly number[]) {
    return this.delete(TICKETS, companyId, ticketId, tagIds, false);
  }

  tagsOfContacts(companyId: number, contactIds: readonly number[]) {
    return this.tagsOf(CONTACTS, companyId, contactIds);
  }
  lockContactTags(companyId: number, contactId: number) {
    return this.lock(CONTACTS, companyId, contactId);
  }
  setContactTags(companyId: number, contactId: number, tagIds: readonly number[]) {
    return this.set(CONTACTS, companyId, contactId, tagIds);
  }
  addContactTag(companyId: number, contactId: number, tagId: number) {
    return this.insert(CONTACTS, companyId, contactId, [tagId]);
  }
  removeContactTags(companyId: number, contactId: number, tagIds?: readonly number[]) {
    return this.delete(CONTACTS, companyId, contactId, tagIds, false);
  }

  /** One query for every owner of the page. */
  private async tagsOf(t: LinkTable, companyId: number, owners: readonly number[]): Promise<Map<number, Tag[]>> {
    const found = new Map<number, Tag[]>();
    if (!owners.length) return found;
    const rows = await this.em.execute<TagRow[]>(
      `select l.${t.owner} as owner_id, g.id, g.company_id, g.name, g.color, g.kanban, g.lane_order, g.created_at, g.updated_at
       from ${t.table} l join tags g on g.id = l.tag_id
       where g.company_id = ? and l.${t.owner} in (${marks(owners.length)}) order by ${foldSql('g.name')}, g.id`,
      [companyId, ...owners],
    );
    for (const r of rows) {
      const owner = Number(r.owner_id);
      const list = found.get(owner) ?? [];
      list.push({
        id: Number(r.id),
        companyId: Number(r.company_id),
        name: r.name,
        color: r.color,
        kanban: Boolean(r.kanban),
        laneOrder: Number(r.lane_order),
        createdAt: new Date(r.created_at),
        updatedAt: new Date(r.updated_at),
      });
      found.set(owner, list);
    }
    return found;
  }

  /** A row lock on the ticket or contact, held until the surrounding transaction ends. */
  private async lock(t: LinkTable, companyId: number, owner: number) {
    await this.em.execute(`select id from ${t.owners} where id = ? and company_id = ? for update`, [owner, companyId]);
  }

  /** Unlinks what is not in the new set, then links what is missing. */
  private async set(t: LinkTable, companyId: number, owner: number, tagIds: readonly number[]) {
    await this.delete(t, companyId, owner, tagIds, true);
    await this.insert(t, companyId, owner, tagIds);
  }

  /** Links only tags and an owner of the company; existing links stay as they are. */
  private async insert(t: LinkTable, companyId: number, owner: number, tagIds: readonly number[]) {
    if (!tagIds.length) return;
    await this.em.execute(
      `insert into ${t.table} (${t.owner}, tag_id) select o.id, g.id from ${t.owners} o join tags g on g.company_id = o.company_id
       where o.id = ? and o.company_id = ? and g.id in (${marks(tagIds.length)}) on conflict do nothing`,
      [owner, companyId, ...tagIds],
    );
  }

  /** Unlinks the company's tags among `tagIds` (all when omitted), or all but them with `except`. */
  private async delete(t: LinkTable, companyId: number, owner: number, tagIds: readonly number[] | undefined, except: boolean) {
    if (tagIds && !tagIds.length && !except) return;
    const among = tagIds?.length ? ` and l.tag_id ${except ? 'not in' : 'in'} (${marks(tagIds.length)})` : '';
    await this.em.execute(`delete from ${t.table} l using tags g where l.${t.owner} = ? and g.id = l.tag_id and g.company_id = ?${among}`, [
      owner,
      companyId,
      ...(tagIds ?? []),
    ]);
  }
}
