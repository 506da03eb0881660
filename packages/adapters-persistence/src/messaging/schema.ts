import { EntitySchema } from '@mikro-orm/core';
import type { Connection, Contact, Message, OutboxEntry, Ticket } from '@servicedesk/core';
import { foreignKeysOf } from '../shared/columns.js';

const connections = foreignKeysOf('connections');

/** As m0003 creates `connections`, with m0011's unique page ids, m0025's prompt (no foreign key), m0036's unique phone-number ids and m0037's pairing code. */
export const ConnectionSchema = new EntitySchema<Connection>({
  name: 'Connection',
  tableName: 'connections',
  properties: {
    id: { type: 'number', primary: true, autoincrement: true },
    companyId: connections('company_id', 'Company', 'cascade'),
    name: { type: 'string', length: 120 },
    kind: { type: 'string', enum: true, items: ['chatapp', 'socialnet', 'bizchat'], columnType: 'varchar(20)' },
    provider: { type: 'string', enum: true, items: ['sandbox', 'baileys', 'messenger', 'instagram', 'cloudapi'], columnType: 'varchar(20)' },
    status: {
      type: 'string',
      enum: true,
      columnType: 'varchar(20)',
      default: 'OPENING',
      items: ['OPENING', 'qrcode', 'CONNECTED', 'DISCONNECTED', 'PENDING'],
    },
    qrcode: { type: 'text', nullable: true },
    pairingCode: { type: 'string', length: 16, nullable: true },
    greetingMessage: { type: 'text', nullable: true },
    farewellMessage: { type: 'text', nullable: true },
    outOfHoursMessage: { type: 'text', nullable: true },
    isDefault: { type: 'boolean', default: false },
    tokenDigest: { type: 'string', length: 200, nullable: true, unique: 'connections_token_digest_key' },
    tokenHint: { type: 'string', length: 40, nullable: true },
    externalId: { type: 'string', length: 200, nullable: true },
    secrets: { type: 'json', defaultRaw: `'{}'` },
    reopenWindowMinutes: { type: 'number', default: 0 },
    greetingMediaKey: { type: 'string', length: 500, nullable: true },
    createdAt: { type: 'Date' },
    updatedAt: { type: 'Date' },
    promptId: { type: 'number', nullable: true },
  },
  indexes: [
    { name: 'connections_company_id_idx', properties: ['companyId'] },
    { name: 'connections_prompt_id_idx', properties: ['promptId'] },
  ],
  // m0011: a page or account id belongs to one social connection on the whole platform; m0036: a
  // phone-number id to one bizchat connection.
  uniques: [
    {
      name: 'connections_external_id_key',
      expression: `create unique index connections_external_id_key on connections (external_id) where kind = 'socialnet'`,
    },
    {
      name: 'connections_bizchat_number_key',
      expression: `create unique index connections_bizchat_number_key on connections (external_id) where kind = 'bizchat'`,
    },
  ],
});

const contacts = foreignKeysOf('contacts');

/** As m0002 creates `contacts`, with the columns of m0003 and m0005. */
export const ContactSchema = new EntitySchema<Contact>({
  name: 'Contact',
  tableName: 'contacts',
  properties: {
    id: { type: 'number', primary: true, autoincrement: true },
    companyId: contacts('company_id', 'Company', 'cascade'),
    name: { type: 'string', length: 200 },
    number: { type: 'string', length: 60 },
    email: { type: 'string', length: 254, nullable: true },
    isGroup: { type: 'boolean', default: false },
    profilePicUrl: { type: 'text', nullable: true },
    createdAt: { type: 'Date' },
    updatedAt: { type: 'Date' },
    blocked: { type: 'boolean', default: false },
    acceptAudio: { type: 'boolean', default: true },
    disableBot: { type: 'boolean', default: false },
    walletUserId: contacts('wallet_user_id', 'User', 'set null', { nullable: true }),
    linkedUserId: contacts('linked_user_id', 'User', 'set null', { nullable: true }),
    extraInfo: { type: 'json', defaultRaw: `'[]'` },
  },
  uniques: [
    { name: 'contacts_company_id_number_key', properties: ['companyId', 'number'] },
    // One contact per platform user within a company.
    {
      name: 'contacts_linked_user_idx',
      expression: 'create unique index contacts_linked_user_idx on contacts (company_id, linked_user_id) where linked_user_id is not null',
    },
  ],
  indexes: [{ name: 'contacts_wallet_user_id_idx', properties: ['walletUserId'] }],
});

const tickets = foreignKeysOf('tickets');

/**
 * As m0003 creates `tickets`, with the columns of m0007. `queue_id` has no foreign key on purpose
 * (tickets outlive their queue).
 */
export const TicketSchema = new EntitySchema<Ticket>({
  name: 'Ticket',
  tableName: 'tickets',
  properties: {
    id: { type: 'number', primary: true, autoincrement: true },
    uuid: { type: 'uuid', unique: 'tickets_uuid_key' },
    companyId: tickets('company_id', 'Company', 'cascade'),
    contactId: tickets('contact_id', 'Contact', 'cascade'),
    connectionId: tickets('connection_id', 'Connection', 'cascade'),
    status: { type: 'string', enum: true, items: ['pending', 'open', 'closed'], columnType: 'varchar(10)', default: 'pending' },
    userId: tickets('user_id', 'User', 'set null', { nullable: true }),
    queueId: { type: 'number', nullable: true },
    unreadMessages: { type: 'number', default: 0 },
    lastMessage: { type: 'text', default: '' },
    isGroup: { type: 'boolean', default: false },
    greetedAt: { type: 'Date', nullable: true },
    closedAt: { type: 'Date', nullable: true },
    createdAt: { type: 'Date' },
    updatedAt: { type: 'Date' },
    queueOptionId: tickets('queue_option_id', 'QueueOption', 'set null', { nullable: true }),
    botAttempts: { type: 'number', default: 0 },
    botActive: { type: 'boolean', default: false },
  },
  uniques: [
    {
      // The database rule behind Tickets.getOrCreateActive: at most one active ticket per pair.
      name: 'tickets_one_active_idx',
      expression: `create unique index tickets_one_active_idx on tickets (contact_id, connection_id) where status in ('pending', 'open')`,
    },
  ],
  indexes: [
    {
      name: 'tickets_company_id_status_updated_at_idx',
      expression: 'create index tickets_company_id_status_updated_at_idx on tickets (company_id, status, updated_at desc)',
    },
    { name: 'tickets_company_id_updated_at_idx', expression: 'create index tickets_company_id_updated_at_idx on tickets (company_id, updated_at desc)' },
    {
      name: 'tickets_contact_id_connection_id_closed_at_idx',
      expression: 'create index tickets_contact_id_connection_id_closed_at_idx on tickets (contact_id, connection_id, closed_at desc)',
    },
    { name: 'tickets_connection_id_idx', properties: ['connectionId'] },
    { name: 'tickets_user_id_idx', properties: ['userId'] },
    {
      name: 'tickets_company_id_queue_id_idx',
      expression: 'create index tickets_company_id_queue_id_idx on tickets (company_id, queue_id) where queue_id is not null',
    },
    {
      name: 'tickets_queue_option_id_idx',
      expression: 'create index tickets_queue_option_id_idx on tickets (queue_option_id) where queue_option_id is not null',
    },
  ],
});

const messages = foreignKeysOf('messages');

/** As m0003 creates `messages`, with the columns of m0004, m0021 and m0038. `quoted_message_id` has no foreign key. */
export const MessageSchema = new EntitySchema<Message>({
  name: 'Message',
  tableName: 'messages',
  properties: {
    id: { type: 'uuid', primary: true },
    companyId: messages('company_id', 'Company', 'cascade'),
    ticketId: messages('ticket_id', 'Ticket', 'cascade'),
    // Nullable in the table (a removed contact leaves its messages); the domain always sets it.
    contactId: messages('contact_id', 'Contact', 'set null', { nullable: true }),
    connectionId: messages('connection_id', 'Connection', 'cascade'),
    providerMessageId: { type: 'string', length: 200, nullable: true },
    fromMe: { type: 'boolean', default: false },
    body: { type: 'text', default: '' },
    media: { type: 'json', nullable: true },
    status: {
      type: 'string',
      enum: true,
      columnType: 'varchar(10)',
      default: 'pending',
      items: ['pending', 'sent', 'delivered', 'read', 'played', 'failed'],
    },
    failureReason: { type: 'text', nullable: true },
    quotedMessageId: { type: 'uuid', nullable: true },
    isPrivate: { type: 'boolean', default: false },
    userId: messages('user_id', 'User', 'set null', { nullable: true }),
    createdAt: { type: 'Date' },
    updatedAt: { type: 'Date' },
    isDeleted: { type: 'boolean', default: false },
    isEdited: { type: 'boolean', default: false },
    editedAt: { type: 'Date', nullable: true },
    // m0021: what a speech-to-text service heard in its audio.
    transcription: { type: 'text', nullable: true },
    // m0038: a location or contact cards the contact shared (the body holds them); null for a text or a file.
    kind: { type: 'string', length: 10, nullable: true },
  },
  uniques: [{ name: 'messages_connection_id_provider_message_id_key', properties: ['connectionId', 'providerMessageId'] }],
  indexes: [
    { name: 'messages_ticket_id_created_at_idx', expression: 'create index messages_ticket_id_created_at_idx on messages (ticket_id, created_at desc)' },
    { name: 'messages_company_id_created_at_idx', properties: ['companyId', 'createdAt'] },
    { name: 'messages_contact_id_idx', properties: ['contactId'] },
    { name: 'messages_user_id_idx', properties: ['userId'] },
    // `/messages-allMe`: an operator's own messages, newest first.
    {
      name: 'messages_company_id_user_id_created_at_idx',
      expression: 'create index messages_company_id_user_id_created_at_idx on messages (company_id, user_id, created_at desc)',
    },
    // Sends still waiting for a channel runtime, oldest first: what the deadline sweep reads (m0008).
    { name: 'messages_pending_created_idx', expression: `create index messages_pending_created_idx on messages (created_at) where status = 'pending'` },
  ],
});

/** An outbox row: the entry plus its delivery bookkeeping. */
export interface OutboxRow extends OutboxEntry {
  publishedAt: Date | null;
  attempts: number;
  /** Orders entries written in the same millisecond; the database assigns it (an identity), never the ORM. */
  seq?: string;
}

/** As m0003 creates `outbox`. */
export const OutboxSchema = new EntitySchema<OutboxRow>({
  name: 'OutboxEntry',
  tableName: 'outbox',
  properties: {
    id: { type: 'uuid', primary: true },
    seq: { type: 'bigint', generated: 'identity', autoincrement: true },
    subject: { type: 'string', length: 200 },
    payload: { type: 'json', nullable: true },
    createdAt: { type: 'Date' },
    publishedAt: { type: 'Date', nullable: true },
    attempts: { type: 'number', default: 0 },
  },
  indexes: [{ name: 'outbox_pending_idx', expression: 'create index outbox_pending_idx on outbox (created_at, seq) where published_at is null' }],
});
