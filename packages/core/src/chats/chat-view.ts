import type { BlobStorage } from '../shared/ports.js';
import { chatMediaType, type Chat, type ChatMember, type ChatMessage } from './chat.js';
import type { Chats } from './ports.js';

/** A user as a chat shows it. */
export interface ChatUserRef {
  readonly id: number;
  readonly name: string;
  readonly email: string;
}

/** One member, as the lineage client reads it (`users[].userId`, `unreads`, `user.name`). */
export interface ChatMemberView {
  readonly chatId: number;
  readonly userId: number;
  readonly unreads: number;
  readonly user: ChatUserRef;
}

/** A chat as `GET /chats` lists it and its events carry: with its owner and every member's unread count. */
export interface ChatView {
  readonly id: number;
  readonly uuid: string;
  readonly title: string;
  readonly ownerId: number | null;
  readonly lastMessage: string;
  readonly companyId: number;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly owner: ChatUserRef | null;
  readonly users: ChatMemberView[];
}

/** A message as `GET /chats/:id/messages` lists it (`senderId`, `sender.name`, `message`, and a file's `mediaPath`). */
export interface ChatMessageView {
  readonly id: number;
  readonly chatId: number;
  readonly companyId: number;
  readonly senderId: number | null;
  readonly message: string;
  /** The file's URL, null for a text. */
  readonly mediaPath: string | null;
  readonly mediaName: string | null;
  readonly mediaType: 'image' | 'audio' | 'video' | 'document' | null;
  readonly createdAt: string;
  readonly updatedAt: string;
  /** `{ id: null, name: '' }` once the sender's user was removed. */
  readonly sender: { readonly id: number | null; readonly name: string };
}

function memberView(m: ChatMember): ChatMemberView {
  return { chatId: m.chatId, userId: m.userId, unreads: m.unreads, user: { id: m.userId, name: m.name, email: m.email } };
}

export function toChatView(chat: Chat, members: readonly ChatMember[]): ChatView {
  const owner = members.find((m) => m.userId === chat.ownerId);
  return {
    id: chat.id,
    uuid: chat.uuid,
    title: chat.title,
    ownerId: chat.ownerId,
    lastMessage: chat.lastMessage,
    companyId: chat.companyId,
    createdAt: chat.createdAt.toISOString(),
    updatedAt: chat.updatedAt.toISOString(),
    owner: owner ? { id: owner.userId, name: owner.name, email: owner.email } : null,
    users: members.map(memberView),
  };
}

export function toChatMessageView(m: ChatMessage, blobs: Pick<BlobStorage, 'publicUrl'>): ChatMessageView {
  return {
    id: m.id,
    chatId: m.chatId,
    companyId: m.companyId,
    senderId: m.senderId,
    message: m.message,
    mediaPath: m.media ? blobs.publicUrl(m.media.key) : null,
    mediaName: m.media?.name ?? null,
    mediaType: chatMediaType(m.media),
    createdAt: m.createdAt.toISOString(),
    updatedAt: m.updatedAt.toISOString(),
    sender: { id: m.senderId, name: m.senderName ?? '' },
  };
}

/** Chats with their members, read in one query for a whole page. */
export class ChatPresenter {
  constructor(private readonly deps: { chats: Chats }) {}

  async views(companyId: number, chats: readonly Chat[]): Promise<ChatView[]> {
    const members = await this.deps.chats.members(
      companyId,
      chats.map((c) => c.id),
    );
    return chats.map((c) => toChatView(c, members.get(c.id) ?? []));
  }

  async view(companyId: number, chat: Chat): Promise<ChatView> {
    return (await this.views(companyId, [chat]))[0]!;
  }
}
