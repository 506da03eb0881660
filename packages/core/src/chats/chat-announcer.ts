import type { RealtimeEvents } from '../realtime/ports.js';
import type { ChatEvents } from './chat-events.js';
import type { Chat } from './chat.js';
import type { ChatMessageView, ChatPresenter, ChatView } from './chat-view.js';

/** What a chat's members are told of it: a new message in it, or its update. */
export type ChatNews =
  | { readonly action: 'new-message'; readonly newMessage: ChatMessageView; readonly chat: ChatView }
  | { readonly action: 'update'; readonly chat: ChatView };

/**
 * Tells a chat's members what happened in it, each frame twice: in the chat's own room
 * (`chat-<chatId>`) and in their list of chats (`chat`). Built once in the composition.
 */
export class ChatAnnouncer {
  constructor(private readonly deps: { presenter: ChatPresenter; realtime: RealtimeEvents<ChatEvents> }) {}

  /** The chat as its members see it now (with its members). */
  view(companyId: number, chat: Chat): Promise<ChatView> {
    return this.deps.presenter.view(companyId, chat);
  }

  /** Sends `news` of the chat `chatId` to the members of `view`. */
  async toMembers(companyId: number, chatId: number, view: ChatView, news: ChatNews): Promise<void> {
    const members = view.users.map((u) => u.userId);
    await this.deps.realtime.publish(companyId, { entity: 'chat', key: chatId, to: members, data: news });
    await this.deps.realtime.publish(companyId, { entity: 'chat', to: members, data: news });
  }
}
