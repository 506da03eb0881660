import { expect } from 'chai';
import { eventually, sandboxDesk } from '../support/sandbox-conversations.js';
import { newCompanyWithAdmin, startTestBackend, type TestBackend } from '../support/test-backend.js';

const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201e2a4d1a60000000049454e44ae426082',
  'hex',
);

describe('HTTP: messages, end to end with the sandbox', () => {
  let b: TestBackend;
  before(async () => {
    b = await startTestBackend({ OUTBOX_RELAY_INTERVAL_MS: '100' });
  });
  after(async () => {
    await b.close();
  });
  beforeEach(async () => {
    await b.reset();
  });

  it('an operator reads an inbound conversation (unread resets) and replies; the sandbox receives the reply, which reaches read', async () => {
    const d = await sandboxDesk(b);
    await d.inbound('5511966660001', 'Bom dia');
    const t = await d.inbound('5511966660001', 'Alguém aí?');
    expect(t.unreadMessages).to.equal(2);
    const read = await d.ana.api.get(`/messages/${t.id}`);
    expect(read.status).to.equal(200);
    expect(read.body).to.deep.include({ count: 2, hasMore: false });
    expect(read.body.messages.map((m: { body: string }) => m.body)).to.deep.equal(['Bom dia', 'Alguém aí?']);
    expect(read.body.ticket).to.include({ id: t.id, unreadMessages: 0 });
    expect((await d.admin.get(`/tickets/${t.id}`)).body.unreadMessages).to.equal(0);
    const sent = await d.ana.api.post(`/messages/${t.id}`, { body: 'Bom dia! Sou a Ana.' });
    expect(sent.status, JSON.stringify(sent.body)).to.equal(200);
    expect(sent.body.ticket).to.include({ status: 'open', userId: d.ana.id, lastMessage: 'Bom dia! Sou a Ana.' });
    await eventually('the reply at the sandbox', async () => d.sent().some((s) => s.to === '5511966660001' && s.content.body === 'Bom dia! Sou a Ana.'));
    await eventually('the reply to be read', async () => {
      const page = (await d.ana.api.get(`/messages/${t.id}`)).body.messages as Array<{ id: string; ack: number }>;
      return page.find((m) => m.id === sent.body.messages[0].id)?.ack === 3;
    });
    expect((await d.bia.api.get(`/messages/${t.id}`)).status).to.equal(403);
    expect((await d.bia.api.post(`/messages/${t.id}`, { body: 'intrusa' })).status).to.equal(403);
  });

  it("quotes the contact's message by its provider id, keeps notes private, and sends files from a multipart form", async () => {
    const d = await sandboxDesk(b);
    const t = await d.inbound('5511966660002', 'Quanto custa?', { providerMessageId: 'wamid-question' });
    const question = (await d.ana.api.get(`/messages/${t.id}`)).body.messages[0];
    const quoted = await d.ana.api.post(`/messages/${t.id}`, { body: 'R$ 10', quotedMsgId: question.id });
    expect(quoted.body.messages[0].quotedMessageId).to.equal(question.id);
    const note = await d.ana.api.post(`/messages/${t.id}`, { body: 'cliente antigo', isPrivate: true });
    expect(note.body.messages[0]).to.include({ isPrivate: true, status: 'sent' });
    const form = new FormData();
    form.append('body', 'a foto');
    form.append('medias', new Blob([PNG], { type: 'image/png' }), 'foto.png');
    const media = await d.ana.api.post(`/messages/${t.id}`, form);
    expect(media.status, JSON.stringify(media.body)).to.equal(200);
    expect(media.body.messages[0].media).to.include({ contentType: 'image/png', filename: 'foto.png', size: PNG.length });
    // A send accepted after the others goes out after them: once it is there, the note has not gone out.
    expect((await d.ana.api.post(`/messages/${t.id}`, { body: 'Até logo' })).status).to.equal(200);
    await eventually('the later send', async () => d.sent().some((s) => s.content.body === 'Até logo'));
    const sent = d.sent();
    expect(sent.map((s) => s.content.body)).to.deep.equal(['R$ 10', 'a foto', 'Até logo']);
    expect(sent[0]!.content.quotedProviderMessageId).to.equal('wamid-question');
    expect(sent[1]!.content.media).to.include({ contentType: 'image/png', filename: 'foto.png' });
    const files = await d.ana.api.get(`/messages/media?ticketId=${t.id}`);
    expect(files.body.messages.map((m: { media: { filename: string } }) => m.media.filename)).to.deep.equal(['foto.png']);
    // Ana's dashboard counts the messages of her tickets: the question, the two replies, the note and the file.
    expect((await d.ana.api.get('/messages-allMe')).body).to.deep.equal({ count: [{ count: 5 }] });
    expect((await d.bia.api.get('/messages-allMe')).body).to.deep.equal({ count: [{ count: 0 }] });
  });

  it('edits and revokes a sent message: both reach the sandbox, the store keeps the flags', async () => {
    const d = await sandboxDesk(b);
    const t = await d.inbound('5511966660003', 'Oi');
    const sent = await d.ana.api.post(`/messages/${t.id}`, { body: 'Segunda às 10h' });
    const id = sent.body.messages[0].id as string;
    const providerMessageId = await eventually('the send', async () => d.sent().find((s) => s.content.body === 'Segunda às 10h')?.providerMessageId);
    await eventually('the provider id to be stored', async () => {
      const page = (await d.ana.api.get(`/messages/${t.id}`)).body.messages as Array<{ id: string; providerMessageId: string | null }>;
      return page.find((m) => m.id === id)?.providerMessageId;
    });
    const edited = await d.ana.api.post(`/messages/edit/${id}`, { body: 'Terça às 10h' });
    expect(edited.status, JSON.stringify(edited.body)).to.equal(200);
    expect(edited.body).to.include({ body: 'Terça às 10h', isEdited: true });
    const session = b.sandbox!.session(d.connectionId);
    await eventually('the edit at the sandbox', async () => session.edited.length === 1);
    expect(session.edited[0]).to.deep.equal({ to: '5511966660003', providerMessageId, body: 'Terça às 10h' });
    expect((await d.bia.api.delete(`/messages/${id}`)).status).to.equal(403);
    const revoked = await d.ana.api.delete(`/messages/${id}`);
    expect(revoked.status).to.equal(200);
    expect(revoked.body).to.include({ isDeleted: true });
    await eventually('the revoke at the sandbox', async () => session.revoked.length === 1);
    expect(session.revoked[0]).to.deep.equal({ to: '5511966660003', providerMessageId });
    const page = (await d.ana.api.get(`/messages/${t.id}`)).body.messages as Array<{ id: string }>;
    expect(page.find((m) => m.id === id)).to.include({ isDeleted: true, isEdited: true, body: 'Terça às 10h' });
    expect((await d.ana.api.post(`/messages/edit/${id}`, { body: 'de novo' })).body).to.deep.equal({ error: 'ERR_MESSAGE_DELETED' });
    const inbound = page.find((m) => m.id !== id)! as { id: string };
    expect((await d.ana.api.delete(`/messages/${inbound.id}`)).body).to.deep.equal({ error: 'ERR_NOT_OWN_MESSAGE' });
  });

  it('forwards a message to another contact and sends a catalog, both through the sandbox', async () => {
    const d = await sandboxDesk(b);
    const t = await d.inbound('5511966660004', 'Olha isso');
    const other = await d.inbound('5511966660005', 'Oi');
    await d.admin.put(`/tickets/${other.id}`, { status: 'closed', sendFarewellMessage: false });
    const source = (await d.ana.api.get(`/messages/${t.id}`)).body.messages[0];
    const forwarded = await d.ana.api.post('/message/forward', { messageId: source.id, contactId: other.contactId });
    expect(forwarded.status, JSON.stringify(forwarded.body)).to.equal(200);
    expect(forwarded.body.ticket).to.include({ contactId: other.contactId, status: 'open', userId: d.ana.id });
    expect(forwarded.body.ticket.id).to.not.equal(other.id);
    const fern = (await d.admin.post('/products', { name: 'Samambaia', price: 2500 })).body.id as number;
    const cactus = (await d.admin.post('/products', { name: 'Cacto', price: 990, description: 'Pouca água' })).body.id as number;
    const catalog = await d.ana.api.post(`/messages/${t.id}/catalog`, { body: 'Temos:', productIds: [fern, cactus] });
    expect(catalog.status, JSON.stringify(catalog.body)).to.equal(200);
    await eventually('both sends', async () => d.sent().length === 2);
    const byTo = Object.fromEntries(d.sent().map((s) => [s.to, s.content.body]));
    expect(byTo).to.deep.equal({
      '5511966660005': 'Olha isso',
      '5511966660004': 'Temos:\n\n1. *Samambaia* — R$\u00a025,00\n2. *Cacto* — R$\u00a09,90\n   Pouca água',
    });
  });

  it("sends a category of the catalog; another company's category is not found (404), an empty one of ours is 422", async () => {
    const d = await sandboxDesk(b);
    const t = await d.inbound('5511966660009', 'Quero ver');
    const plants = (await d.admin.post('/categories', { name: 'Plantas' })).body.id as number;
    const empty = (await d.admin.post('/categories', { name: 'Vasos' })).body.id as number;
    await d.admin.post('/products', { name: 'Samambaia', price: 2500, categoryId: plants });
    const beta = await newCompanyWithAdmin(b);
    const theirs = await beta.api.post('/categories', { name: 'Deles' });
    await beta.api.post('/products', { name: 'Orquídea', price: 9000, categoryId: theirs.body.id });
    const refused = await d.ana.api.post(`/messages/${t.id}/catalog`, { categoryId: theirs.body.id });
    expect([refused.status, refused.body]).to.deep.equal([404, { error: 'ERR_CATEGORY_NOT_FOUND' }]);
    expect((await d.ana.api.post(`/messages/${t.id}/catalog`, { categoryId: 2_000_000_000 })).body).to.deep.equal({ error: 'ERR_CATEGORY_NOT_FOUND' });
    const none = await d.ana.api.post(`/messages/${t.id}/catalog`, { categoryId: empty });
    expect([none.status, none.body]).to.deep.equal([422, { error: 'ERR_INVALID_CATALOG_ITEMS' }]);
    const sent = await d.ana.api.post(`/messages/${t.id}/catalog`, { categoryId: plants });
    expect(sent.status, JSON.stringify(sent.body)).to.equal(200);
    await eventually('the send', async () => d.sent().length === 1);
    expect(d.sent()[0]!.content.body).to.equal('1. *Samambaia* — R$\u00a025,00');
  });

  it("counts the messages sent and received as the Dashboard asks (fromMe, days in the company's time zone), answering count[0].count", async () => {
    const d = await sandboxDesk(b);
    const t1 = await d.inbound('5511966660010', 'Oi');
    await d.ana.api.post(`/messages/${t1.id}`, { body: 'Olá' });
    await d.ana.api.post(`/messages/${t1.id}`, { body: 'Tudo bem?' });
    const t2 = await d.inbound('5511966660011', 'Bom dia');
    const messages = [...(await d.admin.get(`/messages/${t1.id}`)).body.messages, ...(await d.admin.get(`/messages/${t2.id}`)).body.messages] as Array<{
      fromMe: boolean;
      createdAt: string;
    }>;
    expect(messages.map((m) => m.fromMe).sort()).to.deep.equal([false, false, true, true]);
    const counted = async (api: typeof d.admin, query: Record<string, string> = {}) => {
      const res = await api.get(`/messages-allMe?${new URLSearchParams(query)}`);
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      return res.body.count[0].count as number;
    };
    expect([await counted(d.admin), await counted(d.admin, { fromMe: 'true' }), await counted(d.admin, { fromMe: 'false' })]).to.deep.equal([4, 2, 2]);
    // Ana's dashboard (not enabled for her) counts the ticket she took; once enabled, the company's.
    expect([await counted(d.ana.api, { fromMe: 'true' }), await counted(d.ana.api, { fromMe: 'false' })]).to.deep.equal([2, 1]);
    expect((await d.admin.put(`/users/${d.ana.id}`, { showDashboard: 'enabled' })).status).to.equal(200);
    expect(await counted(d.ana.api, { fromMe: 'false' })).to.equal(2);
    // Days are the company's: one of these zones is on another date than UTC at any hour, so only local days count these messages.
    const dayIn = (zone: string, iso: string) =>
      new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(iso));
    for (const zone of ['Pacific/Kiritimati', 'Pacific/Pago_Pago']) {
      expect((await d.admin.put('/settings/timezone', { value: zone })).status).to.equal(200);
      for (const day of new Set(messages.map((m) => dayIn(zone, m.createdAt)))) {
        const sent = messages.filter((m) => m.fromMe && dayIn(zone, m.createdAt) === day).length;
        const received = messages.filter((m) => !m.fromMe && dayIn(zone, m.createdAt) === day).length;
        expect(
          [await counted(d.admin, { fromMe: 'true', dateStart: day, dateEnd: day }), await counted(d.admin, { fromMe: 'false', dateStart: day, dateEnd: day })],
          `${zone} ${day}`,
        ).to.deep.equal([sent, received]);
      }
    }
    expect(await counted(d.admin, { dateStart: '2020-01-01', dateEnd: '2020-01-31' })).to.equal(0);
    for (const query of ['fromMe=maybe', 'dateStart=2026-13-01', 'dateStart=2026-03-11&dateEnd=2026-03-10']) {
      const res = await d.admin.get(`/messages-allMe?${query}`);
      expect(res.status, query).to.equal(422);
      expect(res.body.error).to.be.a('string');
    }
  });

  it('keeps tenants apart and answers bad input with 4xx', async () => {
    const d = await sandboxDesk(b);
    const t = await d.inbound('5511966660006', 'Oi');
    const message = (await d.admin.get(`/messages/${t.id}`)).body.messages[0];
    const o = (await newCompanyWithAdmin(b)).api;
    for (const res of [
      await o.get(`/messages/${t.id}`),
      await o.post(`/messages/${t.id}`, { body: 'x' }),
      await o.get(`/messages/media?ticketId=${t.id}`),
      await o.delete(`/messages/${message.id}`),
      await o.post(`/messages/edit/${message.id}`, { body: 'x' }),
      await o.post('/message/forward', { messageId: message.id, contactId: t.contactId }),
      await o.post(`/messages/${t.id}/catalog`, { productIds: [1] }),
    ])
      expect(res.status, JSON.stringify(res.body)).to.equal(404);
    expect((await o.get('/messages-allMe')).body).to.deep.equal({ count: [{ count: 0 }] });
    const bad = [
      await d.admin.post(`/messages/${t.id}`, {}),
      await d.admin.post(`/messages/${t.id}`, { body: 42 }),
      await d.admin.get('/messages/media'),
      await d.admin.post('/message/forward', { messageId: message.id, contactId: 'x' }),
      await d.admin.post(`/messages/${t.id}/catalog`, { productIds: [] }),
      await d.admin.post(`/messages/${t.id}/catalog`, {}),
      await d.admin.post(`/messages/edit/${message.id}`, {}),
      await d.admin.get('/messages/abc'),
      await d.admin.post(`/messages/${t.id}`, { body: 'x', quotedMsgId: '00000000-0000-4000-8000-000000000000' }),
    ];
    for (const res of bad) {
      expect(res.status, JSON.stringify(res.body)).to.equal(422);
      expect(res.body.error).to.be.a('string');
    }
    expect((await d.admin.post(`/messages/${t.id}`, '{"body":')).status).to.equal(400);
    expect((await d.admin.delete('/messages/00000000-0000-4000-8000-000000000000')).status).to.equal(404);
    expect(d.sent()).to.deep.equal([]);
  });
});
