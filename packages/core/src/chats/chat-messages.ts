import type { Users } from '../identity/ports.js';
import type { Actor } from '../shared/actor.js';
import { NotFoundError, PayloadTooLargeError, ValidationError } from '../shared/errors.js';
import { hasMore, pageFromNumber } from '../shared/paging.js';
import type { BlobStorage, Clock, Transaction } from '../shared/ports.js';
import { uploadSize, type UploadedFile } from '../uploads/image-upload.js';
import { memberChat, type ChatPlan } from './chat-access.js';
import type { ChatAnnouncer } from './chat-announcer.js';
import type { ChatMediaStore } from './chat-media-store.js';
import { toChatMessageView, type ChatMessageView, type ChatView } from './chat-view.js';
import { cleanChatText, MAX_CHAT_FILES, MAX_CHAT_MEDIA_BYTES, summaryOf, type ChatMedia, type ChatMessage } from './chat.js';
import type { ChatMessages, Chats } from './ports.js';

/**
 * `GET /chats/:id/messages`: a page (20) of a chat's messages, the newest page first, each page in
 * the order they were sent (the client prepends older pages), as `{records, count, hasMore}`.
 */
export class ListChatMessages {
  constructor(private readonly deps: { chats: Chats; messages: ChatMessages; plan: ChatPlan; blobs: BlobStorage }) {}

  async execute(input: { readonly actor: Actor; readonly chatId: number; readonly pageNumber?: number }) {
    const chat = await memberChat(this.deps, input.actor, input.chatId);
    const page = pageFromNumber(input.pageNumber);
    const found = await this.deps.messages.page(input.actor.companyId, chat.id, page);
    const records = found.rows.reverse().map((m) => toChatMessageView(m, this.deps.blobs));
    return { records, count: found.count, hasMore: hasMore(page, found.count) };
  }
}

interface SendDeps {
  chats: Chats;
  messages: ChatMessages;
  users: Users;
  /** Tells the members of the new messages. */
  announcer: ChatAnnouncer;
  plan: ChatPlan;
  /** Keeps the messages' files. */
  media: ChatMediaStore;
  tx: Transaction;
  clock: Clock;
}

/** Checks the files of one send (up to 10, none empty, each up to 16 MB). */
function checkFiles(files: readonly UploadedFile[]): void {
  if (files.length > MAX_CHAT_FILES) throw new PayloadTooLargeError('ERR_TOO_MANY_FILES');
  for (const file of files) {
    if (uploadSize(file) === 0) throw new ValidationError('ERR_EMPTY_FILE');
    if (uploadSize(file) > MAX_CHAT_MEDIA_BYTES) throw new PayloadTooLargeError('ERR_FILE_TOO_LARGE');
  }
}

/**
 * `POST /chats/:id/messages`: a member writes in a chat, a text, files (`medias`), or both. Each
 * file is a message of its own: the first carries the text as its caption, the others (and a
 * file sent without text) their file's name; a text without files is one message. The sender has
 * then read the chat; every other member has one more unread per message. Members get
 * `chat-<chatId>` and `chat` (`new-message`) per message. Answers the last message.
 */
export class SendChatMessage {
  constructor(private readonly deps: SendDeps) {}

  async execute(input: {
    readonly actor: Actor;
    readonly chatId: number;
    readonly message?: string;
    readonly files?: readonly UploadedFile[];
  }): Promise<ChatMessageView> {
    const { chats, messages, users, announcer, tx, clock } = this.deps;
    const chat = await memberChat(this.deps, input.actor, input.chatId);
    const { companyId, userId } = input.actor;
    const text = cleanChatText(input.message);
    const files = input.files ?? [];
    if (!text && !files.length) throw new ValidationError('ERR_CHAT_MESSAGE_EMPTY');
    checkFiles(files);
    const sender = (await users.findById(companyId, userId))?.name ?? '';
    const media: ChatMedia[] = [];
    let sent: ChatMessage[];
    try {
      for (const file of files) media.push(await this.deps.media.put(companyId, chat.id, file));
      const drafts = media.length ? media.map((m, i) => ({ message: i === 0 && text ? text : m.name, media: m })) : [{ message: text, media: null }];
      sent = await tx.run(async () => {
        // Deleted meanwhile: 404, not a refused insert.
        if (!(await chats.holdForMessage(companyId, chat.id))) throw new NotFoundError('ERR_NO_CHAT_FOUND');
        const added: ChatMessage[] = [];
        for (const draft of drafts) {
          const now = clock.now();
          const m = await messages.add({ companyId, chatId: chat.id, senderId: userId, ...draft, createdAt: now, updatedAt: now });
          await chats.recordMessage(companyId, chat.id, m.id, summaryOf(sender, m), now);
          added.push(m);
        }
        await chats.markRead(companyId, chat.id, userId);
        return added;
      });
    } catch (err) {
      // The files of a send that did not happen are not kept; once committed, the messages own them.
      await this.deps.media.discard(media);
      throw err;
    }
    const view = await announcer.view(companyId, (await chats.findById(companyId, chat.id)) ?? chat);
    const views = sent.map((m) => this.deps.media.view(m));
    for (const newMessage of views) await announcer.toMembers(companyId, chat.id, view, { action: 'new-message', newMessage, chat: view });
    return views[views.length - 1]!;
  }
}

/**
 * `POST /chats/:id/read`: the caller (from the token, whatever the body says) has read the chat up
 * to its latest message; no other member's count changes. Every member gets `chat-<chatId>` and
 * `chat` (`update`) with the chat: the reader's count is gone, and the writers see who read them
 * (the members' counts are what each member already reads with `GET /chats`).
 */
export class MarkChatRead {
  constructor(private readonly deps: { chats: Chats; announcer: ChatAnnouncer; plan: ChatPlan }) {}

  async execute(input: { readonly actor: Actor; readonly chatId: number }): Promise<ChatView> {
    const { chats, announcer } = this.deps;
    const chat = await memberChat(this.deps, input.actor, input.chatId);
    const { companyId, userId } = input.actor;
    await chats.markRead(companyId, chat.id, userId);
    const view = await announcer.view(companyId, chat);
    await announcer.toMembers(companyId, chat.id, view, { action: 'update', chat: view });
    return view;
  }
}
