import { raw, type MikroORM } from '@mikro-orm/core';
import type { Page, PageRequest } from '@servicedesk/core';
import type { Chat, ChatMember, ChatMessage, NewChat, NewChatMessage } from '@servicedesk/core/chats/chat';
import type { ChatMessages, ChatQuery, Chats } from '@servicedesk/core/chats/ports';
import { MikroOrmRepository } from '../shared/context.js';
import { searchWhere } from '../shared/search.js';
import { marks } from '../shared/sql.js';
import { ChatMessageSchema, ChatSchema } from './schema.js';

const READ = { disableIdentityMap: true } as const;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** The id of the chat's latest message, 0 when it has none (`c` is the chat's alias). */
const LATEST = 'coalesce((select max(m.id) from chat_messages m where m.chat_id = c.id), 0)';

export class MikroOrmChats extends MikroOrmRepository implements Chats {
  async findById(companyId: number, id: number) {
    return this.em.findOne(ChatSchema, { id, companyId }, READ);
  }
  async findByUuid(companyId: number, uuid: string) {
    if (!UUID.test(uuid)) return null;
    return this.em.findOne(ChatSchema, { uuid: uuid.toLowerCase(), companyId }, READ);
  }
  async add(chat: NewChat, memberIds: readonly number[]): Promise<Chat> {
    const id = (await this.em.insert(ChatSchema, { ...chat } as Chat)) as number;
    await this.join(chat.companyId, id, memberIds);
    return { ...chat, id };
  }
  async update(chat: Chat) {
    await this.em.nativeUpdate(ChatSchema, { id: chat.id, companyId: chat.companyId }, { title: chat.title, updatedAt: chat.updatedAt });
  }
  async holdForMessage(companyId: number, id: number) {
    return (await this.em.execute('select 1 from chats where id = ? and company_id = ? for share', [id, companyId])).length > 0;
  }
  async remove(companyId: number, id: number) {
    return (await this.em.nativeDelete(ChatSchema, { id, companyId })) > 0;
  }
  async setMembers(companyId: number, chatId: number, memberIds: readonly number[]) {
    await this.em.execute(
      `delete from chat_members where chat_id = ? and company_id = ?${memberIds.length ? ` and user_id not in (${marks(memberIds.length)})` : ''}`,
      [chatId, companyId, ...memberIds],
    );
    await this.join(companyId, chatId, memberIds);
  }
  /** Adds the users of the chat's company among `userIds` who are not members yet, with nothing unread. */
  private async join(companyId: number, chatId: number, userIds: readonly number[]) {
    if (!userIds.length) return;
    await this.em.execute(
      `insert into chat_members (chat_id, user_id, company_id, last_read_message_id)
       select c.id, u.id, c.company_id, ${LATEST} from chats c join users u on u.company_id = c.company_id
       where c.id = ? and c.company_id = ? and u.id in (${marks(userIds.length)})
       on conflict do nothing`,
      [chatId, companyId, ...userIds],
    );
  }
  async isMember(companyId: number, chatId: number, userId: number) {
    const rows = await this.em.execute<unknown[]>('select 1 from chat_members where company_id = ? and chat_id = ? and user_id = ?', [
      companyId,
      chatId,
      userId,
    ]);
    return rows.length > 0;
  }
  async page(q: ChatQuery): Promise<Page<Chat>> {
    const member = raw((a: string) => `exists (select 1 from chat_members cm where cm.chat_id = ${a}.id and cm.user_id = ?)`, [q.memberId]);
    const [rows, count] = await this.em.findAndCount(
      ChatSchema,
      { companyId: q.companyId, [member]: [], ...searchWhere(['title'], q.search) },
      {
        ...READ,
        orderBy: [{ updatedAt: 'desc' }, { id: 'desc' }],
        offset: q.page.offset,
        limit: q.page.limit,
      },
    );
    return { rows, count };
  }
  async members(companyId: number, chatIds: readonly number[]) {
    const found = new Map<number, ChatMember[]>();
    if (!chatIds.length) return found;
    // The others' messages after the member's mark; `is distinct from`: a removed sender's messages count too.
    const rows = await this.em.execute<Array<{ chat_id: number; user_id: number; name: string; email: string; unreads: number | string }>>(
      `select cm.chat_id, cm.user_id, u.name, u.email,
         (select count(*) from chat_messages m
          where m.chat_id = cm.chat_id and m.id > cm.last_read_message_id and m.sender_id is distinct from cm.user_id) as unreads
       from chat_members cm join users u on u.id = cm.user_id
       where cm.company_id = ? and cm.chat_id in (${marks(chatIds.length)}) order by cm.chat_id, cm.user_id`,
      [companyId, ...chatIds],
    );
    for (const r of rows) {
      const chatId = Number(r.chat_id);
      const member = { chatId, userId: Number(r.user_id), name: r.name, email: r.email, unreads: Number(r.unreads) };
      found.set(chatId, [...(found.get(chatId) ?? []), member]);
    }
    return found;
  }
  async recordMessage(companyId: number, chatId: number, messageId: number, summary: string, at: Date) {
    await this.em.execute(
      'update chats set last_message = ?, last_message_id = ?, updated_at = ? where id = ? and company_id = ? and coalesce(last_message_id, 0) < ?',
      [summary, messageId, at, chatId, companyId, messageId],
    );
  }
  async markRead(companyId: number, chatId: number, userId: number) {
    await this.em.execute(
      `update chat_members cm set last_read_message_id = greatest(cm.last_read_message_id, ${LATEST})
       from chats c where c.id = cm.chat_id and cm.chat_id = ? and cm.user_id = ? and cm.company_id = ?`,
      [chatId, userId, companyId],
    );
  }
}

type StoredMessage = Omit<ChatMessage, 'senderName'>;

export class MikroOrmChatMessages extends MikroOrmRepository implements ChatMessages {
  async add(message: NewChatMessage): Promise<ChatMessage> {
    const id = (await this.em.insert(ChatMessageSchema, { ...message } as StoredMessage)) as number;
    return (await this.named([{ ...message, id }]))[0]!;
  }
  async page(companyId: number, chatId: number, page: PageRequest): Promise<Page<ChatMessage>> {
    const [rows, count] = await this.em.findAndCount(
      ChatMessageSchema,
      { companyId, chatId },
      {
        ...READ,
        orderBy: { id: 'desc' },
        offset: page.offset,
        limit: page.limit,
      },
    );
    return { rows: await this.named(rows), count };
  }
  async mediaKeys(companyId: number, chatId: number) {
    const rows = await this.em.execute<Array<{ key: string }>>(
      `select media->>'key' as key from chat_messages where company_id = ? and chat_id = ? and media is not null order by id`,
      [companyId, chatId],
    );
    return rows.map((r) => r.key);
  }
  /** The messages with their senders' current names, read in one query. */
  private async named(messages: readonly StoredMessage[]): Promise<ChatMessage[]> {
    const ids = [...new Set(messages.map((m) => m.senderId).filter((id): id is number => id !== null))];
    const names = new Map<number, string>();
    if (ids.length) {
      const rows = await this.em.execute<Array<{ id: number; name: string }>>(`select id, name from users where id in (${marks(ids.length)})`, ids);
      for (const r of rows) names.set(Number(r.id), r.name);
    }
    return messages.map((m) => ({ ...m, senderName: m.senderId === null ? null : (names.get(m.senderId) ?? null) }));
  }
}

export const chatsRepositories = (orm: MikroORM) => ({ chats: new MikroOrmChats(orm), chatMessages: new MikroOrmChatMessages(orm) });
