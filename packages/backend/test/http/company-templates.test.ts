import { expect } from 'chai';
import { eventually } from '../support/eventually.js';
import { openNamespace } from '../support/namespace-client.js';
import { client, login, newCompanyWithAdmin, startTestBackend, type Reply, type TestBackend } from '../support/test-backend.js';

const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201e2a4d1a60000000049454e44ae426082',
  'hex',
);
const PDF = Buffer.from('%PDF-1.7\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n');

const expectError = (res: Reply, status: number, error: string) => {
  expect(res.status, JSON.stringify(res.body)).to.equal(status);
  expect(res.body).to.deep.equal({ error });
};

/** A multipart form with the template's fields (all text) and, optionally, its file in `media`. */
function form(fields: Record<string, string>, media?: { content: Buffer | string; filename: string; type: string }) {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.append(k, v);
  if (media) f.append('media', new Blob([media.content], { type: media.type }), media.filename);
  return f;
}

describe('HTTP: company templates', () => {
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
    const email = `${name.toLowerCase()}-${a.company.id}@templates.test`;
    const res = await a.api.post('/users', { name, email, password: 'operator-pass-1', profile: 'user' });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    const session = await login(b.url, email, 'operator-pass-1');
    return { id: res.body.id as number, token: session.token, api: client(b.url, session.token) };
  }

  it('creates (JSON and multipart), lists, shows, edits and deletes templates, each frame to those who may read it', async () => {
    const a = await newCompanyWithAdmin(b);
    const ana = await operator(a, 'Ana');
    const bia = await operator(a, 'Bia');
    const adminNs = await openNamespace(b.url, a.company.id, a.token);
    const biaNs = await openNamespace(b.url, a.company.id, bia.token);
    const event = `company-${a.company.id}-companyTemplate`;

    const global = await a.api.post('/company-templates', {
      shortcut: '/Promoção',
      message: 'Oi {{firstName}}, promo de hoje!',
      category: 'Vendas',
      global: true,
      userId: 999,
    });
    expect(global.status, JSON.stringify(global.body)).to.equal(200);
    expect(global.body).to.include({ shortcut: 'promocao', global: true, userId: a.admin.id, category: 'Vendas', companyId: a.company.id, mediaUrl: null });

    // Ana's personal template, with its file: the claimed type is ignored, the bytes decide.
    const personal = await ana.api.post(
      '/company-templates',
      form({ shortcut: 'tabela', message: 'Segue a tabela', global: 'false' }, { content: PDF, filename: 'tabela de preços.pdf', type: 'image/png' }),
    );
    expect(personal.status, JSON.stringify(personal.body)).to.equal(200);
    expect(personal.body).to.include({ global: false, userId: ana.id, mediaName: 'tabela de preços.pdf', mediaType: 'application/pdf', mediaSize: PDF.length });
    const served = await fetch(`${b.url}${new URL(personal.body.mediaUrl).pathname}`);
    expect(served.status).to.equal(200);
    expect(Buffer.from(await served.arrayBuffer()).equals(PDF)).to.equal(true);

    await adminNs.waitFor((f) => f.event === event && f.data.action === 'create' && f.data.record.id === personal.body.id);
    const biaGlobal = await biaNs.waitFor((f) => f.event === event && f.data.action === 'create');
    expect(biaGlobal.data).to.deep.equal({ action: 'create', record: global.body });

    expect((await ana.api.get('/company-templates')).body).to.deep.equal({ templates: [global.body, personal.body], count: 2, hasMore: false });
    expect((await bia.api.get('/company-templates?searchParam=TABELA')).body).to.deep.equal({ templates: [], count: 0, hasMore: false });
    expect((await a.api.get('/company-templates?searchParam=promo&pageNumber=1')).body.templates.map((t: any) => t.id)).to.deep.equal([global.body.id]);
    expect((await a.api.get(`/company-templates/${personal.body.id}`)).body).to.deep.equal(personal.body);

    // Ana replaces her file and renames; the old file is gone from storage.
    const edited = await ana.api.put(
      `/company-templates/${personal.body.id}`,
      form({ shortcut: 'tabela-2026' }, { content: PNG, filename: 'foto.png', type: 'image/png' }),
    );
    expect(edited.status, JSON.stringify(edited.body)).to.equal(200);
    expect(edited.body).to.include({ shortcut: 'tabela-2026', message: 'Segue a tabela', mediaType: 'image/png' });
    // Replaced files are deleted after the commit, as the answer goes out.
    const stored = () => b.infra.blobs.usage(`public/company-${a.company.id}/templates/`);
    await eventually('the replaced file to be deleted', async () => (await stored()) === PNG.length);
    const noFile = await ana.api.put(`/company-templates/${personal.body.id}`, { removeMedia: true });
    expect(noFile.body).to.include({ mediaUrl: null, mediaName: null });
    await eventually('the removed file to be deleted', async () => (await stored()) === 0);

    // Made personal (its creator's, the admin's), the global template leaves Bia's list: she is told it is gone.
    const personalNow = await a.api.put(`/company-templates/${global.body.id}`, { global: false });
    expect(personalNow.body).to.include({ global: false, userId: a.admin.id });
    expect((await biaNs.waitFor((f) => f.event === event && f.data.action === 'delete')).data).to.deep.equal({ action: 'delete', id: global.body.id });
    await adminNs.waitFor((f) => f.event === event && f.data.action === 'update' && f.data.record.id === global.body.id && f.data.record.global === false);
    expectError(await bia.api.get(`/company-templates/${global.body.id}`), 404, 'ERR_NO_COMPANY_TEMPLATE_FOUND');

    expect((await ana.api.delete(`/company-templates/${personal.body.id}`)).body).to.deep.equal({ message: 'Template deleted' });
    await adminNs.waitFor((f) => f.event === event && f.data.action === 'delete' && f.data.id === personal.body.id);
    expectError(await ana.api.get(`/company-templates/${personal.body.id}`), 404, 'ERR_NO_COMPANY_TEMPLATE_FOUND');

    // Bia never received a frame of Ana's template or of the admin's personal one: a later global frame reaches her after them.
    const last = await a.api.post('/company-templates', { shortcut: 'ultimo', message: 'fim', global: true });
    await biaNs.waitFor((f) => f.event === event && f.data.action === 'create' && f.data.record.id === last.body.id);
    const seen = biaNs.of('companyTemplate').map((f) => [f.data.action, f.data.record?.id ?? f.data.id]);
    expect(seen).to.deep.equal([
      ['create', global.body.id],
      ['delete', global.body.id],
      ['create', last.body.id],
    ]);
    adminNs.close();
    biaNs.close();
  });

  it('keeps templates to their company and personal ones to their owner (404), global ones to admins for changes (403)', async () => {
    const a = await newCompanyWithAdmin(b);
    const beta = await newCompanyWithAdmin(b);
    const ana = await operator(a, 'Ana');
    const bia = await operator(a, 'Bia');
    const global = (await a.api.post('/company-templates', { shortcut: 'g', message: 'global', global: true })).body;
    const anas = (await ana.api.post('/company-templates', { shortcut: 'a', message: 'da Ana' })).body;

    for (const id of [global.id, anas.id]) {
      expectError(await beta.api.get(`/company-templates/${id}`), 404, 'ERR_NO_COMPANY_TEMPLATE_FOUND');
      expectError(await beta.api.put(`/company-templates/${id}`, { message: 'roubado' }), 404, 'ERR_NO_COMPANY_TEMPLATE_FOUND');
      expectError(await beta.api.delete(`/company-templates/${id}`), 404, 'ERR_NO_COMPANY_TEMPLATE_FOUND');
    }
    expect((await beta.api.get('/company-templates')).body).to.deep.equal({ templates: [], count: 0, hasMore: false });
    expectError(await bia.api.get(`/company-templates/${anas.id}`), 404, 'ERR_NO_COMPANY_TEMPLATE_FOUND');
    expectError(await bia.api.put(`/company-templates/${anas.id}`, { message: 'x' }), 404, 'ERR_NO_COMPANY_TEMPLATE_FOUND');
    expectError(await bia.api.delete(`/company-templates/${anas.id}`), 404, 'ERR_NO_COMPANY_TEMPLATE_FOUND');
    expect((await a.api.get(`/company-templates/${anas.id}`)).body.id).to.equal(anas.id);
    expectError(await ana.api.put(`/company-templates/${global.id}`, { message: 'x' }), 403, 'ERR_NO_PERMISSION');
    expectError(await ana.api.delete(`/company-templates/${global.id}`), 403, 'ERR_NO_PERMISSION');
    expectError(await ana.api.post('/company-templates', { shortcut: 'x', message: 'x', global: true }), 403, 'ERR_NO_PERMISSION');
    expectError(await ana.api.put(`/company-templates/${anas.id}`, form({ global: 'true' })), 403, 'ERR_NO_PERMISSION');
    // The shortcut is the company's: another company may use it.
    expect((await beta.api.post('/company-templates', { shortcut: 'A', message: 'deles' })).status).to.equal(200);
  });

  it('answers bad input with a 4xx code', async () => {
    const a = await newCompanyWithAdmin(b);
    await a.api.post('/company-templates', { shortcut: 'ola', message: 'Olá' });
    expectError(await a.api.post('/company-templates', { shortcut: 'OLÁ', message: 'x' }), 409, 'ERR_TEMPLATE_SHORTCUT_IN_USE');
    expectError(await a.api.post('/company-templates', { shortcut: 'dois termos', message: 'x' }), 422, 'ERR_INVALID_TEMPLATE_SHORTCUT');
    expectError(await a.api.post('/company-templates', { shortcut: 'x', message: ' ' }), 422, 'ERR_INVALID_TEMPLATE_MESSAGE');
    expectError(await a.api.post('/company-templates', { shortcut: 'x', message: 'x', category: 'c'.repeat(61) }), 422, 'ERR_INVALID_TEMPLATE_CATEGORY');
    expect((await a.api.post('/company-templates', { shortcut: 'x' })).status).to.equal(422);
    expect((await a.api.post('/company-templates', { shortcut: 'x', message: 'x', global: 'sim' })).status).to.equal(422);
    expectError(
      await a.api.post(
        '/company-templates',
        form({ shortcut: 'y', message: 'y' }, { content: '<script>alert(1)</script>', filename: 'x.png', type: 'image/png' }),
      ),
      422,
      'ERR_FILE_TYPE_NOT_ALLOWED',
    );
    expectError(
      await a.api.post(
        '/company-templates',
        form({ shortcut: 'z', message: 'z' }, { content: Buffer.concat([PDF, Buffer.alloc(16 * 1024 * 1024)]), filename: 'big.pdf', type: 'application/pdf' }),
      ),
      413,
      'ERR_FILE_TOO_LARGE',
    );
    expect((await a.api.get('/company-templates/abc')).status).to.equal(422);
    expect((await a.api.get('/company-templates/1?ticketId=x')).status).to.equal(422);
    // Nothing refused was kept, file or row.
    expect((await a.api.get('/company-templates')).body.count).to.equal(1);
    expect(await b.infra.blobs.usage(`public/company-${a.company.id}/templates/`)).to.equal(0);
  });
});
