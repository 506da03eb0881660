import { type InfiniteData, QueryClient } from '@tanstack/react-query';
import { expect } from 'chai';
import type { Schema } from '../src/api/client.js';
import { applyFrame, keys } from '../src/realtime/apply-frame.js';
import { chatKeys } from '../src/realtime/chat-frames.js';

type ChatMessage = Schema<'ChatMessage'>;
type Page = Schema<'ChatMessagePage'>;

const message = (id: number, chatId = 3): ChatMessage => ({
  id,
  chatId,
  companyId: 1,
  senderId: 9,
  message: `m${id}`,
  mediaPath: null,
  mediaName: null,
  mediaType: null,
  createdAt: '2026-01-01T10:00:00.000Z',
  updatedAt: '2026-01-01T10:00:00.000Z',
  sender: { id: 9, name: 'Bia' },
});
const chat = { id: 3, title: 'Shift', users: [] };

function seeded() {
  const client = new QueryClient();
  const pages: InfiniteData<Page> = {
    pages: [
      { records: [message(21), message(22)], count: 22, hasMore: true },
      { records: [message(1)], count: 22, hasMore: false },
    ],
    pageParams: [1, 2],
  };
  client.setQueryData(chatKeys.messages(3), pages);
  client.setQueryData(chatKeys.list(''), { pages: [], pageParams: [] });
  client.setQueryData(chatKeys.unread, 0);
  client.setQueryData(keys.tickets, []);
  return client;
}
const ids = (client: QueryClient) => client.getQueryData<InfiniteData<Page>>(chatKeys.messages(3))!.pages.map((p) => p.records.map((m) => m.id));

describe('console: the internal chats’ frames', () => {
  it('appends a new message to the newest page once, though the server sends it under two names, and reads the lists and the badge again', () => {
    const client = seeded();
    const data = { action: 'new-message', newMessage: message(23), chat };
    applyFrame(client, { seq: 1, event: 'company-1-chat-3', data });
    // The per-chat copy changes nothing.
    expect(ids(client)).to.deep.equal([[21, 22], [1]]);
    expect(client.getQueryState(chatKeys.unread)!.isInvalidated).to.equal(false);
    applyFrame(client, { seq: 2, event: 'company-1-chat', data });
    applyFrame(client, { seq: 3, event: 'company-1-chat', data });
    expect(ids(client)).to.deep.equal([[21, 22, 23], [1]]);
    expect(client.getQueryData(chatKeys.one(3))).to.deep.equal(chat);
    expect(client.getQueryState(chatKeys.list(''))!.isInvalidated).to.equal(true);
    expect(client.getQueryState(chatKeys.unread)!.isInvalidated).to.equal(true);
    expect(client.getQueryState(keys.tickets)!.isInvalidated).to.equal(false);
  });

  it('forgets a deleted chat’s messages, and reads the lists again on a chat one was added to', () => {
    const client = seeded();
    applyFrame(client, { seq: 1, event: 'company-1-chat', data: { action: 'delete', id: 3 } });
    expect(client.getQueryData(chatKeys.messages(3))).to.equal(undefined);
    expect(client.getQueryState(chatKeys.unread)!.isInvalidated).to.equal(true);

    const other = seeded();
    applyFrame(other, { seq: 1, event: 'company-1-chat-user-9', data: { action: 'create', record: { ...chat, id: 4 } } });
    expect(other.getQueryData(chatKeys.one(4))).to.deep.equal({ ...chat, id: 4 });
    expect(other.getQueryState(chatKeys.list(''))!.isInvalidated).to.equal(true);
    // Not mistaken for a connection's frames.
    const third = seeded();
    applyFrame(third, { seq: 1, event: 'company-1-chatapp', data: { action: 'update' } });
    expect(third.getQueryState(chatKeys.unread)!.isInvalidated).to.equal(false);
  });
});
