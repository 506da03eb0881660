import { raw } from '@mikro-orm/core';
import type {
  Connection, Connections, Contact, Contacts, Message, Messages, NewConnection, Outbox, OutboxEntry, Page, PageRequest, Ticket, TicketQuery,
  Tickets,
} from '@servicedesk/core';
import { ConnectionSchema, ContactSchema, MessageSchema, OutboxSchema, TicketSchema } from '../schemas/messaging.js';
import { MikroOrmRepository } from './context.js';
import { searchWhere } from './search.js';

const READ = { disableIdentityMap: true } as const;
const ACTIVE = ['pending', 'open'] as const;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** How often a get-or-create retries when the row it collided with vanished before it could be read. */
const RACE_RETRIES = 3;

/**
 * An `insert` of the named fields of a domain object, in SQL the caller completes with an
 * `on conflict` clause. The raw statement joins the unit of work's transaction like any other.
 */
function insertSql<T extends object>(table: string, row: T, fields: ReadonlyArray<keyof T & string>, json: ReadonlyArray<keyof T & string> = []) {
  const columns = fields.map((f) => f.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`));
  const marks = fields.map((f) => (json.includes(f) ? 'cast(? as jsonb)' : '?'));
  const params = fields.map((f) => {
    const value = row[f] ?? null;
    return json.includes(f) && value !== null ? JSON.stringify(value) : value;
  });
  return { sql: `insert into ${table} (${columns.join(', ')}) values (${marks.join(', ')})`, params };
}

export class MikroOrmConnections extends MikroOrmRepository implements Connections {
  async findById(companyId: number | null, id: number) {
    return this.em.findOne(ConnectionSchema, companyId === null ? { id } : { id, companyId }, READ);
  }
  async findByTokenDigest(digest: string) {
    return this.em.findOne(ConnectionSchema, { tokenDigest: digest }, READ);
  }
  async findByExternalId(externalId: string) {
    return this.em.findOne(ConnectionSchema, { kind: 'socialnet', externalId }, { ...READ, orderBy: { id: 'asc' } });
  }
  async list(companyId: number) {
    return this.em.find(ConnectionSchema, { companyId }, { ...READ, orderBy: { id: 'asc' } });
  }
  async countByCompany(companyId: number) {
    return this.em.count(ConnectionSchema, { companyId });
  }
  async add(connection: NewConnection): Promise<Connection> {
    const id = (await this.em.insert(ConnectionSchema, { ...connection } as Connection)) as number;
    return { ...connection, id };
  }
  async update(connection: Connection) {
    const { id, companyId, ...fields } = connection;
    await this.em.nativeUpdate(ConnectionSchema, { id, companyId }, fields);
  }
  async remove(companyId: number, id: number) {
    await this.em.nativeDelete(ConnectionSchema, { id, companyId });
  }
}

const CONTACT_FIELDS = ['companyId', 'name', 'number', 'email', 'isGroup', 'profilePicUrl', 'createdAt', 'updatedAt'] as const;

export class MikroOrmContacts extends MikroOrmRepository implements Contacts {
  async findById(companyId: number, id: number) {
    return this.em.findOne(ContactSchema, { id, companyId }, READ);
  }
  async findByNumber(companyId: number, number: string) {
    return this.em.findOne(ContactSchema, { companyId, number }, READ);
  }
  /** The unique (company_id, number) decides the race: the losers insert nothing and read the winner's row. */
  async getOrCreate(contact: Omit<Contact, 'id'>): Promise<Contact> {
    const insert = insertSql('contacts', contact, CONTACT_FIELDS);
    for (let attempt = 0; attempt < RACE_RETRIES; attempt++) {
      const [row] = await this.em.execute<Array<{ id: number }>>(`${insert.sql} on conflict (company_id, number) do nothing returning id`, insert.params);
      if (row) return { ...contact, id: Number(row.id) };
      const existing = await this.findByNumber(contact.companyId, contact.number);
      if (existing) return existing;
    }
    throw new Error(`contact ${contact.number} of company ${contact.companyId} could be neither created nor read`);
  }
}

const TICKET_FIELDS = [
  'uuid', 'companyId', 'contactId', 'connectionId', 'status', 'userId', 'queueId', 'unreadMessages', 'lastMessage', 'isGroup', 'greetedAt',
  'closedAt', 'createdAt', 'updatedAt',
] as const;

export class MikroOrmTickets extends MikroOrmRepository implements Tickets {
  async findById(companyId: number, id: number) {
    return this.em.findOne(TicketSchema, { id, companyId }, READ);
  }
  async findByUuid(companyId: number, uuid: string) {
    if (!UUID.test(uuid)) return null;
    return this.em.findOne(TicketSchema, { uuid, companyId }, READ);
  }
  async findActive(companyId: number, contactId: number, connectionId: number) {
    return this.em.findOne(TicketSchema, { companyId, contactId, connectionId, status: { $in: [...ACTIVE] } }, READ);
  }
  async findLatestClosed(companyId: number, contactId: number, connectionId: number) {
    return this.em.findOne(TicketSchema, { companyId, contactId, connectionId, status: 'closed' }, {
      ...READ, orderBy: [{ closedAt: 'desc nulls last' }, { id: 'desc' }],
    });
  }
  /**
   * The partial unique index on (contact_id, connection_id) where the ticket is active decides
   * the race: the losers insert nothing and read the winner's ticket.
   */
  async getOrCreateActive(draft: Omit<Ticket, 'id'>): Promise<{ ticket: Ticket; created: boolean }> {
    const insert = insertSql('tickets', draft, TICKET_FIELDS);
    for (let attempt = 0; attempt < RACE_RETRIES; attempt++) {
      const [row] = await this.em.execute<Array<{ id: number }>>(
        `${insert.sql} on conflict (contact_id, connection_id) where status in ('pending', 'open') do nothing returning id`, insert.params,
      );
      if (row) return { ticket: { ...draft, id: Number(row.id) }, created: true };
      const active = await this.findActive(draft.companyId, draft.contactId, draft.connectionId);
      if (active) return { ticket: active, created: false };
    }
    throw new Error(`no active ticket for contact ${draft.contactId} on connection ${draft.connectionId} could be created or read`);
  }
  async update(ticket: Ticket) {
    const { id, companyId, ...fields } = ticket;
    await this.em.nativeUpdate(TicketSchema, { id, companyId }, fields);
  }
  async markGreeted(ticketId: number, at: Date) {
    return (await this.em.nativeUpdate(TicketSchema, { id: ticketId, greetedAt: null }, { greetedAt: at })) === 1;
  }
  async list(q: TicketQuery): Promise<Page<Ticket>> {
    const where = { companyId: q.companyId, ...(q.status ? { status: q.status } : {}), ...searchWhere(['last_message'], q.search) };
    const [rows, count] = await this.em.findAndCount(TicketSchema, where, {
      ...READ, orderBy: [{ updatedAt: 'desc' }, { id: 'desc' }], offset: q.page.offset, limit: q.page.limit,
    });
    return { rows, count };
  }
}

const MESSAGE_FIELDS = [
  'id', 'companyId', 'ticketId', 'contactId', 'connectionId', 'providerMessageId', 'fromMe', 'body', 'media', 'status', 'failureReason',
  'quotedMessageId', 'isPrivate', 'userId', 'createdAt', 'updatedAt',
] as const;

export class MikroOrmMessages extends MikroOrmRepository implements Messages {
  async findById(companyId: number, id: string) {
    if (!UUID.test(id)) return null;
    return this.em.findOne(MessageSchema, { id, companyId }, READ) as Promise<Message | null>;
  }
  async findByProviderId(connectionId: number, providerMessageId: string) {
    return this.em.findOne(MessageSchema, { connectionId, providerMessageId }, READ) as Promise<Message | null>;
  }
  async add(message: Message) {
    await this.em.insert(MessageSchema, { ...message });
  }
  /** The unique (connection_id, provider_message_id) drops duplicates; NULL provider ids never collide. */
  async addInbound(message: Message) {
    const insert = insertSql('messages', message, MESSAGE_FIELDS, ['media']);
    const rows = await this.em.execute<Array<{ id: string }>>(
      `${insert.sql} on conflict (connection_id, provider_message_id) do nothing returning id`, insert.params,
    );
    return rows.length === 1;
  }
  async update(message: Message) {
    const { id, companyId, ...fields } = message;
    await this.em.nativeUpdate(MessageSchema, { id, companyId }, fields);
  }
  async listByTicket(companyId: number, ticketId: number, page: PageRequest): Promise<Page<Message>> {
    const [rows, count] = await this.em.findAndCount(MessageSchema, { companyId, ticketId }, {
      ...READ, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], offset: page.offset, limit: page.limit,
    });
    return { rows: rows as Message[], count };
  }
}

export class MikroOrmOutbox extends MikroOrmRepository implements Outbox {
  async add(entry: OutboxEntry) {
    await this.em.insert(OutboxSchema, { id: entry.id, subject: entry.subject, payload: entry.payload, createdAt: entry.createdAt, publishedAt: null, attempts: 0 });
  }
  /** Oldest first; entries of one millisecond in the order they were written (the identity `seq`). */
  async pending(limit: number): Promise<OutboxEntry[]> {
    const rows = await this.em.find(OutboxSchema, { publishedAt: null }, {
      ...READ, orderBy: [{ createdAt: 'asc' }, { [raw((alias: string) => `${alias}.seq`)]: 'asc' }], limit,
    });
    return rows.map((r) => ({ id: r.id, subject: r.subject, payload: r.payload, createdAt: r.createdAt }));
  }
  /** Keeps the first publication time of an entry published twice (a relay that crashed before marking). */
  async markPublished(ids: readonly string[], at: Date) {
    const valid = ids.filter((id) => UUID.test(id));
    if (!valid.length) return;
    await this.em.nativeUpdate(OutboxSchema, { id: { $in: valid }, publishedAt: null }, { publishedAt: at });
  }
}
