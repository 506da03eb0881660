import { expect } from 'chai';
import ExcelJS from 'exceljs';
import type { SqlEntityManager } from '@mikro-orm/postgresql';
import { requestScope } from '../../src/container.js';
import { openNamespace } from '../support/namespace-client.js';
import { eventually, sandboxDesk } from '../support/sandbox-conversations.js';
import { asSuper, client, login, newCompanyWithAdmin, startTestBackend, type Reply, type TestBackend } from '../support/test-backend.js';

function form(file: Buffer | string, filename: string) {
  const f = new FormData();
  f.append('file', new Blob([file]), filename);
  return f;
}

const expectError = (res: Reply, status: number, error: string) => {
  expect(res.status, JSON.stringify(res.body)).to.equal(status);
  expect(res.body).to.deep.equal({ error });
};

/** Runs SQL on the test backend's database (to write a campaign row, which another feature owns). */
async function sql(b: TestBackend, query: string, params: unknown[]) {
  return requestScope(b.infra.db)(() => (b.infra.db.orm.em.getContext() as unknown as SqlEntityManager).execute(query, params));
}

describe('HTTP: contact lists and their items', () => {
  let b: TestBackend;
  // The number check stays out of the way here (its own suite below runs it often): it runs once
  // right after each reset, on nothing yet, and then not for an hour.
  before(async () => {
    b = await startTestBackend({ CONTACT_LIST_CHECK_INTERVAL_MS: '3600000' });
  });
  after(async () => {
    await b.close();
  });
  beforeEach(async () => {
    await b.reset();
    await eventually("the number check's first run", async () => {
      const [job] = (await sql(b, `select run_at > now() + interval '1 minute' as later from jobs where name = 'contact-lists.check-numbers'`, [])) as Array<{
        later: boolean;
      }>;
      return job?.later === true;
    });
  });

  it('admins create, page, show, rename and delete lists and items as the lineage client reads them; events reach admins only', async () => {
    const a = await newCompanyWithAdmin(b);
    const op = await a.api.post('/users', { name: 'Op', email: `op-${a.company.id}@x.test`, password: 'operator-pass-1', profile: 'user' });
    expect(op.status, JSON.stringify(op.body)).to.equal(201);
    const created = await a.api.post('/contact-lists', { name: 'Clientes 2025' });
    expect(created.status, JSON.stringify(created.body)).to.equal(200);
    expect(created.body).to.include({ name: 'Clientes 2025', companyId: a.company.id, contactsCount: 0, lastImport: null });
    const listId = created.body.id as number;
    const ns = await openNamespace(b.url, a.company.id, a.token);
    const item = await a.api.post('/contact-list-items', {
      name: 'Maria',
      number: '+55 (11) 98888-7777',
      email: 'MARIA@x.test',
      contactListId: String(listId),
      companyId: 999,
    });
    expect(item.status, JSON.stringify(item.body)).to.equal(200);
    expect(item.body).to.include({
      contactListId: listId,
      name: 'Maria',
      number: '5511988887777',
      email: 'maria@x.test',
      isChatappValid: false,
      validity: 'unknown',
    });
    await ns.waitFor((f) => f.event === `company-${a.company.id}-ContactListItem` && f.data.action === 'create' && f.data.record.id === item.body.id);
    await ns.waitFor((f) => f.event === `company-${a.company.id}-ContactList` && f.data.action === 'update' && f.data.record.contactsCount === 1);
    const edited = await a.api.put(`/contact-list-items/${item.body.id}`, { ...item.body, name: 'Maria Souza', companyId: a.company.id, contactListId: 12345 });
    expect(edited.status, JSON.stringify(edited.body)).to.equal(200);
    expect(edited.body).to.include({ name: 'Maria Souza', contactListId: listId, number: '5511988887777' });
    const page = await a.api.get(`/contact-list-items?searchParam=&pageNumber=1&contactListId=${listId}`);
    expect(page.body).to.deep.equal({ contacts: [edited.body], count: 1, hasMore: false });
    expect((await a.api.get(`/contact-list-items/list?companyId=999&contactListId=${listId}`)).body).to.deep.equal([edited.body]);
    expect((await a.api.get(`/contact-list-items/${item.body.id}`)).body).to.deep.equal(edited.body);
    const shown = (await a.api.get(`/contact-lists/${listId}`)).body;
    expect(shown).to.include({ contactsCount: 1, unknownCount: 1 });
    const renamed = await a.api.put(`/contact-lists/${listId}`, { ...shown, name: 'Clientes VIP' });
    expect(renamed.body).to.include({ id: listId, name: 'Clientes VIP', contactsCount: 1 });
    expect((await a.api.get('/contact-lists?searchParam=vip&pageNumber=1')).body).to.deep.equal({ records: [renamed.body], count: 1, hasMore: false });
    expect((await a.api.get('/contact-lists/list?companyId=999')).body).to.deep.equal([renamed.body]);
    expect((await a.api.delete(`/contact-list-items/${item.body.id}`)).body).to.deep.equal({ message: 'Contact deleted' });
    await ns.waitFor((f) => f.event === `company-${a.company.id}-ContactListItem` && f.data.action === 'delete' && f.data.id === item.body.id);
    expect((await a.api.delete(`/contact-lists/${listId}`)).body).to.deep.equal({ message: 'Contact list deleted' });
    const gone = await ns.waitFor((f) => f.event === `company-${a.company.id}-ContactList` && f.data.action === 'delete');
    expect(gone.data).to.deep.equal({ action: 'delete', id: listId });
    expectError(await a.api.get(`/contact-lists/${listId}`), 404, 'ERR_NO_CONTACT_LIST_FOUND');
    ns.close();

    const opToken = (await login(b.url, `op-${a.company.id}@x.test`, 'operator-pass-1')).token;
    const operator = client(b.url, opToken);
    const opNs = await openNamespace(b.url, a.company.id, opToken);
    expectError(await operator.get('/contact-lists'), 403, 'ERR_NO_PERMISSION');
    expectError(await operator.post('/contact-lists', { name: 'Mine' }), 403, 'ERR_NO_PERMISSION');
    expectError(await operator.get('/contact-list-items'), 403, 'ERR_NO_PERMISSION');
    const later = await a.api.post('/contact-lists', { name: 'Depois' });
    const marker = await a.api.post('/tags', { name: 'Marker', color: '#123456' });
    await opNs.waitFor((f) => f.event === `company-${a.company.id}-tag` && f.data.tag.id === marker.body.id);
    expect(
      opNs.frames.filter((f) => /-ContactList/.test(f.event)),
      `${later.body.id}`,
    ).to.deep.equal([]);
    opNs.close();
  });

  it("answers another company's lists and items with 404, and writes nothing there", async () => {
    const a = await newCompanyWithAdmin(b);
    const o = await newCompanyWithAdmin(b);
    const list = (await a.api.post('/contact-lists', { name: 'Deles' })).body;
    const item = (await a.api.post('/contact-list-items', { number: '5511988887777', contactListId: list.id })).body;
    for (const res of [
      await o.api.get(`/contact-lists/${list.id}`),
      await o.api.put(`/contact-lists/${list.id}`, { name: 'Minha' }),
      await o.api.delete(`/contact-lists/${list.id}`),
      await o.api.post(`/contact-lists/${list.id}/upload`, form('numero\n5511977776666\n', 'x.csv')),
      await o.api.get(`/contact-list-items?contactListId=${list.id}`),
      await o.api.get(`/contact-list-items/list?contactListId=${list.id}`),
      await o.api.post('/contact-list-items', { number: '5511977776666', contactListId: list.id }),
    ])
      expectError(res, 404, 'ERR_NO_CONTACT_LIST_FOUND');
    for (const res of [
      await o.api.get(`/contact-list-items/${item.id}`),
      await o.api.put(`/contact-list-items/${item.id}`, { name: 'Mine' }),
      await o.api.delete(`/contact-list-items/${item.id}`),
    ])
      expectError(res, 404, 'ERR_NO_CONTACT_LIST_ITEM_FOUND');
    expect((await o.api.get('/contact-lists')).body).to.deep.equal({ records: [], count: 0, hasMore: false });
    expect((await o.api.get('/contact-list-items')).body).to.deep.equal({ contacts: [], count: 0, hasMore: false });
    expect((await a.api.get(`/contact-lists/${list.id}`)).body).to.include({ name: 'Deles', contactsCount: 1, lastImport: null });
    expect((await a.api.get(`/contact-list-items/${item.id}`)).body).to.deep.equal(item);
  });

  it("refuses every route with 403 when the company's plan has no campaigns", async () => {
    const { api: root } = await asSuper(b);
    const plan = await root.post('/plans', { name: 'Sem campanhas', users: 5, connections: 2, queues: 3, amount: '10.00', useCampaigns: false });
    expect(plan.status, JSON.stringify(plan.body)).to.equal(201);
    const small = await newCompanyWithAdmin(b, { planId: plan.body.id });
    for (const res of [
      await small.api.get('/contact-lists/list'),
      await small.api.get('/contact-lists'),
      await small.api.get('/contact-lists/1'),
      await small.api.post('/contact-lists', { name: 'x' }),
      await small.api.post('/contact-lists/1/upload', form('numero\n5511977776666\n', 'x.csv')),
      await small.api.put('/contact-lists/1', { name: 'x' }),
      await small.api.delete('/contact-lists/1'),
      await small.api.get('/contact-list-items/list?contactListId=1'),
      await small.api.get('/contact-list-items'),
      await small.api.get('/contact-list-items/1'),
      await small.api.post('/contact-list-items', { number: '5511977776666', contactListId: 1 }),
      await small.api.put('/contact-list-items/1', {}),
      await small.api.delete('/contact-list-items/1'),
    ])
      expectError(res, 403, 'ERR_PLAN_FEATURE_DISABLED');
  });

  it('refuses bad input with a 4xx and its code', async () => {
    const a = await newCompanyWithAdmin(b);
    const list = (await a.api.post('/contact-lists', { name: 'Lista' })).body;
    const ana = (await a.api.post('/contact-list-items', { number: '5511988887777', contactListId: list.id, name: 'Ana' })).body;
    const bia = (await a.api.post('/contact-list-items', { number: 5511977776666, contactListId: list.id })).body;
    expect(bia).to.include({ name: '5511977776666', number: '5511977776666' });
    expectError(await a.api.post('/contact-lists', { name: '  ' }), 422, 'ERR_INVALID_CONTACT_LIST_NAME');
    expect((await a.api.post('/contact-lists', {})).body.error).to.equal('ERR_VALIDATION');
    expect((await a.api.get('/contact-lists/abc')).status).to.equal(422);
    expect((await a.api.get('/contact-list-items/list')).body.error).to.equal('ERR_VALIDATION');
    expect((await a.api.post('/contact-list-items', { number: '5511966665555' })).body.error).to.equal('ERR_VALIDATION');
    expectError(await a.api.post('/contact-list-items', { number: '551188887777', contactListId: list.id }), 409, 'ERR_CONTACT_LIST_ITEM_DUPLICATE');
    expectError(await a.api.put(`/contact-list-items/${bia.id}`, { number: '5511988887777' }), 409, 'ERR_CONTACT_LIST_ITEM_DUPLICATE');
    expectError(await a.api.post('/contact-list-items', { number: 'abc', contactListId: list.id }), 422, 'ERR_INVALID_NUMBER');
    expectError(await a.api.post('/contact-list-items', { contactListId: list.id }), 422, 'ERR_MISSING_NUMBER');
    expectError(await a.api.post('/contact-list-items', { number: '5511966665555', email: 'x@', contactListId: list.id }), 422, 'ERR_INVALID_EMAIL');
    expectError(
      await a.api.post('/contact-list-items', { number: '5511966665555', contactListId: list.id, variables: { '': 'x' } }),
      422,
      'ERR_INVALID_CONTACT_LIST_VARIABLES',
    );
    expect((await a.api.post('/contact-list-items', { number: '5511966665555', contactListId: list.id, variables: { x: 1 } })).body.error).to.equal(
      'ERR_VALIDATION',
    );
    expectError(await a.api.post(`/contact-lists/${list.id}/upload`, form('Nome,Cidade\r\nAna,Santos\r\n', 'x.csv')), 422, 'ERR_IMPORT_NO_NUMBER_COLUMN');
    expectError(await a.api.post(`/contact-lists/${list.id}/upload`, form('Nome,Telefone\r\n', 'x.csv')), 422, 'ERR_IMPORT_EMPTY');
    expectError(
      await a.api.post(`/contact-lists/${list.id}/upload`, form(Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), 'old.xls')),
      422,
      'ERR_IMPORT_UNSUPPORTED_FILE',
    );
    expectError(
      await a.api.post(`/contact-lists/${list.id}/upload`, form(Buffer.from([0x50, 0x4b, 0x03, 0x04, 1, 2, 3]), 'broken.xlsx')),
      422,
      'ERR_IMPORT_INVALID_FILE',
    );
    expectError(await a.api.post(`/contact-lists/${list.id}/upload`, new FormData()), 422, 'ERR_IMPORT_NO_FILE');
    expectError(await a.api.post(`/contact-lists/${list.id}/upload`, { file: 'x' }), 415, 'ERR_UNSUPPORTED_CONTENT_TYPE');
    const wide = `numero,${Array.from({ length: 51 }, (_, i) => `c${i}`).join(',')}\r\n5511955554444${',x'.repeat(51)}\r\n`;
    expectError(await a.api.post(`/contact-lists/${list.id}/upload`, form(wide, 'wide.csv')), 422, 'ERR_INVALID_CONTACT_LIST_VARIABLES');
    expect((await a.api.get(`/contact-lists/${list.id}`)).body).to.include({ contactsCount: 2, lastImport: null });
    expect((await a.api.get(`/contact-list-items/${ana.id}`)).body.number).to.equal('5511988887777');
  });

  it('refuses to delete a list that a campaign which has not started will read', async () => {
    const a = await newCompanyWithAdmin(b);
    const list = (await a.api.post('/contact-lists', { name: 'Black Friday' })).body;
    const [campaign] = (await sql(
      b,
      `insert into campaigns (company_id, name, status, contact_list_id, created_at, updated_at) values (?, ?, 'PROGRAMADA', ?, now(), now()) returning id`,
      [a.company.id, 'Ofertas', list.id],
    )) as Array<{ id: number }>;
    expectError(await a.api.delete(`/contact-lists/${list.id}`), 409, 'ERR_CONTACT_LIST_IN_USE');
    await sql(b, `update campaigns set status = 'CANCELADA' where id = ?`, [campaign!.id]);
    expect((await a.api.delete(`/contact-lists/${list.id}`)).status).to.equal(200);
  });

  it('imports a CSV and an XLSX in the background: 202 at once, progress and done frames, duplicates merged, bad rows reported, extra columns as variables', async function () {
    this.timeout(60_000);
    const a = await newCompanyWithAdmin(b);
    const list = (await a.api.post('/contact-lists', { name: 'Importada' })).body;
    await a.api.post('/contact-list-items', { number: '5511988887777', contactListId: list.id, variables: { plano: 'prata' } });
    const ns = await openNamespace(b.url, a.company.id, a.token);
    const lines = ['Nome;Número;E-mail;Cidade;Plano'];
    for (let i = 0; i < 1200; i++) lines.push(`Cliente ${i};+55 (11) 9${String(70_000_000 + i).slice(0, 4)}-${String(70_000_000 + i).slice(4)};;Santos;ouro`);
    lines.push('Ana;551188887777;ana@x.test;Campinas;bronze', 'Repetida;5511970000000;;;', 'Sem número;;;;', 'Curto;1234;;;');
    const csv = Buffer.from(`${lines.join('\r\n')}\r\n`, 'latin1');
    const started = await a.api.post(`/contact-lists/${list.id}/upload`, form(csv, 'clientes.csv'));
    expect(started.status, JSON.stringify(started.body)).to.equal(202);
    expect(started.body).to.include({ status: 'pending', total: 1204, processed: 0, contactListId: list.id, fileName: 'clientes.csv' });
    const importId = started.body.importId as number;
    const done = await ns.waitFor(
      (f) => f.event === `company-${a.company.id}-contactListImport` && f.data.action === 'done' && f.data.importId === importId,
      30_000,
    );
    expect(done.data).to.deep.include({
      status: 'done',
      total: 1204,
      processed: 1204,
      created: 1200,
      duplicates: 2,
      invalid: 2,
      errors: [
        { row: 1204, reason: 'ERR_MISSING_NUMBER' },
        { row: 1205, reason: 'ERR_INVALID_NUMBER' },
      ],
    });
    const progress = ns
      .of('contactListImport')
      .filter((f) => f.data.action === 'progress' && f.data.importId === importId)
      .map((f) => f.data.processed);
    expect(progress).to.deep.equal([500, 1000, 1204]);
    const reload = await ns.waitFor(
      (f) => f.event === `company-${a.company.id}-ContactListItem` && f.data.action === 'reload' && f.data.contactListId === list.id && f.seq > done.seq,
    );
    expect(reload.data.records).to.have.length(20);
    const shown = (await a.api.get(`/contact-lists/${list.id}`)).body;
    expect(shown).to.include({ contactsCount: 1201, unknownCount: 1201 });
    expect(shown.lastImport).to.deep.include({ importId, status: 'done', created: 1200 });
    const ana = (await a.api.get('/contact-list-items?searchParam=ana')).body.contacts[0];
    expect(ana).to.deep.include({ name: 'Ana', number: '5511988887777', email: 'ana@x.test', variables: { plano: 'prata', cidade: 'Campinas' } });
    const row7 = (await a.api.get('/contact-list-items?searchParam=cliente%207')).body.contacts.find((c: { name: string }) => c.name === 'Cliente 7');
    expect(row7).to.deep.include({ number: '5511970000007', variables: { cidade: 'Santos', plano: 'ouro' } });

    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet('Contatos');
    sheet.addRow(['nome', 'numero', 'email', 'Empresa']);
    sheet.addRow(['Bruno', 5521977776666, null, 'ACME']);
    sheet.addRow(['Cliente 0 de novo', 5511970000000, 'c0@x.test', 'Outra']);
    const xlsx = Buffer.from(await book.xlsx.writeBuffer());
    const second = await a.api.post(`/contact-lists/${list.id}/upload`, form(xlsx, 'planilha.xlsx'));
    expect(second.status, JSON.stringify(second.body)).to.equal(202);
    const secondDone = await ns.waitFor(
      (f) => f.event === `company-${a.company.id}-contactListImport` && f.data.action === 'done' && f.data.importId === second.body.importId,
      30_000,
    );
    expect(secondDone.data).to.deep.include({ status: 'done', total: 2, created: 1, duplicates: 1, invalid: 0 });
    const bruno = (await a.api.get(`/contact-list-items?contactListId=${list.id}&searchParam=bruno`)).body.contacts[0];
    expect(bruno).to.deep.include({ number: '5521977776666', variables: { empresa: 'ACME' } });
    const c0 = (await a.api.get(`/contact-list-items?contactListId=${list.id}&searchParam=Cliente%200`)).body.contacts.find(
      (c: { number: string }) => c.number === '5511970000000',
    );
    expect(c0).to.deep.include({ name: 'Cliente 0', email: 'c0@x.test' });
    expect(c0.variables).to.deep.equal({ cidade: 'Santos', plano: 'ouro', empresa: 'Outra' });
    expect((await a.api.get(`/contact-lists/${list.id}`)).body.lastImport.importId).to.equal(second.body.importId);
    ns.close();
  });
});

describe("HTTP: the contact lists' number check, with the sandbox", () => {
  let b: TestBackend;
  before(async () => {
    b = await startTestBackend({ CONTACT_LIST_CHECK_INTERVAL_MS: '200', CONTACT_LIST_CHECKS_PER_COMPANY: '5' });
  });
  after(async () => {
    await b.close();
  });
  beforeEach(async () => {
    await b.reset();
  });

  it("checks new items on the default connection: found → valid in the provider's form, unknown → invalid; a session that is down → error, not invalid", async () => {
    const d = await sandboxDesk(b);
    const { token, user } = await asSuper(b);
    const companyId = user.companyId as number;
    const ns = await openNamespace(b.url, companyId, token);
    const list = (await d.admin.post('/contact-lists', { name: 'Checar' })).body;
    const old = (await d.admin.post('/contact-list-items', { number: '551188887777', contactListId: list.id, name: 'Sem nono' })).body;
    const short = (await d.admin.post('/contact-list-items', { number: '12345678', contactListId: list.id, name: 'Curto' })).body;
    expect(old).to.include({ validity: 'unknown', canonicalNumber: '5511988887777' });
    const checked = await eventually('both numbers checked', async () => {
      const items = (await d.admin.get(`/contact-list-items/list?contactListId=${list.id}`)).body as Array<Record<string, any>>;
      return items.every((i) => i.validity !== 'unknown') && items;
    });
    expect(checked.find((i) => i.id === old.id)).to.include({ validity: 'valid', isChatappValid: true, number: '5511988887777', validationError: null });
    expect(checked.find((i) => i.id === short.id)).to.include({ validity: 'invalid', isChatappValid: false });
    const reload = await ns.waitFor(
      (f) => f.event === `company-${companyId}-ContactListItem` && f.data.action === 'reload' && f.data.records.some((r: { id: number }) => r.id === old.id),
    );
    expect(reload.data.contactListId).to.equal(list.id);
    await ns.waitFor(
      (f) => f.event === `company-${companyId}-ContactList` && f.data.action === 'update' && f.data.record.validCount === 1 && f.data.record.invalidCount === 1,
    );

    expect((await d.admin.delete(`/chatappsession/${d.connectionId}`)).body.status).to.equal('DISCONNECTED');
    const down = (await d.admin.post('/contact-list-items', { number: '5521977776666', contactListId: list.id })).body;
    const failed = await eventually('the check to fail', async () => {
      const item = (await d.admin.get(`/contact-list-items/${down.id}`)).body;
      return item.validity !== 'unknown' && item;
    });
    expect(failed).to.include({ validity: 'error', isChatappValid: false, validationError: 'ERR_SESSION_NOT_CONNECTED' });
    expect((await d.admin.get(`/contact-lists/${list.id}`)).body).to.include({ validCount: 1, invalidCount: 1, errorCount: 1 });
    ns.close();
  });
});
