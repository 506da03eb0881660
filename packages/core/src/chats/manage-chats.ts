import type { Users } from '../identity/ports.js';
import type { RealtimeEvents } from '../realtime/ports.js';
import type { Actor } from '../shared/actor.js';
import { hasMore, pageFromNumber } from '../shared/paging.js';
import type { BlobStorage, Clock, IdGenerator, Transaction } from '../shared/ports.js';
import { assertChatAccess, assertCompanyUsers, assertOwner, memberChat, type ChatPlan } from './chat-access.js';
import type { ChatEvents } from './chat-events.js';
import type { ChatPresenter, ChatView } from './chat-view.js';
import { cleanChatTitle, memberIdsWith } from './chat.js';
import type { ChatMessages, Chats } from './ports.js';

interface ReadDeps {
  chats: Chats;
  presenter: ChatPresenter;
  plan: ChatPlan;
}
interface WriteDeps extends ReadDeps {
  users: Users;
  tx: Transaction;
  clock: Clock;
  realtime: RealtimeEvents<ChatEvents>;
}

/** `GET /chats`: a page (20) of the caller's chats, latest activity first, `searchParam` in the title, as `{records, count, hasMore}`. */
export class ListChats {
  constructor(private readonly deps: ReadDeps) {}

  async execute(input: { readonly actor: Actor; readonly searchParam?: string; readonly pageNumber?: number }) {
    const { chats, presenter, plan } = this.deps;
    await assertChatAccess(plan, input.actor);
    const { companyId, userId } = input.actor;
    const page = pageFromNumber(input.pageNumber);
    const found = await chats.page({ companyId, memberId: userId, page, ...(input.searchParam?.trim() ? { search: input.searchParam } : {}) });
    return { records: await presenter.views(companyId, found.rows), count: found.count, hasMore: hasMore(page, found.count) };
  }
}

/** `GET /chats/:id`: one of the caller's chats, by id or by uuid (the client's address names the uuid). */
export class ShowChat {
  constructor(private readonly deps: ReadDeps) {}

  async execute(input: { readonly actor: Actor; readonly chat: number | string }): Promise<ChatView> {
    const chat = await memberChat(this.deps, input.actor, input.chat);
    return this.deps.presenter.view(input.actor.companyId, chat);
  }
}

/**
 * `POST /chats`: the caller creates a chat and owns it; the members are the caller and `userIds`
 * (users of the company). Each member is told on `chat-user-<their id>` (`create`).
 */
export class CreateChat {
  constructor(private readonly deps: WriteDeps & { ids: IdGenerator }) {}

  async execute(input: { readonly actor: Actor; readonly title: string; readonly userIds: readonly number[] }): Promise<ChatView> {
    const { chats, presenter, plan, users, tx, clock, ids, realtime } = this.deps;
    await assertChatAccess(plan, input.actor);
    const { companyId, userId } = input.actor;
    const title = cleanChatTitle(input.title);
    const memberIds = memberIdsWith(userId, input.userIds);
    await assertCompanyUsers(users, companyId, memberIds);
    const now = clock.now();
    const chat = await tx.run(() =>
      chats.add(
        {
          companyId,
          uuid: ids.uuid(),
          title,
          ownerId: userId,
          lastMessage: '',
          lastMessageId: null,
          createdAt: now,
          updatedAt: now,
        },
        memberIds,
      ),
    );
    const view = await presenter.view(companyId, chat);
    for (const member of memberIds) {
      await realtime.publish(companyId, { entity: 'chat-user', key: member, to: [member], data: { action: 'create', record: view } });
    }
    return view;
  }
}

/**
 * `PUT /chats/:id`: the owner renames the chat and/or replaces its members (the owner always stays).
 * Members who stay get `update` on their `chat-user-<id>`, those who join `create`; those removed
 * get `chat` `delete` (the chat is gone for them).
 */
export class UpdateChat {
  constructor(private readonly deps: WriteDeps) {}

  async execute(input: { readonly actor: Actor; readonly chatId: number; readonly title?: string; readonly userIds?: readonly number[] }): Promise<ChatView> {
    const { chats, presenter, users, tx, clock, realtime } = this.deps;
    const chat = await memberChat(this.deps, input.actor, input.chatId);
    assertOwner(input.actor, chat);
    const { companyId, userId } = input.actor;
    const title = input.title === undefined ? chat.title : cleanChatTitle(input.title);
    const memberIds = input.userIds === undefined ? undefined : memberIdsWith(userId, input.userIds);
    if (memberIds) await assertCompanyUsers(users, companyId, memberIds);
    const before = ((await chats.members(companyId, [chat.id])).get(chat.id) ?? []).map((m) => m.userId);
    const next = { ...chat, title, updatedAt: clock.now() };
    await tx.run(async () => {
      await chats.update(next);
      if (memberIds) await chats.setMembers(companyId, chat.id, memberIds);
    });
    const view = await presenter.view(companyId, next);
    for (const member of view.users.map((u) => u.userId)) {
      const action = before.includes(member) ? 'update' : 'create';
      await realtime.publish(companyId, { entity: 'chat-user', key: member, to: [member], data: { action, record: view } });
    }
    const removed = before.filter((id) => !view.users.some((u) => u.userId === id));
    if (removed.length) await realtime.publish(companyId, { entity: 'chat', to: removed, data: { action: 'delete', id: chat.id } });
    return view;
  }
}

/** `DELETE /chats/:id`: the owner deletes the chat with its messages and files; its members get `chat` `delete`. */
export class DeleteChat {
  constructor(private readonly deps: { chats: Chats; messages: ChatMessages; plan: ChatPlan; blobs: BlobStorage; realtime: RealtimeEvents<ChatEvents> }) {}

  async execute(input: { readonly actor: Actor; readonly chatId: number }): Promise<void> {
    const { chats, messages, blobs, realtime } = this.deps;
    const chat = await memberChat(this.deps, input.actor, input.chatId);
    assertOwner(input.actor, chat);
    const { companyId } = input.actor;
    const members = ((await chats.members(companyId, [chat.id])).get(chat.id) ?? []).map((m) => m.userId);
    const files = await messages.mediaKeys(companyId, chat.id);
    await chats.remove(companyId, chat.id);
    await realtime.publish(companyId, { entity: 'chat', to: members, data: { action: 'delete', id: chat.id } });
    // Only once the rows are gone: a failed delete leaves an orphan file, never a message without its file.
    for (const key of files) await blobs.delete(key).catch(() => undefined);
  }
}
