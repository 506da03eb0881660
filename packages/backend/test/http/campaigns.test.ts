import { expect } from 'chai';
import { openNamespace } from '../support/namespace-client.js';
import { sandboxDesk } from '../support/sandbox-conversations.js';
import { asSuper, type client, newCompanyWithAdmin, startTestBackend, type TestBackend } from '../support/test-backend.js';

type Api = ReturnType<typeof client>;

/** What CampaignModal sends for a new campaign: every empty field as null, no tag as "Nenhuma". */
function modalBody(fields: Record<string, unknown> = {}) {
  return {
    name: 'Black Friday',
    message1: 'Olá {nome}, a promoção começou!',
    message2: null,
    message3: null,
    message4: null,
    message5: null,
    confirmationMessage1: null,
    confirmationMessage2: null,
    confirmationMessage3: null,
    confirmationMessage4: null,
    confirmationMessage5: null,
    status: 'INATIVA',
    confirmation: false,
    scheduledAt: null,
    contactListId: null,
    tagListId: 'Nenhuma',
    companyId: 1,
    statusTicket: 'closed',
    openTicket: 'disabled',
    chatappId: false,
    userId: null,
    queueId: null,
    ...fields,
  };
}

/** A tag carried by `count` new contacts: a campaign audience. */
async function taggedContacts(api: Api, name: string, count: number, prefix = '551198765') {
  const tag = await api.post('/tags', { name, color: '#123456' });
  expect(tag.status, JSON.stringify(tag.body)).to.equal(201);
  for (let i = 0; i < count; i++) {
    const contact = await api.post('/contacts', { name: `${name} ${i}`, number: `${prefix}${String(5000 + i)}` });
    expect(contact.status, JSON.stringify(contact.body)).to.equal(201);
    const synced = await api.post('/tags/sync', { contactId: contact.body.id, tagIds: [tag.body.id] });
    expect(synced.status, JSON.stringify(synced.body)).to.equal(200);
  }
  return tag.body.id as number;
}

function upload(content: Buffer, name = 'promo.png', type = 'image/png', field = 'file') {
  const form = new FormData();
  form.append(field, new Blob([content], { type }), name);
  return form;
}

/** Every campaign route, with a body where it takes one. */
const everyRoute = (id: number): Array<[string, string, unknown?]> => [
  ['GET', '/campaigns/list'],
  ['GET', '/campaigns'],
  ['GET', `/campaigns/${id}`],
  ['POST', '/campaigns', modalBody()],
  ['PUT', `/campaigns/${id}`, { name: 'Changed' }],
  ['DELETE', `/campaigns/${id}`],
  ['POST', `/campaigns/${id}/cancel`, {}],
  ['POST', `/campaigns/${id}/restart`, {}],
  ['POST', `/campaigns/${id}/media-upload`, upload(Buffer.from('png'))],
  ['DELETE', `/campaigns/${id}/media-upload`],
  ['GET', '/campaign-settings'],
  ['POST', '/campaign-settings', { settings: { messageInterval: 30 } }],
];

describe('HTTP: campaigns and campaign settings', () => {
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

  it('creates, lists, searches, pages, shows, edits and deletes campaigns as CampaignModal and the list page do', async () => {
    const { api } = await newCompanyWithAdmin(b);
    const created = await api.post('/campaigns', modalBody());
    expect(created.status, JSON.stringify(created.body)).to.equal(200);
    expect(created.body).to.include({
      name: 'Black Friday',
      message1: 'Olá {nome}, a promoção começou!',
      message2: '',
      status: 'INATIVA',
      scheduledAt: null,
      completedAt: null,
      contactListId: null,
      tagListId: null,
      chatappId: null,
      userId: null,
      queueId: null,
      statusTicket: 'closed',
      openTicket: 'disabled',
      confirmation: false,
      mediaPath: null,
      mediaName: null,
      contactList: null,
      chatapp: null,
    });
    const id = created.body.id as number;
    for (let i = 0; i < 21; i++) expect((await api.post('/campaigns', { name: `Lote ${String(i).padStart(2, '0')}` })).status).to.equal(200);

    const first = await api.get('/campaigns');
    expect(first.body.records).to.have.length(20);
    expect(first.body).to.include({ count: 22, hasMore: true });
    const second = await api.get('/campaigns?pageNumber=2');
    expect(second.body.records).to.have.length(2);
    expect(second.body.hasMore).to.equal(false);
    const found = await api.get('/campaigns?searchParam=black');
    expect(found.body).to.deep.equal({ records: [created.body], count: 1, hasMore: false });
    expect((await api.get('/campaigns?searchParam=lote%2000')).body.count).to.equal(1);
    const all = await api.get('/campaigns/list?companyId=1');
    expect(all.body).to.have.length(22);
    expect(all.body[0].name).to.equal('Black Friday');

    const shown = await api.get(`/campaigns/${id}`);
    expect(shown.status).to.equal(200);
    expect(shown.body).to.deep.include({ ...created.body, recipients: { records: [], count: 0, hasMore: false } });
    expect(shown.body.progress).to.include({ total: 0, pending: 0, sent: 0, delivered: 0, failed: 0 });

    // The modal sends the whole GET answer back, empty fields as null, with its own changes.
    const echoed = Object.fromEntries(Object.entries(shown.body).map(([k, v]) => [k, v === '' ? null : v]));
    const edited = await api.put(`/campaigns/${id}`, {
      ...echoed,
      name: 'Black Friday 2030',
      message2: 'Oi {nome}!',
      confirmation: true,
      confirmationMessage1: 'Quer receber?',
    });
    expect(edited.status, JSON.stringify(edited.body)).to.equal(200);
    expect(edited.body).to.include({
      name: 'Black Friday 2030',
      message1: 'Olá {nome}, a promoção começou!',
      message2: 'Oi {nome}!',
      confirmation: true,
      status: 'INATIVA',
    });
    expect((await api.put(`/campaigns/${id}`, { message2: null })).body.message2).to.equal('');

    const deleted = await api.delete(`/campaigns/${id}`);
    expect(deleted.body).to.deep.equal({ message: 'Campaign deleted' });
    expect((await api.get(`/campaigns/${id}`)).body).to.deep.equal({ error: 'ERR_NO_CAMPAIGN_FOUND' });
    expect((await api.delete(`/campaigns/${id}`)).status).to.equal(404);
    expect((await api.get('/campaigns')).body.count).to.equal(21);
  });

  it('answers bad bodies with a 4xx and an error code, never a 500', async () => {
    const { api } = await newCompanyWithAdmin(b);
    const id = (await api.post('/campaigns', { name: 'Base' })).body.id as number;
    const cases: Array<[string, string, unknown, number, string]> = [
      ['POST', '/campaigns', { message1: 'no name' }, 422, 'ERR_VALIDATION'],
      ['POST', '/campaigns', { name: '   ' }, 422, 'ERR_CAMPAIGN_INVALID_NAME'],
      ['POST', '/campaigns', { name: null }, 422, 'ERR_CAMPAIGN_INVALID_NAME'],
      ['POST', '/campaigns', { name: 'x'.repeat(256) }, 422, 'ERR_CAMPAIGN_INVALID_NAME'],
      ['POST', '/campaigns', { name: 'Long', message1: 'x'.repeat(4097) }, 422, 'ERR_CAMPAIGN_MESSAGE_TOO_LONG'],
      ['POST', '/campaigns', { name: 'Ids', contactListId: 'abc' }, 422, 'ERR_VALIDATION'],
      ['POST', '/campaigns', { name: 'Ids', tagListId: 1.5 }, 422, 'ERR_VALIDATION'],
      ['POST', '/campaigns', { name: 'Ids', chatappId: true }, 422, 'ERR_VALIDATION'],
      ['POST', '/campaigns', { name: 'Ids', userId: 99999999999 }, 422, 'ERR_VALIDATION'],
      ['POST', '/campaigns', { name: 'Ids', queueId: '999999' }, 404, 'ERR_QUEUE_NOT_FOUND'],
      ['POST', '/campaigns', { name: 'Ids', contactListId: 999999 }, 404, 'ERR_NO_CONTACT_LIST_FOUND'],
      ['POST', '/campaigns', { name: 'Flags', confirmation: 'maybe' }, 422, 'ERR_VALIDATION'],
      ['POST', '/campaigns', { name: 'Flags', statusTicket: 'solved' }, 422, 'ERR_VALIDATION'],
      ['POST', '/campaigns', { name: 'Flags', openTicket: true }, 422, 'ERR_VALIDATION'],
      ['POST', '/campaigns', { name: 'When', scheduledAt: 'tomorrow' }, 422, 'ERR_CAMPAIGN_INVALID_SCHEDULE'],
      ['POST', '/campaigns', { name: 'When', scheduledAt: '2030-02-30 10:00:00' }, 422, 'ERR_CAMPAIGN_INVALID_SCHEDULE'],
      ['POST', '/campaigns', { name: 'When', scheduledAt: '0000-01-01T00:00:00Z' }, 422, 'ERR_CAMPAIGN_INVALID_SCHEDULE'],
      ['POST', '/campaigns', { name: 'When', scheduledAt: 20300101 }, 422, 'ERR_VALIDATION'],
      ['POST', '/campaigns', { name: 'No audience', message1: 'Oi', scheduledAt: '2030-01-15 09:30:00' }, 422, 'ERR_CAMPAIGN_NO_AUDIENCE'],
      ['POST', '/campaigns', [1, 2], 422, 'ERR_VALIDATION'],
      ['PUT', `/campaigns/${id}`, { status: 'DONE' }, 422, 'ERR_VALIDATION'],
      ['PUT', `/campaigns/${id}`, { status: 'FINALIZADA' }, 409, 'ERR_CAMPAIGN_STATUS_CONFLICT'],
      ['PUT', `/campaigns/${id}`, { status: 'PAUSADA' }, 409, 'ERR_CAMPAIGN_STATUS_CONFLICT'],
      ['PUT', `/campaigns/${id}`, { status: 'EM_ANDAMENTO' }, 422, 'ERR_CAMPAIGN_NO_AUDIENCE'],
      ['PUT', '/campaigns/abc', { name: 'x' }, 422, 'ERR_VALIDATION'],
      ['GET', `/campaigns/${id}?state=lost`, undefined, 422, 'ERR_VALIDATION'],
      ['GET', '/campaigns?pageNumber=0', undefined, 422, 'ERR_VALIDATION'],
      ['POST', `/campaigns/${id}/cancel`, {}, 409, 'ERR_CAMPAIGN_STATUS_CONFLICT'],
      ['POST', `/campaigns/${id}/restart`, {}, 422, 'ERR_CAMPAIGN_NO_AUDIENCE'],
      ['POST', '/campaign-settings', { settings: 'messageInterval=1' }, 422, 'ERR_VALIDATION'],
      ['POST', '/campaign-settings', {}, 422, 'ERR_VALIDATION'],
    ];
    for (const [method, path, body, status, error] of cases) {
      const res = await api.call(method, path, body);
      expect([res.status, res.body.error], `${method} ${path} ${JSON.stringify(body)?.slice(0, 80)}`).to.deep.equal([status, error]);
    }
    expect((await api.get(`/campaigns/${id}`)).body).to.include({ name: 'Base', status: 'INATIVA' });
    expect((await api.get('/campaigns')).body.count).to.equal(1);
  });

  it('reads a scheduledAt without offset on the company clock (America/Sao_Paulo by default) and an ISO time as it says', async () => {
    const d = await sandboxDesk(b);
    const tagId = await taggedContacts(d.admin, 'Clientes', 1);
    const runnable = { message1: 'Oi {nome}', tagListId: tagId, chatappId: d.connectionId };
    const local = await d.admin.post('/campaigns', modalBody({ ...runnable, scheduledAt: '2030-01-15 09:30:00' }));
    expect(local.status, JSON.stringify(local.body)).to.equal(200);
    expect(local.body).to.include({ status: 'PROGRAMADA', scheduledAt: '2030-01-15T12:30:00.000Z', tagListId: tagId, chatappId: d.connectionId });
    expect(local.body.tagList).to.deep.equal({ id: tagId, name: 'Clientes' });
    expect(local.body.chatapp).to.deep.equal({ id: d.connectionId, name: 'Sandbox' });
    const iso = await d.admin.post('/campaigns', modalBody({ ...runnable, name: 'ISO', scheduledAt: '2030-01-15T09:30:00+01:00' }));
    expect(iso.body).to.include({ status: 'PROGRAMADA', scheduledAt: '2030-01-15T08:30:00.000Z' });

    expect((await d.admin.put('/settings/timezone', { value: 'Europe/Lisbon' })).status).to.equal(200);
    const lisbon = await d.admin.put(`/campaigns/${local.body.id}`, { scheduledAt: '2030-07-01 10:00' });
    expect(lisbon.body).to.include({ status: 'PROGRAMADA', scheduledAt: '2030-07-01T09:00:00.000Z' });
    // No time: a draft again; a time again: scheduled again.
    expect((await d.admin.put(`/campaigns/${local.body.id}`, { scheduledAt: '' })).body).to.include({ status: 'INATIVA', scheduledAt: null });
    expect((await d.admin.put(`/campaigns/${local.body.id}`, { scheduledAt: '2030-07-01T10:00:00Z' })).body.status).to.equal('PROGRAMADA');
    // A scheduled campaign must stay runnable.
    expect((await d.admin.put(`/campaigns/${local.body.id}`, { tagListId: 'Nenhuma' })).body).to.deep.equal({ error: 'ERR_CAMPAIGN_NO_AUDIENCE' });
    expect((await d.admin.put(`/campaigns/${local.body.id}`, { chatappId: false })).body).to.deep.equal({ error: 'ERR_CAMPAIGN_NO_CONNECTION' });
    expect((await d.admin.put(`/campaigns/${local.body.id}`, { message1: '' })).body).to.deep.equal({ error: 'ERR_CAMPAIGN_NO_MESSAGE' });
    expect((await d.admin.get(`/campaigns/${local.body.id}`)).body).to.include({ tagListId: tagId, chatappId: d.connectionId, message1: 'Oi {nome}' });
  });

  it("keeps every company to its own campaigns and ids: another company's are 404 and nothing changes", async () => {
    const d = await sandboxDesk(b);
    const tagId = await taggedContacts(d.admin, 'Nossos', 1);
    const queue = (await d.admin.post('/queue', { name: 'Vendas', color: '#00aa55' })).body.id as number;
    const list = (await d.admin.post('/contact-lists', { name: 'Nossa lista' })).body.id as number;
    const ours = await d.admin.post(
      '/campaigns',
      modalBody({ contactListId: list, tagListId: tagId, chatappId: d.connectionId, userId: d.ana.id, queueId: queue }),
    );
    expect(ours.status, JSON.stringify(ours.body)).to.equal(200);
    expect(ours.body.user).to.deep.equal({ id: d.ana.id, name: 'Ana' });
    expect(ours.body.queue).to.deep.equal({ id: queue, name: 'Vendas' });
    expect(ours.body.contactList).to.deep.equal({ id: list, name: 'Nossa lista' });
    await d.admin.post('/campaign-settings', { settings: { messageInterval: 45 } });

    const other = await newCompanyWithAdmin(b);
    const o = other.api;
    expect((await o.get('/campaigns')).body).to.deep.equal({ records: [], count: 0, hasMore: false });
    expect((await o.get(`/campaigns/list?companyId=${ours.body.companyId}`)).body).to.deep.equal([]);
    expect((await o.get('/campaign-settings')).body).to.deep.equal([]);
    for (const [method, path, body] of everyRoute(ours.body.id).filter(([, p]) => p.includes(`/${ours.body.id}`))) {
      const res = await o.call(method, path, body);
      expect([res.status, res.body], `${method} ${path}`).to.deep.equal([404, { error: 'ERR_NO_CAMPAIGN_FOUND' }]);
    }
    const theirs = (await o.post('/campaigns', { name: 'Deles' })).body.id as number;
    for (const [field, value, error] of [
      ['contactListId', list, 'ERR_NO_CONTACT_LIST_FOUND'],
      ['tagListId', tagId, 'ERR_NO_TAG_FOUND'],
      ['chatappId', d.connectionId, 'ERR_NO_CONNECTION_FOUND'],
      ['userId', d.ana.id, 'ERR_NO_USER_FOUND'],
      ['queueId', queue, 'ERR_QUEUE_NOT_FOUND'],
    ] as const) {
      const created = await o.post('/campaigns', { name: 'Com ids alheios', [field]: value });
      expect([created.status, created.body], field).to.deep.equal([404, { error }]);
      const updated = await o.put(`/campaigns/${theirs}`, { [field]: value });
      expect([updated.status, updated.body], field).to.deep.equal([404, { error }]);
    }
    expect((await o.get('/campaigns')).body.count).to.equal(1);
    expect((await o.get(`/campaigns/${theirs}`)).body).to.include({ contactListId: null, tagListId: null, chatappId: null, userId: null, queueId: null });
    const after = await d.admin.get(`/campaigns/${ours.body.id}`);
    expect(after.body).to.include({ name: 'Black Friday', status: 'INATIVA', updatedAt: ours.body.updatedAt });
    expect((await d.admin.get('/campaign-settings')).body.map((r: { key: string; value: string }) => [r.key, r.value])).to.deep.equal([
      ['messageInterval', '45'],
    ]);
  });

  it('answers 403 on every route to a company whose plan lacks campaigns, and to operators', async () => {
    const { api: root } = await asSuper(b);
    const plan = await root.post('/plans', { name: 'Sem campanhas', users: 5, connections: 2, queues: 3, amount: '10.00', useCampaigns: false });
    expect(plan.status, JSON.stringify(plan.body)).to.equal(201);
    const small = await newCompanyWithAdmin(b, { planId: plan.body.id });
    for (const [method, path, body] of everyRoute(1)) {
      const res = await small.api.call(method, path, body);
      expect([res.status, res.body], `${method} ${path}`).to.deep.equal([403, { error: 'ERR_PLAN_FEATURE_DISABLED' }]);
    }
    // Even a malformed request is refused for the plan first.
    expect((await small.api.post('/campaigns', { name: 42 })).body).to.deep.equal({ error: 'ERR_PLAN_FEATURE_DISABLED' });

    const d = await sandboxDesk(b);
    const id = (await d.admin.post('/campaigns', { name: 'Só admins' })).body.id as number;
    for (const [method, path, body] of everyRoute(id)) {
      const res = await d.ana.api.call(method, path, body);
      expect([res.status, res.body], `${method} ${path}`).to.deep.equal([403, { error: 'ERR_NO_PERMISSION' }]);
    }
    expect((await d.admin.get(`/campaigns/${id}`)).body).to.include({ name: 'Só admins', status: 'INATIVA', mediaPath: null });
  });

  it('runs a campaign: its recipients are fixed at the start, it pauses, resumes, cancels and restarts, with campaign frames', async () => {
    const d = await sandboxDesk(b);
    const { token, user } = await asSuper(b);
    // One send now at most, then an hour between sends: the campaign stays running through the test.
    expect((await d.admin.post('/campaign-settings', { settings: { messageInterval: 3600, messageIntervalMax: 3600 } })).status).to.equal(200);
    const tagId = await taggedContacts(d.admin, 'Lançamento', 3);
    // A list with one new number and one the tag has too: four recipients, the list's item first.
    const list = await d.admin.post('/contact-lists', { name: 'Lista VIP' });
    expect(list.status, JSON.stringify(list.body)).to.equal(200);
    for (const [name, number] of [
      ['Nova', '5511987656000'],
      ['Repetida', '5511987655000'],
    ]) {
      const item = await d.admin.post('/contact-list-items', { contactListId: list.body.id, name, number });
      expect(item.status, JSON.stringify(item.body)).to.equal(200);
    }
    const ns = await openNamespace(b.url, user.companyId as number, token);
    const created = await d.admin.post(
      '/campaigns',
      modalBody({ name: 'Lançamento', contactListId: String(list.body.id), tagListId: tagId, chatappId: d.connectionId }),
    );
    expect(created.status, JSON.stringify(created.body)).to.equal(200);
    const id = created.body.id as number;
    const companyId = created.body.companyId as number;
    const frame = (action: string, status?: string) =>
      ns.waitFor((f) => f.event === `company-${companyId}-campaign` && f.data.action === action && (!status || f.data.record?.status === status));
    const createFrame = await frame('create');
    expect(createFrame.data.record).to.include({ id, name: 'Lançamento', status: 'INATIVA' });
    expect(createFrame.data.record.tagList).to.deep.equal({ id: tagId, name: 'Lançamento' });
    expect(createFrame.data.record.contactList).to.deep.equal({ id: list.body.id, name: 'Lista VIP' });

    expect((await d.admin.post(`/campaigns/${id}/restart`)).status).to.equal(204);
    const running = await d.admin.get(`/campaigns/${id}`);
    expect(running.body.status).to.equal('EM_ANDAMENTO');
    expect(running.body.materializedAt).to.be.a('string');
    expect(running.body.progress.total).to.equal(4);
    expect(running.body.recipients.count).to.equal(4);
    expect(running.body.recipients.records.map((r: { number: string; name: string }) => `${r.number} ${r.name}`).sort()).to.deep.equal([
      '5511987655000 Repetida',
      '5511987655001 Lançamento 1',
      '5511987655002 Lançamento 2',
      '5511987656000 Nova',
    ]);
    expect((await d.admin.get(`/campaigns/${id}?state=failed`)).body.recipients).to.deep.equal({ records: [], count: 0, hasMore: false });
    expect((await frame('update', 'EM_ANDAMENTO')).data.record.id).to.equal(id);

    // Running: no edit, no delete, no attachment, no second start.
    for (const [method, path, body] of [
      ['PUT', `/campaigns/${id}`, { name: 'Outro nome' }],
      ['DELETE', `/campaigns/${id}`],
      ['POST', `/campaigns/${id}/restart`, {}],
      ['POST', `/campaigns/${id}/media-upload`, upload(Buffer.from('png'))],
      ['DELETE', `/campaigns/${id}/media-upload`],
    ] as Array<[string, string, unknown?]>) {
      const res = await d.admin.call(method, path, body);
      expect([res.status, res.body], `${method} ${path}`).to.deep.equal([409, { error: 'ERR_CAMPAIGN_STATUS_CONFLICT' }]);
    }

    const paused = await d.admin.put(`/campaigns/${id}`, { ...running.body, status: 'PAUSADA' });
    expect(paused.status, JSON.stringify(paused.body)).to.equal(200);
    expect(paused.body).to.include({ id, status: 'PAUSADA', name: 'Lançamento' });
    expect(paused.body).to.not.have.property('progress');
    await frame('update', 'PAUSADA');
    expect((await d.admin.put(`/campaigns/${id}`, { status: 'PAUSADA', name: 'Pausada' })).body).to.deep.equal({ error: 'ERR_CAMPAIGN_STATUS_CONFLICT' });
    expect((await d.admin.put(`/campaigns/${id}`, { status: 'EM_ANDAMENTO' })).body.status).to.equal('EM_ANDAMENTO');

    expect((await d.admin.post(`/campaigns/${id}/cancel`)).status).to.equal(204);
    expect((await d.admin.get(`/campaigns/${id}`)).body.status).to.equal('CANCELADA');
    await frame('update', 'CANCELADA');
    expect((await d.admin.post(`/campaigns/${id}/cancel`)).status).to.equal(409);
    expect((await d.admin.put(`/campaigns/${id}`, { name: 'Cancelada' })).status).to.equal(409);

    expect((await d.admin.post(`/campaigns/${id}/restart`)).status).to.equal(204);
    const again = await d.admin.get(`/campaigns/${id}`);
    expect(again.body).to.include({ status: 'EM_ANDAMENTO', materializedAt: running.body.materializedAt });
    expect(again.body.progress.total).to.equal(4);
    const cancelled = await d.admin.put(`/campaigns/${id}`, { status: 'CANCELADA' });
    expect(cancelled.body.status).to.equal('CANCELADA');

    // A draft started by PUT status EM_ANDAMENTO; a cancelled one can be deleted.
    const draft = (await d.admin.post('/campaigns', modalBody({ name: 'Relâmpago', tagListId: tagId, chatappId: d.connectionId }))).body.id as number;
    const started = await d.admin.put(`/campaigns/${draft}`, { status: 'EM_ANDAMENTO' });
    expect(started.body.status).to.equal('EM_ANDAMENTO');
    expect((await d.admin.get(`/campaigns/${draft}`)).body.progress.total).to.equal(3);
    expect((await d.admin.delete(`/campaigns/${id}`)).body).to.deep.equal({ message: 'Campaign deleted' });
    expect((await frame('delete')).data.id).to.equal(id);
    ns.close();
  });

  it('attaches a file (served), replaces it and removes it (gone)', async () => {
    const { api } = await newCompanyWithAdmin(b);
    const id = (await api.post('/campaigns', { name: 'Com mídia' })).body.id as number;
    expect((await api.post(`/campaigns/${id}/media-upload`, upload(Buffer.alloc(0)))).status).to.equal(422);
    expect((await api.post(`/campaigns/${id}/media-upload`, upload(Buffer.from('x'), 'a.png', 'image/png', 'other'))).status).to.equal(422);
    const noFile = new FormData();
    noFile.append('caption', 'sem arquivo');
    expect((await api.post(`/campaigns/${id}/media-upload`, noFile)).body).to.deep.equal({ error: 'ERR_NO_FILE' });
    expect((await api.post(`/campaigns/${id}/media-upload`, { file: 'x' })).status).to.equal(415);

    const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
    const first = await api.post(`/campaigns/${id}/media-upload`, upload(png, 'Promo verao.png'));
    expect(first.status, JSON.stringify(first.body)).to.equal(200);
    expect(first.body).to.include({ mensagem: 'Mensagem enviada', id, mediaName: 'Promo verao.png' });
    const key = first.body.mediaPath as string;
    expect(key).to.match(new RegExp(`^public/company-${first.body.companyId}/campaigns/${id}/`));
    const served = await fetch(`${b.url}/${key}`);
    expect(served.status).to.equal(200);
    expect(Buffer.from(await served.arrayBuffer()).equals(png)).to.equal(true);
    expect((await api.get(`/campaigns/${id}`)).body).to.include({ mediaPath: key, mediaName: 'Promo verao.png' });

    const second = await api.post(`/campaigns/${id}/media-upload`, upload(Buffer.from('%PDF-1.4 tabela'), 'tabela.pdf', 'application/pdf'));
    expect(second.body.mediaName).to.equal('tabela.pdf');
    expect((await fetch(`${b.url}/${key}`)).status).to.equal(404);
    const removed = await api.delete(`/campaigns/${id}/media-upload`);
    expect(removed.body).to.include({ mensagem: 'Arquivo excluído', mediaPath: null, mediaName: null });
    expect((await fetch(`${b.url}/${second.body.mediaPath}`)).status).to.equal(404);
    expect((await api.delete(`/campaigns/${id}/media-upload`)).status).to.equal(200);
  });

  it('saves the settings as CampaignsConfig sends them (numbers or strings) and refuses a bad value, changing nothing', async () => {
    const d = await sandboxDesk(b);
    const { token, user } = await asSuper(b);
    const companyId = user.companyId as number;
    const ns = await openNamespace(b.url, companyId, token);
    expect((await d.admin.get('/campaign-settings')).body).to.deep.equal([]);
    const saved = await d.admin.post('/campaign-settings', {
      settings: {
        messageInterval: 30,
        longerIntervalAfter: 10,
        greaterInterval: 120,
        variables: [{ key: 'loja', value: 'Centro' }],
        sabado: 'true',
        domingo: false,
        startHour: '09:00',
        endHour: '18:00',
      },
    });
    expect(saved.status, JSON.stringify(saved.body)).to.equal(200);
    const pairs = (rows: Array<{ key: string; value: string }>) => Object.fromEntries(rows.map((r) => [r.key, r.value]));
    expect(pairs(saved.body)).to.deep.equal({
      messageInterval: '30',
      longerIntervalAfter: '10',
      greaterInterval: '120',
      variables: '[{"key":"loja","value":"Centro"}]',
      sabado: 'true',
      domingo: 'false',
      startHour: '09:00',
      endHour: '18:00',
    });
    const listed = await d.admin.get('/campaign-settings');
    expect(listed.body).to.have.length(8);
    expect(listed.body[0]).to.have.all.keys('id', 'key', 'value', 'companyId', 'createdAt', 'updatedAt');
    expect(listed.body.every((r: { companyId: number }) => r.companyId === companyId)).to.equal(true);
    const settingsFrame = await ns.waitFor((f) => f.event === `company-${companyId}-campaignSettings`);
    expect(settingsFrame.data.action).to.equal('create');
    expect(pairs(settingsFrame.data.record)).to.deep.include({ messageInterval: '30' });
    ns.close();

    // After a reload the page holds the stored strings and sends them back with its change.
    const reloaded = await d.admin.post('/campaign-settings', { settings: { ...pairs(listed.body), messageInterval: '15' } });
    expect(reloaded.status, JSON.stringify(reloaded.body)).to.equal(200);
    expect(pairs(reloaded.body)).to.include({ messageInterval: '15', variables: '[{"key":"loja","value":"Centro"}]' });

    for (const settings of [
      { messageInterval: -1 },
      { messageInterval: 'ten' },
      { startHour: '25:00' },
      { sabado: 'sim' },
      { colour: 'red' },
      { greaterInterval: 30, messageInterval: 1e12 },
    ]) {
      const res = await d.admin.post('/campaign-settings', { settings });
      expect([res.status, res.body.error], JSON.stringify(settings)).to.deep.equal([422, 'ERR_INVALID_CAMPAIGN_SETTING']);
    }
    expect(pairs((await d.admin.get('/campaign-settings')).body)).to.deep.equal(pairs(reloaded.body));
  });
});
