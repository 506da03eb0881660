import { EntitySchema } from '@mikro-orm/core';
import type { Chat } from '@servicedesk/core/chats/chat';
import type { ChatMessage } from '@servicedesk/core/chats/chat';
import { foreignKeysOf } from '../shared/columns.js';

const chats = foreignKeysOf('chats');

/** As m0019 creates `chats`. */
export const ChatSchema = new EntitySchema<Chat>({
  name: 'Chat',
  tableName: 'chats',
  properties: {
    id: { type: 'number', primary: true, autoincrement: true },
    companyId: chats('company_id', 'Company', 'cascade'),
    uuid: { type: 'uuid', unique: 'chats_uuid_key' },
    title: { type: 'string', length: 255 },
    ownerId: chats('owner_id', 'User', 'set null', { nullable: true }),
    lastMessage: { type: 'text', default: '' },
    lastMessageId: { type: 'number', nullable: true },
    createdAt: { type: 'Date' },
    updatedAt: { type: 'Date' },
  },
  indexes: [
    { name: 'chats_company_id_updated_at_idx', properties: ['companyId', 'updatedAt'] },
    { name: 'chats_owner_id_idx', properties: ['ownerId'] },
  ],
});

/** A row of `chat_members`: read and written with SQL (see MikroOrmChats). */
export interface ChatMemberRow {
  chatId: number;
  userId: number;
  companyId: number;
  lastReadMessageId: number;
}

const members = foreignKeysOf('chat_members');

/** As m0019 creates `chat_members`; described so that the schema drift test sees the whole table. */
export const ChatMemberSchema = new EntitySchema<ChatMemberRow>({
  name: 'ChatMember',
  tableName: 'chat_members',
  properties: {
    chatId: members('chat_id', 'Chat', 'cascade', { primary: true }),
    userId: members('user_id', 'User', 'cascade', { primary: true }),
    companyId: members('company_id', 'Company', 'cascade'),
    lastReadMessageId: { type: 'number', default: 0 },
  },
  indexes: [
    { name: 'chat_members_user_id_idx', properties: ['userId'] },
    { name: 'chat_members_company_id_idx', properties: ['companyId'] },
  ],
});

type ChatMessageRow = Omit<ChatMessage, 'senderName'>;
const messages = foreignKeysOf('chat_messages');

/** As m0019 creates `chat_messages`. The sender's name is read from `users` (see MikroOrmChatMessages). */
export const ChatMessageSchema = new EntitySchema<ChatMessageRow>({
  name: 'ChatMessage',
  tableName: 'chat_messages',
  properties: {
    id: { type: 'number', primary: true, autoincrement: true },
    companyId: messages('company_id', 'Company', 'cascade'),
    chatId: messages('chat_id', 'Chat', 'cascade'),
    senderId: messages('sender_id', 'User', 'set null', { nullable: true }),
    message: { type: 'text', default: '' },
    media: { type: 'json', nullable: true },
    createdAt: { type: 'Date' },
    updatedAt: { type: 'Date' },
  },
  indexes: [
    { name: 'chat_messages_chat_id_id_idx', properties: ['chatId', 'id'] },
    { name: 'chat_messages_company_id_idx', properties: ['companyId'] },
    { name: 'chat_messages_sender_id_idx', properties: ['senderId'] },
  ],
});

export const CHAT_SCHEMAS = [ChatSchema, ChatMemberSchema, ChatMessageSchema];
