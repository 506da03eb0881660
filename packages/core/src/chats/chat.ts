import { ValidationError } from '../shared/errors.js';

/**
 * An internal chat: a conversation between operators of one company (the lineage's "Chat
 * Interno"). Its members are users of the company; the owner (who created it) is always one of
 * them and is the only one who may rename it, change its members or delete it. The owner's
 * removal as a user leaves the chat to the others, with no owner (`ownerId` null).
 */
export interface Chat {
  id: number;
  companyId: number;
  /** Names the chat in the client's address (`/chats/<uuid>`). */
  uuid: string;
  title: string;
  ownerId: number | null;
  /** `<sender name>: <text>` of the latest message, `""` before the first (the lineage's summary). */
  lastMessage: string;
  /** The latest message summarised in `lastMessage`; a slower writer never replaces a later summary. */
  lastMessageId: number | null;
  createdAt: Date;
  /** The latest activity: creation, an edit, or the latest message. Chats list newest activity first. */
  updatedAt: Date;
}

export type NewChat = Omit<Chat, 'id'>;

/**
 * A member as read: the user's name, and how many messages of the others arrived after the last
 * one the member read (their own messages never count).
 */
export interface ChatMember {
  readonly chatId: number;
  readonly userId: number;
  readonly name: string;
  readonly email: string;
  readonly unreads: number;
}

/** A file sent in a chat, stored in blob storage under `key` (served at its public URL). */
export interface ChatMedia {
  readonly key: string;
  /** The name the file was sent with. */
  readonly name: string;
  /** The type it is stored and served with (inline types only; anything else is a download). */
  readonly contentType: string;
  readonly size: number;
}

export interface ChatMessage {
  id: number;
  companyId: number;
  chatId: number;
  /** Null once the sender's user was removed. */
  senderId: number | null;
  /** The sender's current name (read with the message); null once the user was removed. */
  senderName: string | null;
  message: string;
  media: ChatMedia | null;
  createdAt: Date;
  updatedAt: Date;
}

export type NewChatMessage = Omit<ChatMessage, 'id' | 'senderName'>;

export const MAX_CHAT_TITLE = 255;
/** Members of one chat, the owner included. */
export const MAX_CHAT_MEMBERS = 500;
export const MAX_CHAT_MESSAGE_LENGTH = 10_000;
export const MAX_CHAT_MEDIA_BYTES = 16 * 1024 * 1024;
/** Files one request may send (each becomes a message). */
export const MAX_CHAT_FILES = 10;
/** How much of a message `lastMessage` keeps. */
const SUMMARY_LENGTH = 255;

/** A title, trimmed: 1 to 255 characters (422 `ERR_CHAT_INVALID_TITLE`). */
export function cleanChatTitle(title: string): string {
  const clean = title.trim();
  if (!clean || clean.length > MAX_CHAT_TITLE) throw new ValidationError('ERR_CHAT_INVALID_TITLE');
  return clean;
}

/** The owner first, then the others once each; more than `MAX_CHAT_MEMBERS` is 422 `ERR_TOO_MANY_CHAT_MEMBERS`. */
export function memberIdsWith(ownerId: number, userIds: readonly number[]): number[] {
  const ids = [...new Set([ownerId, ...userIds])];
  if (ids.length > MAX_CHAT_MEMBERS) throw new ValidationError('ERR_TOO_MANY_CHAT_MEMBERS');
  return ids;
}

/** A message's text as stored: up to 10,000 characters (422 `ERR_CHAT_MESSAGE_TOO_LONG`), surrounding blanks removed. */
export function cleanChatText(text: string | undefined): string {
  const clean = (text ?? '').trim();
  if (clean.length > MAX_CHAT_MESSAGE_LENGTH) throw new ValidationError('ERR_CHAT_MESSAGE_TOO_LONG');
  return clean;
}

/** `lastMessage` after a message: `<sender name>: <text>` (the file's name for a file without text), cut to 255 characters. */
export function summaryOf(senderName: string, message: ChatMessage | NewChatMessage): string {
  const text = message.message || message.media?.name || '';
  return `${senderName}: ${text}`.replace(/\s+/g, ' ').slice(0, SUMMARY_LENGTH);
}

/** How a client shows a file: `image`, `audio`, `video`, or `document` for anything else; null for a text. */
export function chatMediaType(media: ChatMedia | null): 'image' | 'audio' | 'video' | 'document' | null {
  if (!media) return null;
  const major = media.contentType.split('/')[0]?.toLowerCase();
  return major === 'image' || major === 'audio' || major === 'video' ? major : 'document';
}
