import { expect } from 'chai';
import { openNamespace } from '../support/namespace-client.js';
import { eventually, sandboxDesk } from '../support/sandbox-conversations.js';
import { client, login, newCompanyWithAdmin, startTestBackend, type TestBackend } from '../support/test-backend.js';

describe('HTTP: contacts', () => {
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

  it('creates, pages, searches, shows, changes and deletes contacts, telling the namespace each time', async () => {
    const a = await newCompanyWithAdmin(b);
    const ns = await openNamespace(b.url, a.company.id, a.token);
    const created = await a.api.post('/contacts', {
      name: 'Joana Araújo',
      number: '+55 (11) 98888-7777',
      email: 'Joana@X.test',
      extraInfo: [{ name: 'CPF', value: '1' }],
    });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    expect(created.body).to.deep.include({ name: 'Joana Araújo', number: '5511988887777', email: 'joana@x.test', active: true, blocked: false, tags: [] });
    const id = created.body.id as number;
    for (let i = 0; i < 22; i++) await a.api.post('/contacts', { name: `Cliente ${String(i).padStart(2, '0')}`, number: `55219${String(60_000_000 + i)}` });
    const page = await a.api.get('/contacts');
    expect(page.body).to.deep.include({ count: 23, hasMore: true });
    expect(page.body.contacts).to.have.length(20);
    expect((await a.api.get('/contacts?pageNumber=2')).body).to.deep.include({ count: 23, hasMore: false });
    expect((await a.api.get('/contacts?searchParam=JOANA%20ARAUJO')).body.contacts.map((c: { id: number }) => c.id)).to.deep.equal([id]);
    expect((await a.api.get(`/contacts?searchParam=${encodeURIComponent('(11) 98888')}`)).body.count).to.equal(1);
    const choices = await a.api.get('/contacts/list?searchParam=cliente');
    expect(choices.body).to.have.length(22);
    expect(choices.body[0]).to.deep.equal({ id: choices.body[0].id, name: 'Cliente 00', number: '5521960000000' });
    const shown = await a.api.get(`/contacts/${id}`);
    expect(shown.body.identifiers).to.deep.equal([{ kind: 'phone', value: '5511988887777', pageId: null }]);
    const changed = await a.api.put(`/contacts/${id}`, { name: 'Joana A.', identifiers: [{ kind: 'lid', value: '201234567890123' }] });
    expect(changed.status, JSON.stringify(changed.body)).to.equal(200);
    expect(changed.body.identifiers.map((i: { kind: string }) => i.kind)).to.deep.equal(['phone', 'lid']);
    expect((await a.api.post('/contacts', { name: 'Dup', number: '551188887777' })).body).to.deep.equal({ error: 'ERR_DUPLICATED_CONTACT' });
    expect((await a.api.get(`/contactTags/${id}`)).body).to.deep.equal({ contactId: id, tags: [] });
    expect((await a.api.delete(`/contacts/${id}`)).status).to.equal(200);
    expect((await a.api.get(`/contacts/${id}`)).status).to.equal(404);
    await ns.waitFor((f) => f.event === `company-${a.company.id}-contact` && f.data.action === 'delete');
    const actions = ns.of('contact').map((f) => f.data.action);
    expect(actions.filter((x) => x === 'create')).to.have.length(23);
    expect(actions.slice(-2)).to.deep.equal(['update', 'delete']);
    expect(ns.of('contact')[0]!.data.contact).to.include({ id, name: 'Joana Araújo' });
    ns.close();
  });

  it('toggles audio and bot, blocks, hands the contact to an operator and links it to a user; operators may not do admin things', async () => {
    const a = await newCompanyWithAdmin(b);
    const op = await a.api.post('/users', { name: 'Operadora', email: 'op@contacts.test', password: 'operator-pass-1' });
    const opApi = client(b.url, (await login(b.url, 'op@contacts.test', 'operator-pass-1')).token);
    const id = (await opApi.post('/contacts', { name: 'Ana', number: '5511977776666' })).body.id as number;
    expect((await opApi.put(`/contacts/toggleAcceptAudio/${id}`)).body.acceptAudioMessage).to.equal(false);
    expect((await opApi.put(`/contacts/toggleAcceptAudio/${id}`, { acceptAudioMessage: false })).body.acceptAudioMessage).to.equal(false);
    expect((await opApi.put(`/contacts/toggleDisableBot/${id}`)).body.disableBot).to.equal(true);
    expect((await opApi.put(`/contacts/block/${id}`, { active: false })).body).to.include({ blocked: true, active: false });
    expect((await opApi.put(`/contacts/block/${id}`)).body.blocked).to.equal(false);
    expect((await opApi.put(`/contact-wallet/${id}`, { userId: op.body.id })).status).to.equal(403);
    expect((await opApi.delete(`/contacts/${id}`)).status).to.equal(403);
    expect((await a.api.put(`/contact-wallet/${id}`, { userId: op.body.id })).body.walletUserId).to.equal(op.body.id);
    expect((await a.api.put(`/contact-wallet/${id}`, { userId: null })).body.walletUserId).to.equal(null);
    expect((await a.api.put(`/contacts/${id}/link-user`, { userId: op.body.id })).body.linkedUserId).to.equal(op.body.id);
    const other = (await a.api.post('/contacts', { name: 'Bia', number: '5511966665555' })).body.id as number;
    expect((await a.api.put(`/contacts/${other}/link-user`, { userId: op.body.id })).body).to.deep.equal({ error: 'ERR_USER_ALREADY_LINKED' });
    expect((await a.api.put(`/contacts/${id}/unlink-user`)).body.linkedUserId).to.equal(null);
    expect((await a.api.put(`/contacts/${other}/link-user`, { userId: op.body.id })).status).to.equal(200);
  });

  it("takes what the lineage client's forms send: a new contact's form values, the GET answer sent back on edit, its list filters", async () => {
    const a = await newCompanyWithAdmin(b);
    const created = await a.api.post('/contacts', {
      name: 'Joana',
      number: '5511988887777',
      email: '',
      disableBot: true,
      lgpdAcceptedAt: '',
      companyId: 999,
      chatappId: 3,
      extraInfo: [
        { name: 'CPF', value: '1' },
        { name: '', value: '' },
      ],
      acceptAudioMessage: false,
    });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    expect(created.body).to.deep.include({
      companyId: a.company.id,
      email: null,
      disableBot: true,
      acceptAudioMessage: false,
      urlPicture: null,
      active: true,
      extraInfo: [{ name: 'CPF', value: '1' }],
    });
    expect(created.body).to.not.have.any.keys('profilePicUrl', 'acceptAudio');
    const id = created.body.id as number;
    const tag = (await a.api.post('/tags', { name: 'VIP', color: '#ff0000' })).body.id as number;
    expect((await a.api.post('/tags/sync', { contactId: id, tags: [{ id: tag }] })).status).to.be.within(200, 299);
    await a.api.put(`/contacts/${id}`, { identifiers: [{ kind: 'lid', value: '201234567890123' }] });
    const shown = (await a.api.get(`/contacts/${id}`)).body;
    const edited = await a.api.put(`/contacts/${id}`, { ...shown, name: 'Joana Araújo', extraInfo: [...shown.extraInfo, { name: 'Plano', value: 'Ouro' }] });
    expect(edited.status, JSON.stringify(edited.body)).to.equal(200);
    expect(edited.body).to.deep.include({
      id,
      name: 'Joana Araújo',
      createdAt: shown.createdAt,
      extraInfo: [
        { name: 'CPF', value: '1' },
        { name: 'Plano', value: 'Ouro' },
      ],
    });
    expect(edited.body.identifiers).to.deep.equal(shown.identifiers);
    expect(edited.body.tags.map((t: { id: number }) => t.id)).to.deep.equal([tag]);
    expect((await a.api.put(`/contacts/${id}`, { ...edited.body, active: false })).body).to.include({ active: false, blocked: true });
    await a.api.put(`/contacts/block/${id}`, { active: true });
    await a.api.post('/contacts', { name: 'Bruno', number: '5511977776666' });
    const page = await a.api.get(`/contacts/?searchParam=&pageNumber=1&contactTag=${encodeURIComponent(JSON.stringify([tag]))}`);
    expect(page.status, JSON.stringify(page.body)).to.equal(200);
    expect(page.body).to.deep.include({ count: 1, hasMore: false });
    expect(page.body.contacts[0]).to.deep.include({ id, urlPicture: null, acceptAudioMessage: false });
    expect((await a.api.get('/contacts?contactTag=%5B%5D&searchParam=')).body.count).to.equal(2);
    expect((await a.api.get(`/contacts?contactTag[]=${tag}`)).body.count).to.equal(1);
    expect((await a.api.get('/contacts?searchParam=bru&channel=whatsapp&isGroup=false')).body.count).to.equal(1);
    expect((await a.api.get('/contacts?isGroup=true')).body.count).to.equal(0);
    const today = new Date().toISOString().slice(0, 10);
    expect((await a.api.get(`/contacts?dateStart=${today}&dateEnd=${today}`)).body.count).to.equal(2);
    expect((await a.api.get('/contacts?dateStart=2001-01-01&dateEnd=2001-01-31')).body.count).to.equal(0);
    expect((await a.api.get('/contacts?dateStart=2001-02-30')).body).to.deep.include({ error: 'ERR_INVALID_DATE' });
  });

  it('keeps companies apart and answers bad input with a 4xx error', async () => {
    const a = await newCompanyWithAdmin(b);
    const o = await newCompanyWithAdmin(b);
    const id = (await a.api.post('/contacts', { name: 'Ana', number: '5511977776666' })).body.id as number;
    const foreign = [
      await o.api.get(`/contacts/${id}`),
      await o.api.put(`/contacts/${id}`, { name: 'x' }),
      await o.api.delete(`/contacts/${id}`),
      await o.api.put(`/contacts/toggleAcceptAudio/${id}`),
      await o.api.put(`/contacts/toggleDisableBot/${id}`),
      await o.api.put(`/contacts/block/${id}`),
      await o.api.get(`/contactTags/${id}`),
      await o.api.put(`/contact-wallet/${id}`, { userId: o.admin.id }),
      await o.api.put(`/contacts/${id}/link-user`, { userId: o.admin.id }),
      await o.api.put(`/contacts/${id}/unlink-user`),
      await a.api.put(`/contact-wallet/${id}`, { userId: o.admin.id }),
      await a.api.put(`/contacts/${id}/link-user`, { userId: o.admin.id }),
    ];
    for (const res of foreign) expect(res.status, JSON.stringify(res.body)).to.equal(404);
    expect((await o.api.get('/contacts')).body.count).to.equal(0);
    expect((await o.api.get('/contacts/list')).body).to.deep.equal([]);
    const bad = [
      await a.api.post('/contacts', { name: 'x' }),
      await a.api.post('/contacts', { name: 'x', number: 'abc' }),
      await a.api.post('/contacts', { name: 'x', number: '5511911112222', email: 'nope' }),
      await a.api.post('/contacts', { name: 42, number: '5511911112222' }),
      await a.api.put(`/contacts/${id}`, { name: '' }),
      await a.api.put(`/contacts/${id}`, { identifiers: [{ kind: 'email', value: '1' }] }),
      await a.api.get('/contacts?contactTag=%5B%22x%22%5D'),
      await a.api.put(`/contacts/${id}`, { acceptAudioMessage: 'yes' }),
      await a.api.put(`/contacts/block/${id}`, { active: 'no' }),
      await a.api.put(`/contact-wallet/${id}`, {}),
      await a.api.put(`/contacts/${id}/link-user`, { userId: 'x' }),
      await a.api.get('/contacts/abc'),
      await a.api.get('/contacts?pageNumber=0'),
      await a.api.get('/contacts/list?limit=0'),
      await a.api.get('/contacts/profile/abc'),
    ];
    for (const res of bad) {
      expect(res.status, JSON.stringify(res.body)).to.be.within(400, 499);
      expect(res.body.error).to.be.a('string');
    }
    expect((await a.api.post('/contacts', '{"name":')).status).to.equal(400);
  });

  it("asks the sandbox for a number's profile and imports its address book, merging the ninth-digit form", async () => {
    const d = await sandboxDesk(b);
    const carla = await d.admin.post('/contacts', { name: 'Carla', number: '5511987650003' });
    const profile = await d.admin.get('/contacts/profile/5511987650003');
    expect(profile.status, JSON.stringify(profile.body)).to.equal(200);
    expect(profile.body).to.deep.include({
      number: '5511987650003',
      name: 'Sandbox 0003',
      urlPicture: 'https://sandbox.invalid/avatars/5511987650003.png',
      contactId: carla.body.id,
    });
    expect(profile.body.contact).to.include({ id: carla.body.id, urlPicture: 'https://sandbox.invalid/avatars/5511987650003.png' });
    expect((await d.admin.get(`/contacts/profile/5511987650001?chatappId=${d.connectionId}`)).body.name).to.equal('Ana Sandbox');
    expect((await d.admin.get('/contacts/profile/5511987650001?chatappId=999999')).status).to.equal(404);
    const started = await d.ana.api.post('/contacts/import', {});
    expect(started.status, JSON.stringify(started.body)).to.equal(202);
    expect(started.body).to.include({ source: 'addressBook', total: 4, status: 'running' });
    const report = await eventually('the address book import', async () => {
      const res = await d.ana.api.post('/contactsImport', { importId: started.body.importId });
      return res.body.status === 'done' && res.body;
    });
    expect(report).to.include({ created: 3, merged: 1, failed: 0 });
    const names = (await d.admin.get('/contacts/list')).body.map((c: { name: string }) => c.name);
    expect(names).to.deep.equal(['Ana Sandbox', 'Bruno Sandbox', 'Carla', 'Davi Sandbox']);
    const o = await newCompanyWithAdmin(b);
    expect((await o.api.post('/contacts/import', {})).body).to.deep.equal({ error: 'ERR_NO_DEFAULT_CONNECTION' });
    expect((await o.api.post('/contactsImport', { importId: started.body.importId })).status).to.equal(404);
  });

  it('routes an inbound message without the ninth digit to the contact stored with it', async () => {
    const d = await sandboxDesk(b);
    const ana = await d.admin.post('/contacts', { name: 'Ana Nove', number: '5511988887777' });
    b.sandbox!.inject(d.connectionId, { from: '551188887777', body: 'Oi, sou eu', senderName: 'Ana sem nove' });
    const ticket = await eventually('the ticket', async () => (await d.admin.get('/tickets?showAll=true&searchParam=Ana%20Nove')).body.tickets[0]);
    expect(ticket.contactId).to.equal(ana.body.id);
    expect(ticket.contact).to.include({ name: 'Ana Nove', number: '5511988887777' });
    expect((await d.admin.get('/contacts')).body.count).to.equal(1);
  });

  it("stores a blocked contact's inbound messages on a closed ticket and opens none", async () => {
    const d = await sandboxDesk(b, { greetingMessage: 'Bem-vindo!' });
    const spam = await d.admin.post('/contacts', { name: 'Spammer', number: '5511955554444' });
    await d.admin.put(`/contacts/block/${spam.body.id}`, { active: false });
    b.sandbox!.inject(d.connectionId, { from: '5511955554444', body: 'compre já' });
    const held = await eventually('the held message', async () => {
      const closed = (await d.admin.get('/tickets?showAll=true&status=closed&searchParam=Spammer')).body.tickets;
      return closed.length === 1 && closed[0];
    });
    expect(held).to.include({ contactId: spam.body.id, status: 'closed', unreadMessages: 0 });
    const messages = (await d.admin.get(`/messages/${held.id}`)).body.messages.map((m: { body: string }) => m.body);
    expect(messages).to.deep.equal(['compre já']);
    expect(
      (await d.admin.get('/tickets?showAll=true&searchParam=Spammer')).body.tickets.filter((t: { status: string }) => t.status !== 'closed'),
    ).to.deep.equal([]);
    // Another contact writing afterwards is greeted; the greeting goes out after anything the blocked one caused.
    b.sandbox!.inject(d.connectionId, { from: '5511955553333', body: 'bom dia' });
    await eventually('the greeting of the other contact', async () => d.sent().length > 0);
    expect(d.sent().map((s) => [s.to, s.content.body])).to.deep.equal([['5511955553333', 'Bem-vindo!']]);
  });
});
