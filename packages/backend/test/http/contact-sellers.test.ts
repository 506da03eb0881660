import { expect } from 'chai';
import { openNamespace } from '../support/namespace-client.js';
import { eventually, sandboxDesk } from '../support/sandbox-conversations.js';
import { ADMIN, client, login, newCompanyWithAdmin, startTestBackend, type Reply, type TestBackend } from '../support/test-backend.js';

const expectError = (res: Reply, status: number, error: string) => {
  expect(res.status, JSON.stringify(res.body)).to.equal(status);
  expect(res.body).to.deep.equal({ error });
};

describe('HTTP: contact sellers', () => {
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

  async function operator(a: Awaited<ReturnType<typeof newCompanyWithAdmin>>, name: string) {
    const email = `${name.toLowerCase()}-${a.company.id}@sellers.test`;
    const res = await a.api.post('/users', { name, email, password: 'operator-pass-1', profile: 'user' });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    return { id: res.body.id as number, api: client(b.url, (await login(b.url, email, 'operator-pass-1')).token) };
  }

  it('routes a new conversation of a contact to its responsible seller, with DirectTicketsToWallets', async () => {
    const d = await sandboxDesk(b, { greetingMessage: 'Olá! Bem-vindo.' });
    const root = await login(b.url, ADMIN.email, ADMIN.password);
    const companyId = root.user.companyId as number;
    expect((await d.admin.put('/settings/DirectTicketsToWallets', { value: true })).status).to.equal(200);
    const contact = (await d.admin.post('/contacts', { name: 'Carla Dias', number: '5511977776666' })).body;
    const ns = await openNamespace(b.url, companyId, root.token);

    // Bia takes the unowned contact for herself; everyone reads who is responsible.
    const claimed = await d.bia.api.put(`/contact-sellers/assign/${contact.id}`, { userId: d.bia.id });
    expect(claimed.status, JSON.stringify(claimed.body)).to.equal(200);
    expect(claimed.body).to.deep.include({ contactId: contact.id, seller: { id: d.bia.id, name: 'Bia' }, assignedBy: { id: d.bia.id, name: 'Bia' } });
    expect((await d.ana.api.get(`/contact-sellers/responsible/${contact.id}`)).body).to.deep.equal(claimed.body);
    const frame = await ns.waitFor((f) => f.event === `company-${companyId}-contact` && f.data.action === 'update' && f.data.contact.id === contact.id);
    expect(frame.data.contact.walletUserId).to.equal(d.bia.id);
    expect((await d.admin.get(`/contacts/${contact.id}`)).body.walletUserId).to.equal(d.bia.id);

    const ticket = await d.inbound('5511977776666', 'Oi, quero comprar');
    expect(ticket).to.include({ status: 'open', userId: d.bia.id });
    await eventually('the greeting at the sandbox', () => d.sent().some((s) => s.to === '5511977776666' && s.content.body === 'Olá! Bem-vindo.'));
    expect((await d.bia.api.get('/tickets?status=open')).body.tickets.map((t: any) => t.id)).to.include(ticket.id);
    expect((await d.ana.api.get('/tickets?status=open')).body.tickets.map((t: any) => t.id)).to.not.include(ticket.id);

    // The composer fills a template's variables for that ticket: its contact, the caller.
    const template = (await d.admin.post('/company-templates', { shortcut: 'ola', message: 'Oi {{firstName}}, aqui é {{userName}}.', global: true })).body;
    expect((await d.bia.api.get(`/company-templates/${template.id}?ticketId=${ticket.id}`)).body.rendered).to.equal('Oi Carla, aqui é Bia.');
    expectError(await d.ana.api.get(`/company-templates/${template.id}?ticketId=${ticket.id}`), 403, 'ERR_NO_PERMISSION');

    // Without the setting, the next contact with a seller goes through the usual routing.
    expect((await d.admin.put('/settings/DirectTicketsToWallets', { value: false })).status).to.equal(200);
    const other = (await d.admin.post('/contacts', { name: 'Davi', number: '5511966665555' })).body;
    await d.admin.put(`/contact-sellers/assign/${other.id}`, { userId: d.ana.id });
    expect(await d.inbound('5511966665555', 'Oi')).to.include({ status: 'pending', userId: null });
    ns.close();
  });

  it('lists sellers, lets users take unowned contacts and hand over their own only, and keeps everything to the company', async () => {
    const a = await newCompanyWithAdmin(b);
    const beta = await newCompanyWithAdmin(b);
    const ana = await operator(a, 'Ana');
    const bia = await operator(a, 'Bia');
    const contact = (await a.api.post('/contacts', { name: 'Carla', number: '5511977776666' })).body;
    const theirs = (await beta.api.post('/contacts', { name: 'Deles', number: '5511977776666' })).body;

    const sellers = (await ana.api.get('/contact-sellers/sellers')).body;
    expect(sellers.map((s: any) => [s.name, s.profile])).to.deep.equal(
      [
        ['Ana', 'user'],
        ['Bia', 'user'],
        [a.admin.name, 'admin'],
      ].sort((x, y) => x[0]!.localeCompare(y[0]!)),
    );
    expect(sellers.find((s: any) => s.id === ana.id)).to.deep.equal({ id: ana.id, name: 'Ana', email: `ana-${a.company.id}@sellers.test`, profile: 'user' });
    expect((await beta.api.get('/contact-sellers/sellers')).body.map((s: any) => s.id)).to.deep.equal([beta.admin.id]);

    expect((await ana.api.get(`/contact-sellers/responsible/${contact.id}`)).body).to.deep.equal({
      contactId: contact.id,
      seller: null,
      since: null,
      assignedBy: null,
    });
    expectError(await ana.api.put(`/contact-sellers/assign/${contact.id}`, { userId: bia.id }), 403, 'ERR_NO_PERMISSION');
    expect((await ana.api.put(`/contact-sellers/assign/${contact.id}`, { userId: ana.id })).status).to.equal(200);
    expectError(await bia.api.put(`/contact-sellers/assign/${contact.id}`, { userId: bia.id }), 403, 'ERR_NO_PERMISSION');
    expectError(await bia.api.put(`/contact-sellers/assign/${contact.id}`, { userId: null }), 403, 'ERR_NO_PERMISSION');
    expect((await ana.api.put(`/contact-sellers/assign/${contact.id}`, { userId: bia.id })).body.seller).to.deep.equal({ id: bia.id, name: 'Bia' });
    expect((await a.api.put(`/contact-sellers/assign/${contact.id}`, { userId: null })).body).to.deep.include({
      seller: null,
      assignedBy: { id: a.admin.id, name: a.admin.name },
    });
    // The admins' own route writes the same owner, recorded the same way.
    expect((await a.api.put(`/contact-wallet/${contact.id}`, { userId: ana.id })).status).to.equal(200);
    expect((await bia.api.get(`/contact-sellers/responsible/${contact.id}`)).body).to.deep.include({
      seller: { id: ana.id, name: 'Ana' },
      assignedBy: { id: a.admin.id, name: a.admin.name },
    });

    expectError(await a.api.get(`/contact-sellers/responsible/${theirs.id}`), 404, 'ERR_NO_CONTACT_FOUND');
    expectError(await a.api.put(`/contact-sellers/assign/${theirs.id}`, { userId: ana.id }), 404, 'ERR_NO_CONTACT_FOUND');
    expectError(await a.api.put(`/contact-sellers/assign/${contact.id}`, { userId: beta.admin.id }), 404, 'ERR_NO_USER_FOUND');
    expectError(await beta.api.put(`/contact-sellers/assign/${contact.id}`, { userId: beta.admin.id }), 404, 'ERR_NO_CONTACT_FOUND');
    expect((await a.api.get(`/contacts/${contact.id}`)).body.walletUserId).to.equal(ana.id);
    expect((await beta.api.get(`/contacts/${theirs.id}`)).body.walletUserId).to.equal(null);

    expect((await a.api.put(`/contact-sellers/assign/${contact.id}`, {})).status).to.equal(422);
    expect((await a.api.put(`/contact-sellers/assign/${contact.id}`, { userId: 'ana' })).status).to.equal(422);
    expect((await a.api.put('/contact-sellers/assign/abc', { userId: ana.id })).status).to.equal(422);
    expect((await a.api.get('/contact-sellers/responsible/0')).status).to.equal(422);
  });
});
