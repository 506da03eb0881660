import { ChatAnnouncer } from '../chats/chat-announcer.js';
import { ChatMediaStore } from '../chats/chat-media-store.js';
import { ListChatMessages, MarkChatRead, SendChatMessage } from '../chats/chat-messages.js';
import { ChatPresenter } from '../chats/chat-view.js';
import { CreateChat, DeleteChat, ListChats, ShowChat, UpdateChat } from '../chats/manage-chats.js';
import type { ChatMessages, Chats } from '../chats/ports.js';
import { PlanGuard } from '../tenancy/plan-guard.js';
import type { SharedPorts } from './shared-ports.js';

/** The internal chats' own ports. */
export interface ChatPorts {
  readonly chats: Chats;
  readonly chatMessages: ChatMessages;
}

/** Internal chats between a company's operators: the chats, their members, messages (text and files) and read marks. */
export function createChats(p: ChatPorts & SharedPorts) {
  const { chats, chatMessages: messages, users, blobs, realtime, tx, clock, ids } = p;
  const plan = new PlanGuard({ companies: p.companies, plans: p.plans });
  const presenter = new ChatPresenter({ chats });
  const announcer = new ChatAnnouncer({ presenter, realtime });
  const reads = { chats, presenter, plan };
  const writes = { ...reads, users, tx, clock, realtime };
  return {
    listChats: new ListChats(reads),
    showChat: new ShowChat(reads),
    createChat: new CreateChat({ ...writes, ids }),
    updateChat: new UpdateChat(writes),
    deleteChat: new DeleteChat({ chats, messages, plan, blobs, realtime }),
    listChatMessages: new ListChatMessages({ chats, messages, plan, blobs }),
    sendChatMessage: new SendChatMessage({ chats, messages, users, announcer, plan, media: new ChatMediaStore({ blobs, ids }), tx, clock }),
    markChatRead: new MarkChatRead({ chats, announcer, plan }),
  };
}
export type ChatsApi = ReturnType<typeof createChats>;
