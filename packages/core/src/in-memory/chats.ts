import type { Users } from '../identity/ports.js';
import { InMemoryTable, slice } from './table.js';
import type { PageRequest } from '../shared/paging.js';
import { foldForSearch } from '../shared/text.js';
import type { Chat, ChatMember, ChatMessage, NewChat, NewChatMessage } from '../chats/chat.js';
import type { ChatMessages, ChatQuery, Chats } from '../chats/ports.js';

type StoredMessage = Omit<ChatMessage, 'senderName'>;
/** A member's row: the id of the last message they read (0: none), as the table keeps it. */
interface MemberRow {
  chatId: number;
  userId: number;
  companyId: number;
  lastReadMessageId: number;
}

/** The messages of every chat; the sender's name is read from the users, as the SQL adapter joins it. */
export class InMemoryChatMessages implements ChatMessages {
  readonly table = new InMemoryTable<StoredMessage>();

  constructor(private readonly users: Pick<Users, 'findById'>) {}

  private async read(m: StoredMessage): Promise<ChatMessage> {
    const sender = m.senderId === null ? null : await this.users.findById(m.companyId, m.senderId);
    return { ...m, senderName: sender?.name ?? null };
  }

  async add(message: NewChatMessage) {
    return this.read(this.table.insert(message));
  }
  async page(companyId: number, chatId: number, page: PageRequest) {
    const rows = this.table.filter((m) => m.companyId === companyId && m.chatId === chatId).sort((a, b) => b.id - a.id);
    const found = slice(rows, page);
    return { rows: await Promise.all(found.rows.map((m) => this.read(m))), count: found.count };
  }
  async mediaKeys(companyId: number, chatId: number) {
    return this.table.filter((m) => m.companyId === companyId && m.chatId === chatId && m.media !== null).map((m) => m.media!.key);
  }

  /** The id of the chat's latest message, 0 when it has none. */
  latestId(chatId: number): number {
    return Math.max(0, ...this.table.filter((m) => m.chatId === chatId).map((m) => m.id));
  }

  dropChat(chatId: number): void {
    for (const m of this.table.filter((row) => row.chatId === chatId)) this.table.delete(m.id);
  }
}

/** Chats and their members; a member whose user is gone is left out, as the SQL adapter's cascade removes it. */
export class InMemoryChats implements Chats {
  readonly table = new InMemoryTable<Chat>();
  private memberRows: MemberRow[] = [];

  constructor(
    private readonly users: Pick<Users, 'findById'>,
    private readonly messages: InMemoryChatMessages,
  ) {}

  async findById(companyId: number, id: number) {
    const c = this.table.get(id);
    return c?.companyId === companyId ? c : null;
  }
  async findByUuid(companyId: number, uuid: string) {
    return this.table.find((c) => c.companyId === companyId && c.uuid === uuid);
  }
  async holdForMessage(companyId: number, id: number) {
    return (await this.findById(companyId, id)) !== null;
  }
  async add(chat: NewChat, memberIds: readonly number[]) {
    const stored = this.table.insert(chat);
    for (const userId of new Set(memberIds)) this.memberRows.push({ chatId: stored.id, userId, companyId: chat.companyId, lastReadMessageId: 0 });
    return stored;
  }
  async update(chat: Chat) {
    const stored = this.table.get(chat.id);
    if (stored?.companyId === chat.companyId) this.table.replace({ ...stored, title: chat.title, updatedAt: chat.updatedAt });
  }
  async remove(companyId: number, id: number) {
    if (!(await this.findById(companyId, id))) return false;
    this.table.delete(id);
    this.memberRows = this.memberRows.filter((r) => r.chatId !== id);
    this.messages.dropChat(id);
    return true;
  }
  async setMembers(companyId: number, chatId: number, memberIds: readonly number[]) {
    if (!(await this.findById(companyId, chatId))) return;
    const wanted = new Set(memberIds);
    this.memberRows = this.memberRows.filter((r) => r.chatId !== chatId || wanted.has(r.userId));
    const latest = this.messages.latestId(chatId);
    for (const userId of wanted) {
      if (!this.memberRows.some((r) => r.chatId === chatId && r.userId === userId))
        this.memberRows.push({ chatId, userId, companyId, lastReadMessageId: latest });
    }
  }
  async isMember(companyId: number, chatId: number, userId: number) {
    return this.memberRows.some((r) => r.companyId === companyId && r.chatId === chatId && r.userId === userId);
  }
  async page(q: ChatQuery) {
    const term = q.search?.trim() ? foldForSearch(q.search) : '';
    const mine = new Set(this.memberRows.filter((r) => r.companyId === q.companyId && r.userId === q.memberId).map((r) => r.chatId));
    const rows = this.table.filter((c) => c.companyId === q.companyId && mine.has(c.id) && (!term || foldForSearch(c.title).includes(term)));
    return slice(
      rows.sort((a, b) => b.updatedAt.getTime() - a.updatedAt.getTime() || b.id - a.id),
      q.page,
    );
  }
  async members(companyId: number, chatIds: readonly number[]) {
    const found = new Map<number, ChatMember[]>();
    const rows = this.memberRows.filter((r) => r.companyId === companyId && chatIds.includes(r.chatId)).sort((a, b) => a.userId - b.userId);
    for (const r of rows) {
      const user = await this.users.findById(companyId, r.userId);
      if (!user) continue;
      const unreads = this.messages.table.filter((m) => m.chatId === r.chatId && m.id > r.lastReadMessageId && m.senderId !== r.userId).length;
      found.set(r.chatId, [...(found.get(r.chatId) ?? []), { chatId: r.chatId, userId: r.userId, name: user.name, email: user.email, unreads }]);
    }
    return found;
  }
  async recordMessage(companyId: number, chatId: number, messageId: number, summary: string, at: Date) {
    const chat = await this.findById(companyId, chatId);
    if (!chat || (chat.lastMessageId ?? 0) >= messageId) return;
    this.table.replace({ ...chat, lastMessage: summary, lastMessageId: messageId, updatedAt: at });
  }
  async markRead(companyId: number, chatId: number, userId: number) {
    const latest = this.messages.latestId(chatId);
    for (const r of this.memberRows) {
      if (r.companyId === companyId && r.chatId === chatId && r.userId === userId) r.lastReadMessageId = Math.max(r.lastReadMessageId, latest);
    }
  }
}
