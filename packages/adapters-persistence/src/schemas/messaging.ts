import { EntitySchema } from '@mikro-orm/core';
import type { Connection, Contact, Message, OutboxEntry, Ticket } from '@servicedesk/core';

export const ConnectionSchema = new EntitySchema<Connection>({
  name: 'Connection',
  tableName: 'connections',
  properties: {
    id: { type: 'number', primary: true, autoincrement: true },
    companyId: { type: 'number' },
    name: { type: 'string' },
    kind: { type: 'string' },
    provider: { type: 'string' },
    status: { type: 'string' },
    qrcode: { type: 'text', nullable: true },
    greetingMessage: { type: 'text', nullable: true },
    farewellMessage: { type: 'text', nullable: true },
    outOfHoursMessage: { type: 'text', nullable: true },
    isDefault: { type: 'boolean' },
    tokenDigest: { type: 'string', nullable: true, unique: true },
    tokenHint: { type: 'string', nullable: true },
    externalId: { type: 'string', nullable: true },
    secrets: { type: 'json' },
    reopenWindowMinutes: { type: 'number' },
    greetingMediaKey: { type: 'string', nullable: true },
    createdAt: { type: 'Date' },
    updatedAt: { type: 'Date' },
  },
});

export const ContactSchema = new EntitySchema<Contact>({
  name: 'Contact',
  tableName: 'contacts',
  properties: {
    id: { type: 'number', primary: true, autoincrement: true },
    companyId: { type: 'number' },
    name: { type: 'string' },
    number: { type: 'string' },
    email: { type: 'string', nullable: true },
    isGroup: { type: 'boolean' },
    profilePicUrl: { type: 'text', nullable: true },
    createdAt: { type: 'Date' },
    updatedAt: { type: 'Date' },
    blocked: { type: 'boolean' },
    acceptAudio: { type: 'boolean' },
    disableBot: { type: 'boolean' },
    walletUserId: { type: 'number', nullable: true },
    linkedUserId: { type: 'number', nullable: true },
    extraInfo: { type: 'json' },
  },
});

export const TicketSchema = new EntitySchema<Ticket>({
  name: 'Ticket',
  tableName: 'tickets',
  properties: {
    id: { type: 'number', primary: true, autoincrement: true },
    uuid: { type: 'uuid', unique: true },
    companyId: { type: 'number' },
    contactId: { type: 'number' },
    connectionId: { type: 'number' },
    status: { type: 'string' },
    userId: { type: 'number', nullable: true },
    queueId: { type: 'number', nullable: true },
    unreadMessages: { type: 'number' },
    lastMessage: { type: 'text' },
    isGroup: { type: 'boolean' },
    greetedAt: { type: 'Date', nullable: true },
    closedAt: { type: 'Date', nullable: true },
    createdAt: { type: 'Date' },
    updatedAt: { type: 'Date' },
    queueOptionId: { type: 'number', nullable: true },
    botAttempts: { type: 'number' },
    botActive: { type: 'boolean' },
  },
});

export const MessageSchema = new EntitySchema<Message>({
  name: 'Message',
  tableName: 'messages',
  properties: {
    id: { type: 'uuid', primary: true },
    companyId: { type: 'number' },
    ticketId: { type: 'number' },
    // Nullable in the table (a removed contact leaves its messages); the domain always sets it.
    contactId: { type: 'number', nullable: true },
    connectionId: { type: 'number' },
    providerMessageId: { type: 'string', nullable: true },
    fromMe: { type: 'boolean' },
    body: { type: 'text' },
    media: { type: 'json', nullable: true },
    status: { type: 'string' },
    failureReason: { type: 'text', nullable: true },
    quotedMessageId: { type: 'uuid', nullable: true },
    isPrivate: { type: 'boolean' },
    userId: { type: 'number', nullable: true },
    createdAt: { type: 'Date' },
    updatedAt: { type: 'Date' },
    isDeleted: { type: 'boolean' },
    isEdited: { type: 'boolean' },
    editedAt: { type: 'Date', nullable: true },
  },
});

/** An outbox row: the entry plus its delivery bookkeeping. `seq` (identity) is read only in SQL. */
export interface OutboxRow extends OutboxEntry {
  publishedAt: Date | null;
  attempts: number;
}

export const OutboxSchema = new EntitySchema<OutboxRow>({
  name: 'OutboxEntry',
  tableName: 'outbox',
  properties: {
    id: { type: 'uuid', primary: true },
    subject: { type: 'string' },
    payload: { type: 'json', nullable: true },
    createdAt: { type: 'Date' },
    publishedAt: { type: 'Date', nullable: true },
    attempts: { type: 'number' },
  },
});
