import type { InfiniteData, QueryClient } from '@tanstack/react-query';
import type { Schema } from '../api/client.js';

type Chat = Schema<'Chat'>;
type ChatMessage = Schema<'ChatMessage'>;
type ChatMessagePage = Schema<'ChatMessagePage'>;

/**
 * The internal chats' query keys: the chat lists, each chat and the nav badge under `chats` (any
 * chat frame refetches them), each chat's pages of messages under `chatMessages` (a new message is
 * appended, never refetched).
 */
export const chatKeys = {
  all: ['chats'] as const,
  list: (search: string) => ['chats', 'list', search] as const,
  one: (id: number) => ['chats', 'one', id] as const,
  unread: ['chats', 'unread'] as const,
  messages: (id: number) => ['chatMessages', id] as const,
};

/** Appends a message to the newest page of its chat's loaded messages, unless already there. */
export function appendChatMessage(client: QueryClient, message: ChatMessage): void {
  client.setQueryData<InfiniteData<ChatMessagePage>>(chatKeys.messages(message.chatId), (data) => {
    if (!data?.pages[0]) return data;
    if (data.pages.some((p) => p.records.some((m) => m.id === message.id))) return data;
    const [first, ...rest] = data.pages;
    return { ...data, pages: [{ ...first, records: [...first.records, message], count: first.count + 1 }, ...rest] };
  });
}

/**
 * The chat frames (sent to the members concerned only): `company-<id>-chat` (`new-message` with the
 * message and the chat, `update` after any member's read mark, so the writers see who read them,
 * `delete`) and `company-<id>-chat-user-<me>` (`create`, `update`: a chat one was added to or that
 * was edited). The server sends each chat
 * frame twice (also as `company-<id>-chat-<chatId>`, the lineage client's per-chat name): that copy
 * is ignored. `entity` is the event without its `company-<id>-`.
 */
export function applyChatFrame(client: QueryClient, entity: string, data: Record<string, unknown>): void {
  if (entity !== 'chat' && !entity.startsWith('chat-user-')) return;
  const chat = (data.chat ?? data.record) as Chat | undefined;
  if (data.action === 'new-message' && data.newMessage) appendChatMessage(client, data.newMessage as ChatMessage);
  if (chat) client.setQueryData(chatKeys.one(chat.id), chat);
  if (data.action === 'delete' && typeof data.id === 'number') client.removeQueries({ queryKey: chatKeys.messages(data.id) });
  void client.invalidateQueries({ queryKey: chatKeys.all });
}
