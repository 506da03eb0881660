import type { RealtimeEventOf } from '../realtime/ports.js';
import type { ChatMessageView, ChatView } from './chat-view.js';

/** Who receives a chat event: members only, never the whole company (user ids). */
interface Addressed {
  readonly to: readonly number[];
}

/**
 * `company-<id>-chat`, and with `key` (the chat's id) `company-<id>-chat-<chatId>`, the names the
 * lineage client listens to: a message was sent (`new-message`, with the chat as it is now), the
 * chat changed for its members (`update`, after a member's read mark), or it is gone for the receivers
 * (`delete`: deleted, or they were removed from it). Sent to the members concerned only.
 */
export type ChatEvent = RealtimeEventOf<
  'chat',
  | { readonly action: 'new-message'; readonly newMessage: ChatMessageView; readonly chat: ChatView }
  | { readonly action: 'update'; readonly chat: ChatView }
  | { readonly action: 'delete'; readonly id: number }
> &
  Addressed & { readonly key?: number };

/**
 * `company-<id>-chat-user-<userId>` (`key`: the member's user id): a chat the user was added to
 * (`create`, on creation or an edit that adds them) or one of theirs that was edited (`update`).
 * Sent to that user only.
 */
export type ChatUserEvent = RealtimeEventOf<
  'chat-user',
  { readonly action: 'create'; readonly record: ChatView } | { readonly action: 'update'; readonly record: ChatView }
> &
  Addressed & { readonly key: number };

export type ChatEvents = ChatEvent | ChatUserEvent;
