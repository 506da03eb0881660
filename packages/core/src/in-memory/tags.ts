import { ConflictError } from '../shared/errors.js';
import { foldForSearch } from '../shared/text.js';
import type { TagQuery, Tags } from '../tags/ports.js';
import type { NewTag, Tag } from '../tags/tag.js';
import { compareFolded, InMemoryTable, slice } from './table.js';

const byName = (a: Tag, b: Tag) => compareFolded(a.name, b.name) || a.id - b.id;
const byLane = (a: Tag, b: Tag) => a.laneOrder - b.laneOrder || a.id - b.id;

/** The tag ids linked to one owner (a ticket or a contact), by owner id. */
class Links {
  private readonly byOwner = new Map<number, Set<number>>();
  of(owner: number): number[] {
    return [...(this.byOwner.get(owner) ?? [])];
  }
  set(owner: number, tagIds: Iterable<number>) {
    const ids = new Set(tagIds);
    if (ids.size) this.byOwner.set(owner, ids);
    else this.byOwner.delete(owner);
  }
  add(owner: number, tagId: number) {
    this.set(owner, [...this.of(owner), tagId]);
  }
  remove(owner: number, tagIds?: readonly number[]) {
    this.set(owner, tagIds ? this.of(owner).filter((id) => !tagIds.includes(id)) : []);
  }
  dropOwner(owner: number) {
    this.byOwner.delete(owner);
  }
  dropTag(tagId: number) {
    for (const owner of [...this.byOwner.keys()]) this.remove(owner, [tagId]);
  }
  countByTag(): Map<number, number> {
    const counts = new Map<number, number>();
    for (const ids of this.byOwner.values()) for (const id of ids) counts.set(id, (counts.get(id) ?? 0) + 1);
    return counts;
  }
}

/**
 * Tags with their ticket and contact links. The tickets adapter reads the links to filter by
 * tag and drops a deleted ticket's links, as the database's foreign keys do.
 */
export class InMemoryTags implements Tags {
  readonly table = new InMemoryTable<Tag>();
  private readonly tickets = new Links();
  private readonly contacts = new Links();

  async findById(companyId: number, id: number) {
    const t = this.table.get(id);
    return t?.companyId === companyId ? t : null;
  }
  async findByIds(companyId: number, ids: readonly number[]) {
    return this.table.filter((t) => t.companyId === companyId && ids.includes(t.id)).sort((a, b) => a.id - b.id);
  }
  async findByName(companyId: number, name: string) {
    return this.table.find((t) => t.companyId === companyId && t.name.toLowerCase() === name.toLowerCase());
  }
  async listAll(companyId: number, filter: { readonly kanban?: boolean } = {}) {
    return this.table.filter((t) => t.companyId === companyId && (filter.kanban === undefined || t.kanban === filter.kanban)).sort(byName);
  }
  async lanes(companyId: number) {
    return this.table.filter((t) => t.companyId === companyId && t.kanban).sort(byLane);
  }
  async list(q: TagQuery) {
    const term = q.search?.trim() ? foldForSearch(q.search) : '';
    const rows = (await this.listAll(q.companyId, q.kanban === undefined ? {} : { kanban: q.kanban })).filter(
      (t) => !term || foldForSearch(t.name).includes(term),
    );
    return slice(rows, q.page);
  }
  async countTickets(companyId: number, tagIds: readonly number[]) {
    const counts = new Map<number, number>();
    for (const [id, n] of this.tickets.countByTag()) if (tagIds.includes(id) && this.table.get(id)?.companyId === companyId) counts.set(id, n);
    return counts;
  }
  /** No await between the check and the write: concurrent callers cannot both take a name. */
  async add(tag: NewTag) {
    this.assertFreeName(tag.companyId, tag.name);
    return this.table.insert(tag);
  }
  async update(tag: Tag) {
    this.assertFreeName(tag.companyId, tag.name, tag.id);
    if (this.table.get(tag.id)?.companyId === tag.companyId) this.table.replace(tag);
  }
  async remove(companyId: number, id: number) {
    if (!(await this.findById(companyId, id))) return;
    this.table.delete(id);
    this.tickets.dropTag(id);
    this.contacts.dropTag(id);
  }

  async tagsOfTickets(companyId: number, ticketIds: readonly number[]) {
    return this.tagsOf(this.tickets, companyId, ticketIds);
  }
  async lockTicketTags() {
    /* SerialTransaction already runs units of work one at a time */
  }
  async setTicketTags(companyId: number, ticketId: number, tagIds: readonly number[]) {
    this.setLinks(this.tickets, companyId, ticketId, tagIds);
  }
  async addTicketTag(companyId: number, ticketId: number, tagId: number) {
    if (this.owns(companyId, tagId)) this.tickets.add(ticketId, tagId);
  }
  async removeTicketTags(companyId: number, ticketId: number, tagIds?: readonly number[]) {
    this.removeLinks(this.tickets, companyId, ticketId, tagIds);
  }

  async tagsOfContacts(companyId: number, contactIds: readonly number[]) {
    return this.tagsOf(this.contacts, companyId, contactIds);
  }
  async lockContactTags() {
    /* as lockTicketTags */
  }
  async setContactTags(companyId: number, contactId: number, tagIds: readonly number[]) {
    this.setLinks(this.contacts, companyId, contactId, tagIds);
  }
  async addContactTag(companyId: number, contactId: number, tagId: number) {
    if (this.owns(companyId, tagId)) this.contacts.add(contactId, tagId);
  }
  async removeContactTags(companyId: number, contactId: number, tagIds?: readonly number[]) {
    this.removeLinks(this.contacts, companyId, contactId, tagIds);
  }

  /** The tag ids of a ticket, for the tickets adapter's filters. */
  ticketTagIds(ticketId: number): number[] {
    return this.tickets.of(ticketId);
  }
  contactTagIds(contactId: number): number[] {
    return this.contacts.of(contactId);
  }
  /** Called when a ticket or a contact is deleted (the database cascades). */
  dropTicket(ticketId: number) {
    this.tickets.dropOwner(ticketId);
  }
  dropContact(contactId: number) {
    this.contacts.dropOwner(contactId);
  }

  private owns(companyId: number, tagId: number) {
    return this.table.get(tagId)?.companyId === companyId;
  }
  private assertFreeName(companyId: number, name: string, exceptId?: number) {
    const holder = this.table.find((t) => t.companyId === companyId && t.name.toLowerCase() === name.toLowerCase());
    if (holder && holder.id !== exceptId) throw new ConflictError('ERR_TAG_NAME_ALREADY_EXISTS');
  }
  private tagsOf(links: Links, companyId: number, owners: readonly number[]) {
    const found = new Map<number, Tag[]>();
    for (const owner of new Set(owners)) {
      const tags = links
        .of(owner)
        .map((id) => this.table.get(id))
        .filter((t): t is Tag => t?.companyId === companyId)
        .sort(byName);
      if (tags.length) found.set(owner, tags);
    }
    return found;
  }
  /** Keeps the other companies' links of the owner: only this company's tags are replaced. */
  private setLinks(links: Links, companyId: number, owner: number, tagIds: readonly number[]) {
    const kept = links.of(owner).filter((id) => !this.owns(companyId, id));
    links.set(owner, [...kept, ...tagIds.filter((id) => this.owns(companyId, id))]);
  }
  private removeLinks(links: Links, companyId: number, owner: number, tagIds?: readonly number[]) {
    links.remove(
      owner,
      links.of(owner).filter((id) => this.owns(companyId, id) && (!tagIds || tagIds.includes(id))),
    );
  }
}
