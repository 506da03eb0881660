import type { Page, PageRequest } from '../shared/paging.js';
import type { Chat, ChatMember, ChatMessage, NewChat, NewChatMessage } from './chat.js';

export interface ChatQuery {
  readonly companyId: number;
  /** Only the chats this user is a member of. */
  readonly memberId: number;
  /** In the title, ignoring case and accents. */
  readonly search?: string;
  readonly page: PageRequest;
}

/**
 * A company's internal chats and their members. Every method is scoped by `companyId`: another
 * company's chat is absent. Members are users of the chat's company (the use cases check the ids;
 * the adapters never link a user of another company).
 */
export interface Chats {
  findById(companyId: number, id: number): Promise<Chat | null>;
  findByUuid(companyId: number, uuid: string): Promise<Chat | null>;
  /** Adds the chat with its members, who start with nothing unread. */
  add(chat: NewChat, memberIds: readonly number[]): Promise<Chat>;
  /** Saves the title and `updatedAt`. */
  update(chat: Chat): Promise<void>;
  /**
   * Whether the chat is still there, for a message about to be written: inside a transaction the SQL
   * adapter share-locks its row until the commit, so a deletion waits for the message (or is seen).
   */
  holdForMessage(companyId: number, id: number): Promise<boolean>;
  /** Removes the chat with its members and messages; false when it was not there. */
  remove(companyId: number, id: number): Promise<boolean>;
  /**
   * Makes `memberIds` the members: those who stay keep their read mark, those who join start with
   * nothing unread (what was said before is there to read, not new to them).
   */
  setMembers(companyId: number, chatId: number, memberIds: readonly number[]): Promise<void>;
  isMember(companyId: number, chatId: number, userId: number): Promise<boolean>;
  /** A page of the member's chats, latest activity first (`updatedAt`, then id, descending). */
  page(query: ChatQuery): Promise<Page<Chat>>;
  /** The members of each chat with their names and unread counts, by user id; in one read. */
  members(companyId: number, chatIds: readonly number[]): Promise<Map<number, ChatMember[]>>;
  /**
   * After a message: `lastMessage` becomes `summary` and `updatedAt` `at`, unless a later message
   * (a higher id) is already summarised.
   */
  recordMessage(companyId: number, chatId: number, messageId: number, summary: string, at: Date): Promise<void>;
  /** The member has read everything up to the chat's latest message (a mark never moves back). */
  markRead(companyId: number, chatId: number, userId: number): Promise<void>;
}

/** The messages of the company's chats. */
export interface ChatMessages {
  add(message: NewChatMessage): Promise<ChatMessage>;
  /** A page of one chat's messages, newest first (by id). */
  page(companyId: number, chatId: number, page: PageRequest): Promise<Page<ChatMessage>>;
  /** The blob keys of the chat's files (removed with the chat). */
  mediaKeys(companyId: number, chatId: number): Promise<string[]>;
}
