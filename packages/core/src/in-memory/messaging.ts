import type { Connection, NewConnection } from '../connections/connection.js';
import { advanceDelivery } from '../connections/delivery-status.js';
import { withTicketDefaults, type NewTicket, type Ticket } from '../tickets/ticket.js';
import type { Message, MessageMedia } from '../messages/message.js';
import type { Connections } from '../connections/ports.js';
import type { DeliveryChange, MessageCountFilter, Messages, MessageQuery } from '../messages/ports.js';
import type { Outbox, OutboxEntry } from '../outbox/ports.js';
import type { TicketFilter, TicketQuery, Tickets } from '../tickets/ports.js';
import { ConflictError } from '../shared/errors.js';
import { foldForSearch } from '../shared/text.js';
import { InMemoryTable, slice } from './table.js';
import type { InMemoryTags } from './tags.js';
import { InMemoryContacts } from './contacts.js';

export { InMemoryContacts };

export class InMemoryConnections implements Connections {
  readonly table = new InMemoryTable<Connection>();
  async findById(companyId: number | null, id: number) {
    const c = this.table.get(id);
    return c && (companyId === null || c.companyId === companyId) ? c : null;
  }
  async findByTokenDigest(digest: string) {
    return this.table.find((c) => c.tokenDigest === digest);
  }
  async findByExternalId(externalId: string, kind: 'socialnet' | 'bizchat' = 'socialnet') {
    return this.table.find((c) => c.kind === kind && c.externalId === externalId);
  }
  async list(companyId: number) {
    return this.table.filter((c) => c.companyId === companyId).sort((a, b) => a.id - b.id);
  }
  async countByCompany(companyId: number) {
    return (await this.list(companyId)).length;
  }
  async add(c: NewConnection) {
    this.assertPageFree(c, null);
    return this.table.insert(c);
  }
  async update(c: Connection) {
    this.assertPageFree(c, c.id);
    this.table.replace(c);
  }
  async remove(companyId: number, id: number) {
    if (await this.findById(companyId, id)) this.table.delete(id);
  }
  /** As the SQL adapter's unique indexes: a page id belongs to one social connection on the platform, a phone-number id to one bizchat connection. */
  private assertPageFree(c: NewConnection, id: number | null) {
    if ((c.kind !== 'socialnet' && c.kind !== 'bizchat') || !c.externalId) return;
    const holder = this.table.find((o) => o.kind === c.kind && o.externalId === c.externalId);
    if (holder && holder.id !== id) throw new ConflictError(c.kind === 'bizchat' ? 'ERR_BIZCHAT_NUMBER_IN_USE' : 'ERR_PAGE_IN_USE');
  }
}

export class InMemoryTickets implements Tickets {
  readonly table = new InMemoryTable<Ticket>();
  /**
   * With the contacts, a search also matches their names and numbers, as the SQL adapter does;
   * with the tags, the tag filters work and a removed ticket loses its tags.
   */
  constructor(
    private readonly contacts?: InMemoryContacts,
    private readonly tags?: InMemoryTags,
  ) {}
  async findById(companyId: number, id: number) {
    const t = this.table.get(id);
    return t?.companyId === companyId ? t : null;
  }
  async findByUuid(companyId: number, uuid: string) {
    return this.table.find((t) => t.companyId === companyId && t.uuid === uuid);
  }
  async findActive(companyId: number, contactId: number, connectionId: number) {
    return this.activeOf(companyId, contactId, connectionId);
  }
  private activeOf(companyId: number, contactId: number, connectionId: number) {
    return this.table.find((t) => t.companyId === companyId && t.contactId === contactId && t.connectionId === connectionId && t.status !== 'closed');
  }
  async findLatestClosed(companyId: number, contactId: number, connectionId: number) {
    const closed = this.table.filter((t) => t.companyId === companyId && t.contactId === contactId && t.connectionId === connectionId && t.status === 'closed');
    return closed.sort((a, b) => (b.closedAt?.getTime() ?? 0) - (a.closedAt?.getTime() ?? 0))[0] ?? null;
  }
  /** No await between the check and the insert: concurrent callers cannot both insert. */
  async getOrCreateActive(draft: NewTicket) {
    const active = this.activeOf(draft.companyId, draft.contactId, draft.connectionId);
    return active ? { ticket: active, created: false } : { ticket: this.table.insert(withTicketDefaults(draft)), created: true };
  }
  /** The partial unique index of the database, checked with no await before the write. */
  async update(t: Ticket) {
    if (t.status !== 'closed') {
      const other = this.activeOf(t.companyId, t.contactId, t.connectionId);
      if (other && other.id !== t.id) throw new ConflictError('ERR_OTHER_OPEN_TICKET');
    }
    this.table.replace(t);
  }
  async markGreeted(ticketId: number, at: Date) {
    const t = this.table.get(ticketId);
    if (!t || t.greetedAt) return false;
    this.table.replace({ ...t, greetedAt: at });
    return true;
  }
  async list(q: TicketQuery) {
    const rows = this.table.filter(this.matcher(q)).sort((a, b) => b.updatedAt.getTime() - a.updatedAt.getTime() || b.id - a.id);
    return slice(rows, q.page);
  }
  async count(f: TicketFilter) {
    return this.table.filter(this.matcher(f)).length;
  }
  async remove(companyId: number, id: number) {
    if (!(await this.findById(companyId, id))) return;
    this.table.delete(id);
    this.tags?.dropTicket(id);
  }

  private matcher(f: TicketFilter): (t: Ticket) => boolean {
    const term = f.search?.trim() ? foldForSearch(f.search) : '';
    const within = (d: Date, from?: Date, to?: Date) => (!from || d >= from) && (!to || d < to);
    const found = (t: Ticket) => {
      if (foldForSearch(t.lastMessage).includes(term)) return true;
      const contact = this.contacts?.table.get(t.contactId);
      return Boolean(contact && (foldForSearch(contact.name).includes(term) || contact.number.includes(term)));
    };
    const tagsOf = (t: Ticket) => this.tags?.ticketTagIds(t.id) ?? [];
    const tagged = (t: Ticket) =>
      (!f.tagIds || tagsOf(t).some((id) => f.tagIds!.includes(id))) &&
      (f.hasTagId === undefined || tagsOf(t).includes(f.hasTagId)) &&
      (!f.lacksTagIds || !tagsOf(t).some((id) => f.lacksTagIds!.includes(id)));
    return (t) =>
      t.companyId === f.companyId &&
      (!f.status || t.status === f.status) &&
      (!f.statuses || f.statuses.includes(t.status)) &&
      (f.pendingOrAssignedTo === undefined ||
        t.userId === f.pendingOrAssignedTo ||
        (t.status === 'pending' && (!f.pendingInQueues || t.queueId === null || f.pendingInQueues.includes(t.queueId)))) &&
      (!f.userIds || (t.userId !== null && f.userIds.includes(t.userId))) &&
      (!f.queueIds || (t.queueId !== null && f.queueIds.includes(t.queueId))) &&
      (f.connectionId === undefined || t.connectionId === f.connectionId) &&
      (!f.connectionIds || f.connectionIds.includes(t.connectionId)) &&
      (!f.withUnreadMessages || t.unreadMessages > 0) &&
      (f.isGroup === undefined || t.isGroup === f.isGroup) &&
      within(t.createdAt, f.createdFrom, f.createdTo) &&
      within(t.updatedAt, f.updatedFrom, f.updatedTo) &&
      (!term || found(t)) &&
      tagged(t);
  }
}

export class InMemoryMessages implements Messages {
  readonly rows = new Map<string, Message>();
  /** The tickets, read to count the messages of an operator's tickets as the SQL adapter joins them. */
  constructor(private readonly tickets?: InMemoryTickets) {}
  async findById(companyId: number, id: string) {
    const m = this.rows.get(id);
    return m?.companyId === companyId ? structuredClone(m) : null;
  }
  async findByProviderId(connectionId: number, providerMessageId: string) {
    const m = this.byProviderId(connectionId, providerMessageId);
    return m ? structuredClone(m) : null;
  }
  private byProviderId(connectionId: number, providerMessageId: string) {
    for (const m of this.rows.values()) if (m.connectionId === connectionId && m.providerMessageId === providerMessageId) return m;
    return null;
  }
  async add(m: Message) {
    this.rows.set(m.id, structuredClone(m));
  }
  /** No await between the check and the insert: concurrent duplicates cannot both be stored. */
  async addInbound(m: Message) {
    if (m.providerMessageId && this.byProviderId(m.connectionId, m.providerMessageId)) return false;
    this.rows.set(m.id, structuredClone(m));
    return true;
  }
  async update(m: Message) {
    if (this.rows.has(m.id)) this.rows.set(m.id, structuredClone(m));
  }
  async setTranscription(companyId: number, id: string, transcription: string, at: Date) {
    const m = this.rows.get(id);
    if (!m || m.companyId !== companyId) return null;
    Object.assign(m, { transcription, updatedAt: at });
    return structuredClone(m);
  }
  async settleMedia(companyId: number, id: string, media: MessageMedia, at: Date) {
    const m = this.rows.get(id);
    if (!m || m.companyId !== companyId || m.media?.status !== 'pending') return null;
    Object.assign(m, { media: structuredClone(media), updatedAt: at });
    return structuredClone(m);
  }
  /** No await between the reads and the writes: atomic as the SQL adapter's statements. */
  async advanceStatuses(changes: readonly DeliveryChange[]) {
    return changes.map((change) => this.advance(change));
  }
  private advance(change: DeliveryChange): Message | null {
    const t = change.target;
    const m = 'id' in t ? this.rows.get(t.id) : this.byProviderId(t.connectionId, t.providerMessageId);
    if (!m || m.companyId !== change.companyId) return null;
    const next = advanceDelivery(m.status, change.status);
    const provider = m.providerMessageId ?? change.providerMessageId ?? null;
    if (next === m.status && provider === m.providerMessageId) return null;
    if (next === 'failed' && m.status !== 'failed') m.failureReason = change.failureReason ?? null;
    m.status = next;
    m.providerMessageId = provider;
    m.updatedAt = change.at;
    return structuredClone(m);
  }
  async failStaleSends(before: Date, reason: string, at: Date, limit: number) {
    const stale = [...this.rows.values()]
      .filter((m) => m.status === 'pending' && m.fromMe && !m.isPrivate && m.createdAt < before)
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime())
      .slice(0, limit);
    for (const m of stale) Object.assign(m, { status: 'failed', failureReason: reason, updatedAt: at });
    return stale.map((m) => structuredClone(m));
  }
  async listByTicket(companyId: number, ticketId: number, page: { offset: number; limit: number }) {
    const rows = [...this.rows.values()]
      .filter((m) => m.companyId === companyId && m.ticketId === ticketId)
      .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0))
      .map((m) => structuredClone(m));
    return slice(rows, page);
  }
  async list(q: MessageQuery) {
    const rows = [...this.rows.values()]
      .filter(
        (m) =>
          m.companyId === q.companyId &&
          (q.ticketId === undefined || m.ticketId === q.ticketId) &&
          (q.userId === undefined || m.userId === q.userId) &&
          (!q.withMedia || m.media !== null),
      )
      .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0))
      .map((m) => structuredClone(m));
    return slice(rows, q.page);
  }
  async count(f: MessageCountFilter) {
    let n = 0;
    for (const m of this.rows.values()) {
      if (m.companyId !== f.companyId || (f.fromMe !== undefined && m.fromMe !== f.fromMe)) continue;
      if ((f.from && m.createdAt < f.from) || (f.to && m.createdAt >= f.to)) continue;
      if (f.ticketUserId !== undefined && this.tickets?.table.get(m.ticketId)?.userId !== f.ticketUserId) continue;
      n += 1;
    }
    return n;
  }
  async countByTickets(companyId: number, ticketIds: readonly number[]) {
    const counts = new Map<number, number>();
    for (const m of this.rows.values()) {
      if (m.companyId === companyId && ticketIds.includes(m.ticketId)) counts.set(m.ticketId, (counts.get(m.ticketId) ?? 0) + 1);
    }
    return counts;
  }
  async removeByTicket(companyId: number, ticketId: number) {
    for (const [id, m] of this.rows) if (m.companyId === companyId && m.ticketId === ticketId) this.rows.delete(id);
  }
}

export class InMemoryOutbox implements Outbox {
  readonly entries: Array<OutboxEntry & { publishedAt: Date | null; handledAt?: Date | null }> = [];
  async add(entry: OutboxEntry) {
    this.entries.push({ ...structuredClone(entry), publishedAt: null, handledAt: null });
  }
  async addOnce(entries: readonly OutboxEntry[]) {
    for (const entry of entries) if (!this.entries.some((e) => e.id === entry.id)) await this.add(entry);
  }
  /** Oldest first; entries of one instant in the order they were added (the sort is stable). */
  async pending(limit: number) {
    return this.entries
      .filter((e) => !e.publishedAt)
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime())
      .slice(0, limit)
      .map(({ publishedAt: _p, handledAt: _h, ...e }) => structuredClone(e));
  }
  async markPublished(ids: readonly string[], at: Date, options: { handled?: boolean } = {}) {
    for (const e of this.entries) {
      if (!ids.includes(e.id) || e.publishedAt) continue;
      e.publishedAt = at;
      if (options.handled ?? true) e.handledAt ??= at;
    }
  }
  async markHandled(ids: readonly string[], at: Date) {
    for (const e of this.entries) if (ids.includes(e.id)) e.handledAt ??= at;
  }
  async requeueUnhandled(since: Date) {
    let n = 0;
    for (const e of this.entries) {
      if (e.publishedAt && !e.handledAt && e.createdAt >= since) {
        e.publishedAt = null;
        n++;
      }
    }
    return n;
  }
}
