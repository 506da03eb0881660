import { expect } from 'chai';
import { createApplication, type Actor, type User } from '../../src/index.js';
import { createInMemoryPorts } from '../../src/testing.js';
import type { BufferedUpload } from '../../src/uploads/image-upload.js';
import { MAX_CHAT_MEDIA_BYTES } from '../../src/chats/chat.js';
import { companyFixture, planFixture, userFixture } from '../contracts/repositories-contract.js';

const code = (p: Promise<unknown>) =>
  p.then(
    () => 'resolved',
    (e: { code?: string }) => e.code,
  );
const file = (filename: string, contentType: string, data: Buffer | string = 'content'): BufferedUpload => ({ filename, contentType, data: Buffer.from(data) });

/** Acme (plan with internal chat) with an admin and three operators; Other with one user; Basic (no internal chat) with one. */
async function chatWorld() {
  const ports = createInMemoryPorts();
  const app = createApplication(ports);
  const plan = await ports.plans.add(planFixture('Full'));
  const basic = await ports.plans.add(planFixture('Basic', { features: { ...planFixture('x').features, internalChat: false } }));
  const acme = await ports.companies.add(companyFixture(plan.id, 'Acme'));
  const other = await ports.companies.add(companyFixture(plan.id, 'Other'));
  const small = await ports.companies.add(companyFixture(basic.id, 'Small'));
  const user = async (companyId: number, email: string, overrides: Partial<User> = {}): Promise<Actor> => {
    const u = await ports.users.add(userFixture(companyId, email, overrides));
    return { userId: u.id, companyId, profile: u.profile };
  };
  const admin = await user(acme.id, 'admin@acme.test', { profile: 'admin', name: 'Ada' });
  const ana = await user(acme.id, 'ana@acme.test', { name: 'Ana' });
  const bia = await user(acme.id, 'bia@acme.test', { name: 'Bia' });
  const caio = await user(acme.id, 'caio@acme.test', { name: 'Caio' });
  const zoe = await user(other.id, 'zoe@other.test', { name: 'Zoe' });
  const sam = await user(small.id, 'sam@small.test', { name: 'Sam' });
  const events = () =>
    ports.realtime.events
      .filter((e) => e.entity === 'chat' || e.entity === 'chat-user')
      .map((e) => ({ name: `${e.entity}${'key' in e && e.key !== undefined ? `-${e.key}` : ''}:${e.data.action}`, to: 'to' in e ? [...e.to] : [] }));
  const since = (n: number) => events().slice(n);
  const unreads = async (actor: Actor, chatId: number) =>
    Object.fromEntries((await app.chats.showChat.execute({ actor, chat: chatId })).users.map((u) => [u.user.name, u.unreads]));
  return { ports, app, admin, ana, bia, caio, zoe, sam, events, since, unreads };
}

describe('Internal chats: use cases', () => {
  it('creates a chat owned by its creator with the members named, telling each member on their own channel', async () => {
    const w = await chatWorld();
    const chat = await w.app.chats.createChat.execute({ actor: w.ana, title: '  Plantão  ', userIds: [w.bia.userId, w.bia.userId, w.ana.userId] });
    expect(chat).to.include({ title: 'Plantão', ownerId: w.ana.userId, lastMessage: '', companyId: w.ana.companyId });
    expect(chat.owner).to.deep.equal({ id: w.ana.userId, name: 'Ana', email: 'ana@acme.test' });
    expect(chat.users.map((u) => ({ userId: u.userId, unreads: u.unreads, name: u.user.name }))).to.deep.equal([
      { userId: w.ana.userId, unreads: 0, name: 'Ana' },
      { userId: w.bia.userId, unreads: 0, name: 'Bia' },
    ]);
    expect(w.events()).to.deep.equal([
      { name: `chat-user-${w.ana.userId}:create`, to: [w.ana.userId] },
      { name: `chat-user-${w.bia.userId}:create`, to: [w.bia.userId] },
    ]);
    expect((await w.app.chats.showChat.execute({ actor: w.bia, chat: chat.uuid })).id).to.equal(chat.id);

    expect(await code(w.app.chats.createChat.execute({ actor: w.ana, title: 'x', userIds: [w.zoe.userId] }))).to.equal('ERR_NO_USER_FOUND');
    expect(await code(w.app.chats.createChat.execute({ actor: w.ana, title: 'x', userIds: [9999] }))).to.equal('ERR_NO_USER_FOUND');
    expect(await code(w.app.chats.createChat.execute({ actor: w.ana, title: '   ', userIds: [] }))).to.equal('ERR_CHAT_INVALID_TITLE');
    expect(await code(w.app.chats.createChat.execute({ actor: w.ana, title: 'x'.repeat(256), userIds: [] }))).to.equal('ERR_CHAT_INVALID_TITLE');
    expect(await code(w.app.chats.createChat.execute({ actor: w.ana, title: 'x', userIds: Array.from({ length: 500 }, (_, i) => 1000 + i) }))).to.equal(
      'ERR_TOO_MANY_CHAT_MEMBERS',
    );
    expect(await code(w.app.chats.createChat.execute({ actor: w.sam, title: 'x', userIds: [] }))).to.equal('ERR_PLAN_FEATURE_DISABLED');
    expect(await code(w.app.chats.listChats.execute({ actor: w.sam }))).to.equal('ERR_PLAN_FEATURE_DISABLED');
    expect(w.events()).to.have.length(2);
  });

  it('shows a chat to its members only: anyone else of the company, or of another, gets 404 on every route', async () => {
    const w = await chatWorld();
    const chat = await w.app.chats.createChat.execute({ actor: w.ana, title: 'Só nós', userIds: [w.bia.userId] });
    const { chats } = w.app;
    for (const outsider of [w.caio, w.admin, w.zoe]) {
      expect(await code(chats.showChat.execute({ actor: outsider, chat: chat.id })), 'show').to.equal('ERR_NO_CHAT_FOUND');
      expect(await code(chats.showChat.execute({ actor: outsider, chat: chat.uuid })), 'show by uuid').to.equal('ERR_NO_CHAT_FOUND');
      expect(await code(chats.listChatMessages.execute({ actor: outsider, chatId: chat.id })), 'messages').to.equal('ERR_NO_CHAT_FOUND');
      expect(await code(chats.sendChatMessage.execute({ actor: outsider, chatId: chat.id, message: 'oi' })), 'send').to.equal('ERR_NO_CHAT_FOUND');
      expect(await code(chats.markChatRead.execute({ actor: outsider, chatId: chat.id })), 'read').to.equal('ERR_NO_CHAT_FOUND');
      expect(await code(chats.updateChat.execute({ actor: outsider, chatId: chat.id, title: 'Nosso' })), 'update').to.equal('ERR_NO_CHAT_FOUND');
      expect(await code(chats.deleteChat.execute({ actor: outsider, chatId: chat.id })), 'delete').to.equal('ERR_NO_CHAT_FOUND');
      expect((await chats.listChats.execute({ actor: outsider })).records).to.deep.equal([]);
    }
    expect((await chats.listChats.execute({ actor: w.bia })).records.map((c) => c.id)).to.deep.equal([chat.id]);
    expect(await code(chats.showChat.execute({ actor: w.ana, chat: '00000000-0000-4000-8000-999999999999' }))).to.equal('ERR_NO_CHAT_FOUND');
  });

  it('only the owner edits: stayers get update, newcomers create, the removed a delete; the owner always stays', async () => {
    const w = await chatWorld();
    const chat = await w.app.chats.createChat.execute({ actor: w.ana, title: 'Equipe', userIds: [w.bia.userId] });
    expect(await code(w.app.chats.updateChat.execute({ actor: w.bia, chatId: chat.id, title: 'Minha' }))).to.equal('ERR_NO_PERMISSION');
    expect(await code(w.app.chats.deleteChat.execute({ actor: w.bia, chatId: chat.id }))).to.equal('ERR_NO_PERMISSION');
    expect(await code(w.app.chats.updateChat.execute({ actor: w.ana, chatId: chat.id, userIds: [w.zoe.userId] }))).to.equal('ERR_NO_USER_FOUND');
    const n = w.events().length;
    const edited = await w.app.chats.updateChat.execute({ actor: w.ana, chatId: chat.id, title: 'Equipe B', userIds: [w.caio.userId] });
    expect(edited.title).to.equal('Equipe B');
    expect(edited.users.map((u) => u.userId)).to.deep.equal([w.ana.userId, w.caio.userId]);
    expect(w.since(n)).to.deep.equal([
      { name: `chat-user-${w.ana.userId}:update`, to: [w.ana.userId] },
      { name: `chat-user-${w.caio.userId}:create`, to: [w.caio.userId] },
      { name: 'chat:delete', to: [w.bia.userId] },
    ]);
    expect(await code(w.app.chats.showChat.execute({ actor: w.bia, chat: chat.id }))).to.equal('ERR_NO_CHAT_FOUND');
    // Renaming alone keeps the members.
    const renamed = await w.app.chats.updateChat.execute({ actor: w.ana, chatId: chat.id, title: 'Equipe C' });
    expect(renamed.users.map((u) => u.userId)).to.deep.equal([w.ana.userId, w.caio.userId]);
  });

  it("counts unreads per member from the others' messages; a read mark is the caller's alone and reaches every member", async () => {
    const w = await chatWorld();
    const chat = await w.app.chats.createChat.execute({ actor: w.ana, title: 'Turno', userIds: [w.bia.userId, w.caio.userId] });
    const n = w.events().length;
    const sent = await w.app.chats.sendChatMessage.execute({ actor: w.bia, chatId: chat.id, message: '  Cheguei!  ' });
    expect(sent).to.include({ chatId: chat.id, senderId: w.bia.userId, message: 'Cheguei!', mediaPath: null, mediaType: null });
    expect(sent.sender).to.deep.equal({ id: w.bia.userId, name: 'Bia' });
    const members = [w.ana.userId, w.bia.userId, w.caio.userId];
    expect(w.since(n)).to.deep.equal([
      { name: `chat-${chat.id}:new-message`, to: members },
      { name: 'chat:new-message', to: members },
    ]);
    const frame = w.ports.realtime.events.at(-1)!;
    expect(frame.data).to.deep.include({ newMessage: sent });
    expect(await w.unreads(w.ana, chat.id)).to.deep.equal({ Ana: 1, Bia: 0, Caio: 1 });
    await w.app.chats.sendChatMessage.execute({ actor: w.ana, chatId: chat.id, message: 'Bom dia' });
    expect(await w.unreads(w.ana, chat.id)).to.deep.equal({ Ana: 0, Bia: 1, Caio: 2 });
    expect((await w.app.chats.showChat.execute({ actor: w.caio, chat: chat.id })).lastMessage).to.equal('Ana: Bom dia');

    const m = w.events().length;
    const read = await w.app.chats.markChatRead.execute({ actor: w.caio, chatId: chat.id });
    expect(read.users.map((u) => u.unreads)).to.deep.equal([0, 1, 0]);
    expect(w.since(m)).to.deep.equal([
      { name: `chat-${chat.id}:update`, to: members },
      { name: 'chat:update', to: members },
    ]);
    expect(await w.unreads(w.bia, chat.id)).to.deep.equal({ Ana: 0, Bia: 1, Caio: 0 });

    expect(await code(w.app.chats.sendChatMessage.execute({ actor: w.ana, chatId: chat.id, message: '   ' }))).to.equal('ERR_CHAT_MESSAGE_EMPTY');
    expect(await code(w.app.chats.sendChatMessage.execute({ actor: w.ana, chatId: chat.id, message: 'x'.repeat(10_001) }))).to.equal(
      'ERR_CHAT_MESSAGE_TOO_LONG',
    );
  });

  it('pages messages newest page first, each page in the order sent; lists chats latest activity first', async () => {
    const w = await chatWorld();
    const older = await w.app.chats.createChat.execute({ actor: w.ana, title: 'Antigo', userIds: [w.bia.userId] });
    w.ports.clock.advance(1000);
    const newer = await w.app.chats.createChat.execute({ actor: w.bia, title: 'Novo', userIds: [w.ana.userId] });
    expect((await w.app.chats.listChats.execute({ actor: w.ana })).records.map((c) => c.title)).to.deep.equal(['Novo', 'Antigo']);
    for (let i = 1; i <= 25; i++) {
      w.ports.clock.advance(1000);
      await w.app.chats.sendChatMessage.execute({ actor: i % 2 ? w.ana : w.bia, chatId: older.id, message: `m${i}` });
    }
    const first = await w.app.chats.listChatMessages.execute({ actor: w.bia, chatId: older.id });
    expect({ count: first.count, hasMore: first.hasMore, texts: first.records.map((r) => r.message) }).to.deep.equal({
      count: 25,
      hasMore: true,
      texts: Array.from({ length: 20 }, (_, i) => `m${i + 6}`),
    });
    const second = await w.app.chats.listChatMessages.execute({ actor: w.bia, chatId: older.id, pageNumber: 2 });
    expect({ hasMore: second.hasMore, texts: second.records.map((r) => r.message) }).to.deep.equal({ hasMore: false, texts: ['m1', 'm2', 'm3', 'm4', 'm5'] });
    const listed = await w.app.chats.listChats.execute({ actor: w.ana, searchParam: '' });
    expect(listed.records.map((c) => [c.title, c.lastMessage])).to.deep.equal([
      ['Antigo', 'Ana: m25'],
      ['Novo', ''],
    ]);
    expect((await w.app.chats.listChats.execute({ actor: w.ana, searchParam: 'NOVO' })).records.map((c) => c.id)).to.deep.equal([newer.id]);
  });

  it('sends files as messages of their own in blob storage, the first with the caption; refuses empty or oversized files and keeps nothing of a failed send', async () => {
    const w = await chatWorld();
    const chat = await w.app.chats.createChat.execute({ actor: w.ana, title: 'Arquivos', userIds: [w.bia.userId] });
    const n = w.events().length;
    const last = await w.app.chats.sendChatMessage.execute({
      actor: w.ana,
      chatId: chat.id,
      message: 'Veja',
      files: [file('foto 1.png', 'image/png'), file('nota.pdf', 'application/pdf'), file('run.sh', 'text/x-sh')],
    });
    const page = await w.app.chats.listChatMessages.execute({ actor: w.bia, chatId: chat.id });
    expect(page.records.map((r) => [r.message, r.mediaName, r.mediaType])).to.deep.equal([
      ['Veja', 'foto 1.png', 'image'],
      ['nota.pdf', 'nota.pdf', 'document'],
      ['run.sh', 'run.sh', 'document'],
    ]);
    expect(last).to.deep.equal(page.records[2]);
    expect(w.since(n).map((e) => e.name)).to.deep.equal([
      `chat-${chat.id}:new-message`,
      'chat:new-message',
      `chat-${chat.id}:new-message`,
      'chat:new-message',
      `chat-${chat.id}:new-message`,
      'chat:new-message',
    ]);
    const stored = [...w.ports.blobs.blobs.entries()];
    expect(stored.map(([key, blob]) => [key.startsWith(`public/company-${w.ana.companyId}/chats/${chat.id}/`), blob.contentType])).to.deep.equal([
      [true, 'image/png'],
      [true, 'application/pdf'],
      [true, 'application/octet-stream'],
    ]);
    expect(page.records[0]!.mediaPath).to.equal(w.ports.blobs.publicUrl(stored[0]![0]));
    expect(await w.unreads(w.bia, chat.id)).to.deep.equal({ Ana: 0, Bia: 3 });

    expect(await code(w.app.chats.sendChatMessage.execute({ actor: w.ana, chatId: chat.id, files: [file('vazio.txt', 'text/plain', '')] }))).to.equal(
      'ERR_EMPTY_FILE',
    );
    const big: BufferedUpload = file('grande.bin', 'application/octet-stream', Buffer.alloc(MAX_CHAT_MEDIA_BYTES + 1));
    expect(await code(w.app.chats.sendChatMessage.execute({ actor: w.ana, chatId: chat.id, files: [big] }))).to.equal('ERR_FILE_TOO_LARGE');
    const add = w.ports.chatMessages.add.bind(w.ports.chatMessages);
    w.ports.chatMessages.add = async () => {
      throw new Error('database down');
    };
    expect(await code(w.app.chats.sendChatMessage.execute({ actor: w.ana, chatId: chat.id, files: [file('b.png', 'image/png')] }))).to.equal(undefined);
    w.ports.chatMessages.add = add;
    expect(w.ports.blobs.blobs.size).to.equal(3);

    await w.app.chats.deleteChat.execute({ actor: w.ana, chatId: chat.id });
    expect(w.ports.blobs.blobs.size).to.equal(0);
    expect(w.events().at(-1)).to.deep.equal({ name: 'chat:delete', to: [w.ana.userId, w.bia.userId] });
    expect(await code(w.app.chats.showChat.execute({ actor: w.ana, chat: chat.id }))).to.equal('ERR_NO_CHAT_FOUND');
  });
});
