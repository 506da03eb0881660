import { expect } from 'chai';
import { openNamespace, type Frame } from '../support/namespace-client.js';
import { openSocketIo, type Emitted } from '../support/socket-io-client.js';
import { asSuper, client, login, newCompanyWithAdmin, startTestBackend, type Reply, type TestBackend } from '../support/test-backend.js';

const expectError = (res: Reply, status: number, error: string) => {
  expect([res.status, res.body], JSON.stringify(res.body)).to.deep.equal([status, { error }]);
};

const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082',
  'hex',
);

/** The seeded company's super admin and three operators, each with a client and a token. */
async function desk(b: TestBackend) {
  const { api: root, user } = await asSuper(b);
  const operator = async (name: string) => {
    const email = `${name.toLowerCase()}@chat.test`;
    const res = await root.post('/users', { name, email, password: 'operator-pass-1' });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    const { token } = await login(b.url, email, 'operator-pass-1');
    return { id: res.body.id as number, name, token, api: client(b.url, token) };
  };
  return { root, companyId: user.companyId as number, ana: await operator('Ana'), bia: await operator('Bia'), caio: await operator('Caio') };
}

/** Whether a frame or event is about the chat (its id in any of the places the chat events carry it). */
function about(chatId: number, event: string, data: Record<string, any>): boolean {
  return (
    event.endsWith(`-chat-${chatId}`) ||
    data.chat?.id === chatId ||
    data.record?.id === chatId ||
    data.newMessage?.chatId === chatId ||
    (event.endsWith('-chat') && data.action === 'delete' && data.id === chatId)
  );
}

describe('HTTP: internal chats', () => {
  let b: TestBackend;
  before(async () => {
    b = await startTestBackend();
  });
  after(async () => {
    await b.close();
  });
  beforeEach(async () => {
    await b.reset();
  });

  it("members create, list, write, read and edit chats as the lineage client does; read marks are the caller's alone", async () => {
    const d = await desk(b);
    const created = await d.ana.api.post('/chats', {
      title: 'Plantão',
      users: [
        { id: d.bia.id, name: 'Bia' },
        { id: d.caio.id, name: 'Caio' },
      ],
    });
    expect(created.status, JSON.stringify(created.body)).to.equal(200);
    const chat = created.body;
    expect(chat).to.include({ title: 'Plantão', ownerId: d.ana.id, lastMessage: '', companyId: d.companyId });
    expect(chat.owner).to.deep.equal({ id: d.ana.id, name: 'Ana', email: 'ana@chat.test' });
    expect(chat.users.map((u: any) => [u.userId, u.unreads, u.user.name])).to.deep.equal([
      [d.ana.id, 0, 'Ana'],
      [d.bia.id, 0, 'Bia'],
      [d.caio.id, 0, 'Caio'],
    ]);
    const mine = await d.root.post('/chats', { title: 'Só do admin', users: [] });
    expect(mine.status, JSON.stringify(mine.body)).to.equal(200);

    expect((await d.bia.api.get('/chats')).body).to.deep.equal({ records: [chat], count: 1, hasMore: false });
    expect((await d.root.get('/chats?searchParam=&pageNumber=1')).body).to.deep.equal({ records: [mine.body], count: 1, hasMore: false });
    expect((await d.bia.api.get(`/chats/${chat.uuid}`)).body).to.deep.equal(chat);
    expect((await d.bia.api.get(`/chats/${chat.id}`)).body).to.deep.equal(chat);
    expectError(await d.root.get(`/chats/${chat.id}`), 404, 'ERR_NO_CHAT_FOUND');

    const sent = await d.bia.api.post(`/chats/${chat.id}/messages`, { message: 'Cheguei!' });
    expect(sent.status, JSON.stringify(sent.body)).to.equal(200);
    expect(sent.body).to.include({ chatId: chat.id, senderId: d.bia.id, message: 'Cheguei!', mediaPath: null });
    expect(sent.body.sender).to.deep.equal({ id: d.bia.id, name: 'Bia' });
    await d.ana.api.post(`/chats/${chat.id}/messages`, { message: 'Bom dia' });
    await d.bia.api.post(`/chats/${chat.id}/messages`, { message: 'Tudo certo?' });
    const unreads = async (api = d.ana.api) => Object.fromEntries((await api.get('/chats')).body.records[0].users.map((u: any) => [u.user.name, u.unreads]));
    // A member's own messages never count; sending marks the chat read for the sender.
    expect(await unreads()).to.deep.equal({ Ana: 1, Bia: 0, Caio: 3 });

    // The client sends a user id in the body; another member's id changes nothing: the mark is the caller's.
    const read = await d.ana.api.post(`/chats/${chat.id}/read`, { userId: d.caio.id });
    expect(read.status, JSON.stringify(read.body)).to.equal(200);
    expect(read.body.users.map((u: any) => u.unreads)).to.deep.equal([0, 0, 3]);
    expect(await unreads(d.caio.api)).to.deep.equal({ Ana: 0, Bia: 0, Caio: 3 });
    expect(read.body.lastMessage).to.equal('Bia: Tudo certo?');

    const page = await d.ana.api.get(`/chats/${chat.id}/messages?pageNumber=1`);
    expect(page.body.records.map((m: any) => [m.sender.name, m.message])).to.deep.equal([
      ['Bia', 'Cheguei!'],
      ['Ana', 'Bom dia'],
      ['Bia', 'Tudo certo?'],
    ]);
    expect(page.body).to.include({ count: 3, hasMore: false });

    expectError(await d.bia.api.put(`/chats/${chat.id}`, { title: 'Meu' }), 403, 'ERR_NO_PERMISSION');
    expectError(await d.bia.api.delete(`/chats/${chat.id}`), 403, 'ERR_NO_PERMISSION');
    const edited = await d.ana.api.put(`/chats/${chat.id}`, { ...chat, title: 'Plantão de sábado', users: [{ id: d.caio.id, name: 'Caio' }] });
    expect(edited.status, JSON.stringify(edited.body)).to.equal(200);
    expect(edited.body.users.map((u: any) => [u.user.name, u.unreads])).to.deep.equal([
      ['Ana', 0],
      ['Caio', 3],
    ]);
    expectError(await d.bia.api.get(`/chats/${chat.id}/messages`), 404, 'ERR_NO_CHAT_FOUND');
    expect((await d.caio.api.get(`/chats/${chat.id}/messages`)).body.count).to.equal(3);

    expect((await d.ana.api.delete(`/chats/${chat.id}`)).body).to.deep.equal({ message: 'Chat deleted' });
    expectError(await d.ana.api.get(`/chats/${chat.id}`), 404, 'ERR_NO_CHAT_FOUND');
  });

  it('sends files through `medias` (one message each, served from blob storage) and refuses bad input with a 4xx', async () => {
    const d = await desk(b);
    const chat = (await d.ana.api.post('/chats', { title: 'Arquivos', users: [{ id: d.bia.id }] })).body;
    const form = new FormData();
    form.append('fromMe', 'true');
    form.append('message', 'Segue a foto');
    for (const [name, type, content] of [
      ['foto.png', 'image/png', PNG],
      ['nota.pdf', 'application/pdf', Buffer.from('%PDF-1.4 nota')],
    ] as const) {
      form.append('typeArch', 'chat');
      form.append('fileId', String(chat.id));
      form.append('medias', new Blob([content], { type }), name);
      form.append('body', name);
    }
    const sent = await d.ana.api.post(`/chats/${chat.id}/messages`, form);
    expect(sent.status, JSON.stringify(sent.body)).to.equal(200);
    expect(sent.body).to.include({ message: 'nota.pdf', mediaName: 'nota.pdf', mediaType: 'document' });
    const page = (await d.bia.api.get(`/chats/${chat.id}/messages`)).body;
    expect(page.records.map((m: any) => [m.message, m.mediaName, m.mediaType])).to.deep.equal([
      ['Segue a foto', 'foto.png', 'image'],
      ['nota.pdf', 'nota.pdf', 'document'],
    ]);
    const served = await fetch(`${b.url}${new URL(page.records[0].mediaPath).pathname}`);
    expect([served.status, served.headers.get('content-type')]).to.deep.equal([200, 'image/png']);
    expect(Buffer.from(await served.arrayBuffer()).equals(PNG)).to.equal(true);
    expect((await d.bia.api.get('/chats')).body.records[0].lastMessage).to.equal('Ana: nota.pdf');

    expectError(await d.ana.api.post(`/chats/${chat.id}/messages`, { message: '  ' }), 422, 'ERR_CHAT_MESSAGE_EMPTY');
    expectError(await d.ana.api.post(`/chats/${chat.id}/messages`, { message: 'x'.repeat(10_001) }), 422, 'ERR_CHAT_MESSAGE_TOO_LONG');
    const stray = new FormData();
    stray.append('file', new Blob([PNG], { type: 'image/png' }), 'foto.png');
    expectError(await d.ana.api.post(`/chats/${chat.id}/messages`, stray), 422, 'ERR_UNEXPECTED_FILE_FIELD');
    const many = new FormData();
    for (let i = 0; i < 11; i++) many.append('medias', new Blob([PNG], { type: 'image/png' }), `f${i}.png`);
    expectError(await d.ana.api.post(`/chats/${chat.id}/messages`, many), 413, 'ERR_TOO_MANY_FILES');
    const empty = new FormData();
    empty.append('medias', new Blob([], { type: 'text/plain' }), 'vazio.txt');
    expectError(await d.ana.api.post(`/chats/${chat.id}/messages`, empty), 422, 'ERR_EMPTY_FILE');
    expect((await d.bia.api.get(`/chats/${chat.id}/messages`)).body.count).to.equal(2);

    expectError(await d.ana.api.post('/chats', { title: '   ', users: [] }), 422, 'ERR_CHAT_INVALID_TITLE');
    expect((await d.ana.api.post('/chats', { users: [] })).status).to.equal(422);
    expect((await d.ana.api.post('/chats', { title: 'x', users: [{ id: 'abc' }] })).status).to.equal(422);
    expectError(await d.ana.api.post('/chats', { title: 'x', users: [{ id: 987654 }] }), 404, 'ERR_NO_USER_FOUND');
    expect((await d.ana.api.get('/chats/not-an-id')).status).to.equal(422);
    expectError(await d.ana.api.get('/chats/6f1c0a52-3d2e-4b8a-9f10-2a4b5c6d7e8f'), 404, 'ERR_NO_CHAT_FOUND');
  });

  it("another company's chats and users are 404 and change nothing; a plan without internal chat is 403", async () => {
    const d = await desk(b);
    const chat = (await d.ana.api.post('/chats', { title: 'Nosso', users: [{ id: d.bia.id }] })).body;
    await d.bia.api.post(`/chats/${chat.id}/messages`, { message: 'interno' });
    const other = await newCompanyWithAdmin(b);
    expectError(await other.api.get(`/chats/${chat.id}`), 404, 'ERR_NO_CHAT_FOUND');
    expectError(await other.api.get(`/chats/${chat.uuid}`), 404, 'ERR_NO_CHAT_FOUND');
    expectError(await other.api.get(`/chats/${chat.id}/messages`), 404, 'ERR_NO_CHAT_FOUND');
    expectError(await other.api.post(`/chats/${chat.id}/messages`, { message: 'intruso' }), 404, 'ERR_NO_CHAT_FOUND');
    expectError(await other.api.post(`/chats/${chat.id}/read`, {}), 404, 'ERR_NO_CHAT_FOUND');
    expectError(await other.api.put(`/chats/${chat.id}`, { title: 'Deles' }), 404, 'ERR_NO_CHAT_FOUND');
    expectError(await other.api.delete(`/chats/${chat.id}`), 404, 'ERR_NO_CHAT_FOUND');
    expectError(await other.api.post('/chats', { title: 'Roubo', users: [{ id: d.ana.id }] }), 404, 'ERR_NO_USER_FOUND');
    expectError(await d.ana.api.put(`/chats/${chat.id}`, { users: [{ id: other.admin.id }] }), 404, 'ERR_NO_USER_FOUND');
    expect((await other.api.get('/chats')).body).to.deep.equal({ records: [], count: 0, hasMore: false });
    const after = (await d.ana.api.get('/chats')).body.records[0];
    expect({ title: after.title, members: after.users.map((u: any) => u.userId), lastMessage: after.lastMessage }).to.deep.equal({
      title: 'Nosso',
      members: [d.ana.id, d.bia.id],
      lastMessage: 'Bia: interno',
    });

    const plan = await d.root.post('/plans', { name: 'Sem chat', users: 5, connections: 2, queues: 3, amount: '10.00', useInternalChat: false });
    expect(plan.status, JSON.stringify(plan.body)).to.equal(201);
    const small = await newCompanyWithAdmin(b, { planId: plan.body.id });
    for (const [method, path, body] of [
      ['GET', '/chats', undefined],
      ['GET', '/chats/1', undefined],
      ['GET', '/chats/1/messages', undefined],
      ['POST', '/chats/1/messages', { message: 'x' }],
      ['POST', '/chats/1/read', {}],
      ['POST', '/chats', { title: 'x', users: [] }],
      ['PUT', '/chats/1', { title: 'x' }],
      ['DELETE', '/chats/1', undefined],
    ] as const) {
      expectError(await small.api.call(method, path, body), 403, 'ERR_PLAN_FEATURE_DISABLED');
    }
  });

  it('frames reach the members only, on the raw websocket and on socket.io: a non-member of the same company receives nothing of the chat', async () => {
    const d = await desk(b);
    const cid = d.companyId;
    // Caio is in Ana's other chat (which proves his sockets are live and ordered), not in the one with Bia.
    const side = (await d.ana.api.post('/chats', { title: 'Com Caio', users: [{ id: d.caio.id }] })).body;
    const caioWs = await openNamespace(b.url, cid, d.caio.token);
    const caioIo = openSocketIo(b.url, cid, d.caio.token);
    const biaWs = await openNamespace(b.url, cid, d.bia.token);
    const biaIo = openSocketIo(b.url, cid, d.bia.token);
    await Promise.all([caioIo.connected, biaIo.connected]);

    const chat = (await d.ana.api.post('/chats', { title: 'Só Ana e Bia', users: [{ id: d.bia.id }] })).body;
    await d.ana.api.post(`/chats/${chat.id}/messages`, { message: 'segredo' });
    await d.ana.api.post(`/chats/${chat.id}/read`, {});
    await d.ana.api.put(`/chats/${chat.id}`, { title: 'Só Ana e Bia (editado)' });
    await d.ana.api.post(`/chats/${chat.id}/messages`, { message: 'depois da leitura' });
    // The later frame Caio must receive: sent after everything of the other chat.
    await d.ana.api.post(`/chats/${side.id}/messages`, { message: 'para o Caio' });

    const lastForCaio = (e: { event: string; data: Record<string, any> }) => e.event === `company-${cid}-chat` && e.data.newMessage?.message === 'para o Caio';
    await caioWs.waitFor(lastForCaio, 10_000);
    await caioIo.waitFor(lastForCaio, 10_000);
    expect(
      caioWs.frames.filter((f: Frame) => about(chat.id, f.event, f.data)),
      'ws frames of the chat Caio is not in',
    ).to.deep.equal([]);
    expect(
      caioIo.events.filter((e: Emitted) => about(chat.id, e.event, e.data)),
      'socket.io events of the chat Caio is not in',
    ).to.deep.equal([]);
    expect(JSON.stringify([caioWs.frames, caioIo.events])).to.not.contain('segredo');
    // What Caio did receive of his own chat, under the lineage's names.
    expect(caioWs.frames.some((f) => f.event === `company-${cid}-chat-${side.id}` && f.data.action === 'new-message')).to.equal(true);

    // Bia, a member, gets each of the chat's frames under the names the client listens to, Ana's read mark too (Ana's count gone, Bia's kept).
    for (const sink of [biaWs, biaIo]) {
      const seen = sink === biaWs ? biaWs.frames : biaIo.events;
      await sink.waitFor((e) => e.event === `company-${cid}-chat` && e.data.newMessage?.message === 'depois da leitura', 10_000);
      const names = seen.filter((e) => about(chat.id, e.event, e.data)).map((e) => `${e.event.replace(`company-${cid}-`, '')}:${e.data.action}`);
      expect(names).to.deep.equal([
        `chat-user-${d.bia.id}:create`,
        `chat-${chat.id}:new-message`,
        'chat:new-message',
        `chat-${chat.id}:update`,
        'chat:update',
        `chat-user-${d.bia.id}:update`,
        `chat-${chat.id}:new-message`,
        'chat:new-message',
      ]);
      const created = seen.find((e) => e.event === `company-${cid}-chat-user-${d.bia.id}`)!;
      expect(created.data.record).to.include({ id: chat.id, uuid: chat.uuid, title: 'Só Ana e Bia' });
      const message = seen.find((e) => e.event === `company-${cid}-chat-${chat.id}`)!;
      expect(message.data.newMessage).to.include({ chatId: chat.id, senderId: d.ana.id, message: 'segredo' });
      expect(message.data.chat.users.map((u: any) => [u.userId, u.unreads])).to.deep.equal([
        [d.ana.id, 0],
        [d.bia.id, 1],
      ]);
      const readMark = seen.find((e) => e.event === `company-${cid}-chat` && e.data.action === 'update')!;
      expect(readMark.data.chat.users.map((u: any) => [u.userId, u.unreads])).to.deep.equal([
        [d.ana.id, 0],
        [d.bia.id, 1],
      ]);
    }

    // Deleting reaches the members; Caio, again, only gets his later frame.
    await d.ana.api.delete(`/chats/${chat.id}`);
    await d.ana.api.post(`/chats/${side.id}/messages`, { message: 'de novo, Caio' });
    const deleted = (e: { event: string; data: Record<string, any> }) => e.event === `company-${cid}-chat` && e.data.action === 'delete';
    expect((await biaWs.waitFor(deleted, 10_000)).data).to.deep.equal({ action: 'delete', id: chat.id });
    expect((await biaIo.waitFor(deleted, 10_000)).data).to.deep.equal({ action: 'delete', id: chat.id });
    const again = (e: { event: string; data: Record<string, any> }) => e.event === `company-${cid}-chat` && e.data.newMessage?.message === 'de novo, Caio';
    await caioWs.waitFor(again, 10_000);
    await caioIo.waitFor(again, 10_000);
    expect(caioWs.frames.filter((f) => about(chat.id, f.event, f.data))).to.deep.equal([]);
    expect(caioIo.events.filter((e) => about(chat.id, e.event, e.data))).to.deep.equal([]);
    for (const s of [caioWs, caioIo, biaWs, biaIo]) s.close();
  });
});
