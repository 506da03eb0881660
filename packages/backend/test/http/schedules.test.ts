import { expect } from 'chai';
import { openNamespace } from '../support/namespace-client.js';
import { eventually, sandboxDesk } from '../support/sandbox-conversations.js';
import { asSuper, newCompanyWithAdmin, startTestBackend, type TestBackend } from '../support/test-backend.js';

const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201e2a4d1a60000000049454e44ae426082',
  'hex',
);

/** What ScheduleModal sends for a new schedule. */
function modalBody(fields: Record<string, unknown> = {}) {
  return {
    body: 'Olá {{firstName}}, sua consulta é amanhã.',
    sendAt: '2030-03-05T09:00',
    sentAt: '',
    openTicket: 'disabled',
    ticketUserId: null,
    queueId: null,
    statusTicket: 'closed',
    intervalo: 1,
    valorIntervalo: 0,
    enviarQuantasVezes: 1,
    tipoDias: 4,
    assinar: false,
    userId: 1,
    ...fields,
  };
}

/** What MessageModal posts: every field as text. */
function messageForm(fields: Record<string, string>, file?: { name: string; content: Buffer; type: string }) {
  const form = new FormData();
  const values: Record<string, string> = {
    nome: 'Aviso',
    data_mensagem_programada: '2030-04-17 09:00:00',
    id_conexao: 'undefined',
    intervalo: '1',
    fileName: '',
    valor_intervalo: '0',
    mensagem: 'Olá {{name}}!',
    tipo_dias_envio: '4',
    mostrar_usuario_mensagem: 'false',
    criar_ticket: 'false',
    contatos: '',
    tags: '',
    usuario_envio: '',
    enviar_quantas_vezes: '0',
    file: 'undefined',
    companyId: '1',
    ...fields,
  };
  for (const [k, v] of Object.entries(values)) {
    if (k === 'file' && file) form.append('file', new Blob([file.content], { type: file.type }), file.name);
    else form.append(k, v);
  }
  return form;
}

function upload(content: Buffer, name = 'lembrete.png', type = 'image/png', field = 'file') {
  const form = new FormData();
  form.append(field, new Blob([content], { type }), name);
  return form;
}

/** A moment `ms` from now, with its offset (seconds count). */
const inMs = (ms: number) => new Date(Date.now() + ms).toISOString();

/** Every schedule route, with a body where it takes one. */
const everyRoute = (id: number, contactId = 1): Array<[string, string, unknown?]> => [
  ['GET', '/schedules'],
  ['GET', `/schedules/${id}`],
  ['POST', '/schedules', modalBody({ contactId })],
  ['PUT', `/schedules/${id}`, { body: 'Outro' }],
  ['DELETE', `/schedules/${id}`],
  ['POST', `/schedules/${id}/media-upload`, upload(PNG)],
  ['DELETE', `/schedules/${id}/media-upload`],
  ['GET', '/schedules-message'],
  ['GET', `/schedules-message/${id}`],
  ['POST', '/schedules-message', messageForm({ contatos: String(contactId) })],
  ['PUT', `/schedules-message/${id}`, messageForm({ nome: 'Outro' })],
  ['DELETE', `/schedules-message/${id}`],
];

describe('HTTP: schedules and scheduled messages', () => {
  let b: TestBackend;
  before(async () => {
    b = await startTestBackend({ OUTBOX_RELAY_INTERVAL_MS: '100', SCHEDULED_MESSAGES_GAP_MS: '100' });
  });
  after(async () => {
    await b.close();
  });
  beforeEach(async () => {
    await b.reset();
  });

  it('creates, lists, searches, shows, edits and deletes schedules as ScheduleModal and the Schedules page do, with schedule frames', async () => {
    const d = await sandboxDesk(b);
    const { token, user } = await asSuper(b);
    const contact = (await d.admin.post('/contacts', { name: 'Maria Souza', number: '5511988887777' })).body;
    const ns = await openNamespace(b.url, user.companyId as number, token);
    const created = await d.ana.api.post(
      '/schedules',
      modalBody({ contactId: contact.id, chatappId: d.connectionId, intervalo: 2, valorIntervalo: '1', enviarQuantasVezes: '4' }),
    );
    expect(created.status, JSON.stringify(created.body)).to.equal(200);
    // On the company's clock (America/Sao_Paulo, UTC-3, by default).
    expect(created.body).to.include({
      body: 'Olá {{firstName}}, sua consulta é amanhã.',
      sendAt: '2030-03-05T12:00:00.000Z',
      status: 'PENDENTE',
      sentAt: null,
      contactId: contact.id,
      userId: d.ana.id,
      chatappId: d.connectionId,
      intervalo: 2,
      valorIntervalo: 1,
      enviarQuantasVezes: 4,
      tipoDias: 4,
      openTicket: 'disabled',
      contadorEnvio: 0,
    });
    expect(created.body.contact).to.deep.include({ id: contact.id, name: 'Maria Souza' });
    expect(created.body.user).to.deep.equal({ id: d.ana.id, name: 'Ana' });
    const id = created.body.id as number;
    const frame = await ns.waitFor((f) => f.event.endsWith('-schedule') && f.data.action === 'create');
    expect(frame.data.schedule).to.deep.equal(created.body);

    const second = await d.admin.post('/schedules', modalBody({ contactId: contact.id, body: 'Cobrança de março', sendAt: '2030-03-06 10:30' }));
    expect(second.status, JSON.stringify(second.body)).to.equal(200);
    const list = await d.bia.api.get('/schedules?searchParam=&pageNumber=1');
    expect(list.body).to.deep.include({ count: 2, hasMore: false });
    expect(list.body.schedules.map((s: { id: number }) => s.id)).to.deep.equal([second.body.id, id]);
    expect((await d.bia.api.get('/schedules?searchParam=cobranca')).body.schedules.map((s: { id: number }) => s.id)).to.deep.equal([second.body.id]);
    expect((await d.bia.api.get('/schedules?searchParam=maria')).body.count).to.equal(2);
    expect((await d.bia.api.get(`/schedules?userId=${d.ana.id}`)).body.count).to.equal(1);

    const shown = await d.ana.api.get(`/schedules/${id}`);
    expect(shown.body).to.deep.include({ ...created.body, updatedAt: shown.body.updatedAt });
    expect(shown.body.occurrences).to.have.length(1);
    expect(shown.body.occurrences[0]).to.include({ sequence: 1, dueAt: '2030-03-05T12:00:00.000Z', status: 'pending' });

    // The modal sends the whole answer back, the time to the minute: only the text changes.
    const edited = await d.ana.api.put(`/schedules/${id}`, {
      ...shown.body,
      body: 'Texto novo',
      sendAt: '2030-03-05T09:00',
      userId: d.ana.id,
      chatappId: d.connectionId,
    });
    expect(edited.status, JSON.stringify(edited.body)).to.equal(200);
    expect(edited.body).to.include({ body: 'Texto novo', sendAt: '2030-03-05T12:00:00.000Z' });
    expect((await ns.waitFor((f) => f.event.endsWith('-schedule') && f.data.action === 'update')).data.schedule.body).to.equal('Texto novo');
    const moved = await d.ana.api.put(`/schedules/${id}`, { sendAt: '2030-03-07T08:15' });
    expect(moved.body.sendAt).to.equal('2030-03-07T11:15:00.000Z');

    const deleted = await d.ana.api.delete(`/schedules/${id}`);
    expect(deleted.body).to.deep.equal({ message: 'Schedule deleted' });
    expect((await ns.waitFor((f) => f.event.endsWith('-schedule') && f.data.action === 'delete')).data).to.deep.equal({ action: 'delete', scheduleId: id });
    expect((await d.ana.api.get(`/schedules/${id}`)).body).to.deep.equal({ error: 'ERR_NO_SCHEDULE_FOUND' });
    expect((await d.ana.api.delete(`/schedules/${id}`)).status).to.equal(404);
    ns.close();
  });

  it('sends a schedule due in a moment once, through the one send path, and shows it sent', async () => {
    const d = await sandboxDesk(b);
    const contact = (await d.admin.post('/contacts', { name: 'João Pereira', number: '5511988886666' })).body;
    const created = await d.ana.api.post(
      '/schedules',
      modalBody({
        contactId: contact.id,
        chatappId: d.connectionId,
        body: 'Oi {{firstName}}, lembrete!',
        sendAt: inMs(1500),
        assinar: true,
      }),
    );
    expect(created.status, JSON.stringify(created.body)).to.equal(200);
    const done = await eventually(
      'the schedule sent',
      async () => {
        const shown = (await d.ana.api.get(`/schedules/${created.body.id}`)).body;
        return shown.status === 'ENVIADA' && shown;
      },
      20_000,
    );
    expect(done.occurrences.map((o: { status: string; sent: number }) => [o.status, o.sent])).to.deep.equal([['sent', 1]]);
    expect(done.contadorEnvio).to.equal(1);
    await eventually('the sandbox to receive it', () => d.sent().some((s) => s.content.body === '*Ana:*\nOi João, lembrete!'), 10_000);
    expect(d.sent().filter((s) => s.content.body.includes('lembrete!'))).to.have.length(1);
    // Its one occurrence is settled and the series ended: no run can send it again.
    const messages = (await d.admin.get(`/messages/${done.ticketId}`)).body.messages as Array<{ body: string; fromMe: boolean }>;
    expect(messages.filter((m) => m.fromMe).map((m) => m.body)).to.deep.equal(['*Ana:*\nOi João, lembrete!']);
  });

  it('sends a scheduled message to its contacts and tagged contacts, each once, as MessageModal writes it, with scheduledMessage frames', async () => {
    const d = await sandboxDesk(b);
    // A second client of the company (not the one scheduling) follows it live.
    const { token, user } = await asSuper(b);
    const ns = await openNamespace(b.url, user.companyId as number, token);
    const a = (await d.admin.post('/contacts', { name: 'Ana Cliente', number: '5511977770101' })).body;
    const c = (await d.admin.post('/contacts', { name: 'Caio Cliente', number: '5511977770102' })).body;
    const tag = (await d.admin.post('/tags', { name: 'Feriado', color: '#123456' })).body;
    for (const contactId of [a.id, c.id]) expect((await d.admin.post('/tags/sync', { contactId, tagIds: [tag.id] })).status).to.equal(200);
    const created = await d.ana.api.post(
      '/schedules-message',
      messageForm(
        {
          nome: 'Feriado',
          data_mensagem_programada: inMs(1000),
          id_conexao: String(d.connectionId),
          contatos: String(a.id),
          tags: String(tag.id),
          mostrar_usuario_mensagem: 'true',
          usuario_envio: String(d.bia.id),
          criar_ticket: 'true',
        },
        { name: 'aviso.png', content: PNG, type: 'image/png' },
      ),
    );
    expect(created.status, JSON.stringify(created.body)).to.equal(200);
    expect(created.body).to.include({
      nome: 'Feriado',
      id_conexao: d.connectionId,
      usuario_envio: d.bia.id,
      criar_ticket: true,
      mediaName: 'aviso.png',
      status: 'PENDENTE',
    });
    expect(created.body).to.deep.include({ contatos: [a.id], tags: [tag.id] });
    const createdFrame = await ns.waitFor((f) => f.event.endsWith('-scheduledMessage') && f.data.action === 'create');
    expect(createdFrame.data.scheduledMessage).to.deep.equal(created.body);
    const done = await eventually(
      'the scheduled message sent',
      async () => {
        const shown = (await d.ana.api.get(`/schedules-message/${created.body.id}`)).body;
        return shown.status === 'ENVIADA' && shown;
      },
      20_000,
    );
    expect(done.occurrences[0]).to.include({ status: 'sent', recipients: 2, sent: 2, failed: 0 });
    await eventually('both at the sandbox', () => d.sent().filter((s) => s.content.body.startsWith('*Bia:*\nOlá')).length === 2, 10_000);
    expect(
      d
        .sent()
        .filter((s) => s.content.body.startsWith('*Bia:*\nOlá'))
        .map((s) => s.content.body)
        .sort(),
    ).to.deep.equal(['*Bia:*\nOlá Ana Cliente!', '*Bia:*\nOlá Caio Cliente!']);
    const list = await d.admin.get('/schedules-message?searchParam=feriado');
    expect(list.body).to.deep.include({ count: 1, hasMore: false });
    // Its occurrence settled: the frame carries it sent, as the list now shows it.
    const sentFrame = await ns.waitFor(
      (f) => f.event.endsWith('-scheduledMessage') && f.data.action === 'update' && f.data.scheduledMessage.status === 'ENVIADA',
    );
    expect(sentFrame.data.scheduledMessage).to.deep.include({ id: created.body.id, contadorEnvio: 1 });

    const edited = await d.ana.api.put(`/schedules-message/${created.body.id}`, { nome: 'Feriado de abril' });
    expect(edited.status, JSON.stringify(edited.body)).to.equal(200);
    const editFrame = await ns.waitFor((f) => f.event.endsWith('-scheduledMessage') && f.data.scheduledMessage?.nome === 'Feriado de abril');
    expect(editFrame.data).to.deep.equal({ action: 'update', scheduledMessage: edited.body });
    expect((await d.ana.api.delete(`/schedules-message/${created.body.id}`)).status).to.equal(200);
    const deleteFrame = await ns.waitFor((f) => f.event.endsWith('-scheduledMessage') && f.data.action === 'delete');
    expect(deleteFrame.data).to.deep.equal({ action: 'delete', scheduleId: created.body.id });
    ns.close();
  });

  it('answers bad input with a 4xx and an error code, never a 500', async () => {
    const d = await sandboxDesk(b);
    const contact = (await d.admin.post('/contacts', { name: 'Base', number: '5511988885555' })).body;
    const id = (await d.admin.post('/schedules', modalBody({ contactId: contact.id }))).body.id as number;
    const cases: Array<[string, string, unknown, number, string]> = [
      ['POST', '/schedules', modalBody({}), 422, 'ERR_SCHEDULE_NO_RECIPIENTS'],
      ['POST', '/schedules', modalBody({ contactId: '' }), 422, 'ERR_SCHEDULE_NO_RECIPIENTS'],
      ['POST', '/schedules', modalBody({ contactId: 'abc' }), 422, 'ERR_VALIDATION'],
      ['POST', '/schedules', modalBody({ contactId: 999999 }), 404, 'ERR_NO_CONTACT_FOUND'],
      ['POST', '/schedules', modalBody({ contactId: contact.id, chatappId: 999999 }), 404, 'ERR_NO_CONNECTION_FOUND'],
      ['POST', '/schedules', modalBody({ contactId: contact.id, ticketUserId: 999999 }), 404, 'ERR_NO_USER_FOUND'],
      ['POST', '/schedules', modalBody({ contactId: contact.id, queueId: '999999' }), 404, 'ERR_QUEUE_NOT_FOUND'],
      ['POST', '/schedules', modalBody({ contactId: contact.id, body: '' }), 422, 'ERR_SCHEDULE_INVALID_BODY'],
      ['POST', '/schedules', modalBody({ contactId: contact.id, body: 'x'.repeat(4097) }), 422, 'ERR_SCHEDULE_INVALID_BODY'],
      ['POST', '/schedules', modalBody({ contactId: contact.id, body: 42 }), 422, 'ERR_VALIDATION'],
      ['POST', '/schedules', modalBody({ contactId: contact.id, sendAt: 'amanhã' }), 422, 'ERR_SCHEDULE_INVALID_TIME'],
      ['POST', '/schedules', modalBody({ contactId: contact.id, sendAt: '2030-02-30T09:00' }), 422, 'ERR_SCHEDULE_INVALID_TIME'],
      ['POST', '/schedules', modalBody({ contactId: contact.id, sendAt: '2020-01-01T09:00' }), 422, 'ERR_SCHEDULE_IN_PAST'],
      ['POST', '/schedules', modalBody({ contactId: contact.id, sendAt: 20300101 }), 422, 'ERR_VALIDATION'],
      ['POST', '/schedules', modalBody({ contactId: contact.id, intervalo: 9, valorIntervalo: 1 }), 422, 'ERR_SCHEDULE_INVALID_RECURRENCE'],
      ['POST', '/schedules', modalBody({ contactId: contact.id, tipoDias: 7, valorIntervalo: 1 }), 422, 'ERR_SCHEDULE_INVALID_RECURRENCE'],
      [
        'POST',
        '/schedules',
        modalBody({ contactId: contact.id, valorIntervalo: '1', repeatUntil: '2030-03-01 09:00' }),
        422,
        'ERR_SCHEDULE_INVALID_RECURRENCE',
      ],
      ['POST', '/schedules', modalBody({ contactId: contact.id, valorIntervalo: -1 }), 422, 'ERR_VALIDATION'],
      ['POST', '/schedules', modalBody({ contactId: contact.id, openTicket: 'maybe' }), 422, 'ERR_VALIDATION'],
      ['POST', '/schedules', [1, 2], 422, 'ERR_VALIDATION'],
      ['PUT', `/schedules/${id}`, { statusTicket: 'solved' }, 422, 'ERR_VALIDATION'],
      ['PUT', `/schedules/${id}`, { sendAt: '2019-05-05T10:00' }, 422, 'ERR_SCHEDULE_IN_PAST'],
      ['PUT', '/schedules/abc', { body: 'x' }, 422, 'ERR_VALIDATION'],
      ['PUT', '/schedules/999999', { body: 'x' }, 404, 'ERR_NO_SCHEDULE_FOUND'],
      ['POST', `/schedules/${id}/media-upload`, new FormData(), 422, 'ERR_NO_FILE'],
      ['POST', `/schedules/${id}/media-upload`, upload(Buffer.alloc(0)), 422, 'ERR_EMPTY_FILE'],
      ['POST', `/schedules/${id}/media-upload`, upload(PNG, 'a.png', 'image/png', 'medias'), 422, 'ERR_UNEXPECTED_FILE_FIELD'],
      ['POST', '/schedules-message', messageForm({}), 422, 'ERR_SCHEDULE_NO_RECIPIENTS'],
      ['POST', '/schedules-message', messageForm({ contatos: String(contact.id), nome: '' }), 422, 'ERR_SCHEDULE_INVALID_NAME'],
      ['POST', '/schedules-message', messageForm({ contatos: `${contact.id},x` }), 422, 'ERR_VALIDATION'],
      ['POST', '/schedules-message', messageForm({ contatos: '999999' }), 404, 'ERR_NO_CONTACT_FOUND'],
      ['POST', '/schedules-message', messageForm({ tags: '999999' }), 404, 'ERR_NO_TAG_FOUND'],
      ['POST', '/schedules-message', messageForm({ contatos: String(contact.id), data_mensagem_programada: 'Invalid date' }), 422, 'ERR_SCHEDULE_INVALID_TIME'],
      ['POST', '/schedules-message', messageForm({ contatos: String(contact.id), criar_ticket: 'sim' }), 422, 'ERR_VALIDATION'],
      [
        'POST',
        '/schedules-message',
        messageForm({ contatos: String(contact.id), usuario_envio: '999999', mostrar_usuario_mensagem: 'true' }),
        404,
        'ERR_NO_USER_FOUND',
      ],
      [
        'POST',
        '/schedules-message',
        { nome: 'JSON', mensagem: 'Oi', data_mensagem_programada: '2030-01-01 10:00', contatos: [contact.id, 'x'] },
        422,
        'ERR_VALIDATION',
      ],
      ['GET', '/schedules?status=DONE', undefined, 422, 'ERR_VALIDATION'],
      ['GET', '/schedules-message/0', undefined, 422, 'ERR_VALIDATION'],
    ];
    for (const [method, path, body, status, error] of cases) {
      const res = await d.admin.call(method, path, body);
      expect([res.status, res.body?.error], `${method} ${path} ${body instanceof FormData ? 'form' : JSON.stringify(body)?.slice(0, 120)}`).to.deep.equal([
        status,
        error,
      ]);
    }
    const json = await d.admin.post('/schedules-message', {
      nome: 'Em JSON',
      mensagem: 'Oi',
      data_mensagem_programada: '2030-01-01T10:00:00-03:00',
      contatos: [contact.id],
    });
    expect(json.status, JSON.stringify(json.body)).to.equal(200);
    expect(json.body).to.include({ data_mensagem_programada: '2030-01-01T13:00:00.000Z', id_conexao: null, criar_ticket: false });
  });

  it('attaches a file to a schedule and removes it', async () => {
    const d = await sandboxDesk(b);
    const contact = (await d.admin.post('/contacts', { name: 'Anexo', number: '5511988884444' })).body;
    const id = (await d.ana.api.post('/schedules', modalBody({ contactId: contact.id }))).body.id as number;
    const attached = await d.ana.api.post(`/schedules/${id}/media-upload`, upload(PNG));
    expect(attached.status, JSON.stringify(attached.body)).to.equal(200);
    expect(attached.body).to.include({ mensagem: 'Arquivo Anexado', mediaName: 'lembrete.png', id });
    const file = await fetch(`${b.url}/${attached.body.mediaPath}`);
    expect(file.status).to.equal(200);
    const removed = await d.ana.api.delete(`/schedules/${id}/media-upload`);
    expect(removed.body).to.include({ mensagem: 'Arquivo Excluído', mediaPath: null, mediaName: null });
    expect((await fetch(`${b.url}/${attached.body.mediaPath}`)).status).to.equal(404);
  });

  it('keeps every company to its own schedules and ids, and users to their own schedules', async () => {
    const d = await sandboxDesk(b);
    const contact = (await d.admin.post('/contacts', { name: 'Nosso', number: '5511988883333' })).body;
    const queue = (await d.admin.post('/queue', { name: 'Vendas', color: '#00aa55' })).body.id as number;
    const tag = (await d.admin.post('/tags', { name: 'Nossa', color: '#00aa55' })).body.id as number;
    const ours = await d.admin.post(
      '/schedules',
      modalBody({ contactId: contact.id, chatappId: d.connectionId, ticketUserId: d.ana.id, queueId: queue, openTicket: 'enabled' }),
    );
    expect(ours.status, JSON.stringify(ours.body)).to.equal(200);
    expect(ours.body.ticketUser).to.deep.equal({ id: d.ana.id, name: 'Ana' });
    expect(ours.body.queue).to.deep.equal({ id: queue, name: 'Vendas' });
    const bulk = (await d.admin.post('/schedules-message', messageForm({ contatos: String(contact.id) }))).body.id as number;

    const other = await newCompanyWithAdmin(b);
    const o = other.api;
    expect((await o.get('/schedules')).body).to.deep.equal({ schedules: [], count: 0, hasMore: false });
    expect((await o.get('/schedules-message')).body).to.deep.equal({ schedules: [], count: 0, hasMore: false });
    for (const [method, path, body] of everyRoute(ours.body.id).filter(([, p]) => p.includes(`/${ours.body.id}`))) {
      const res = await o.call(method, path, body);
      expect([res.status, res.body], `${method} ${path}`).to.deep.equal([404, { error: 'ERR_NO_SCHEDULE_FOUND' }]);
    }
    expect((await o.get(`/schedules/${bulk}`)).status).to.equal(404);
    const theirContact = (await o.post('/contacts', { name: 'Deles', number: '5511988882222' })).body.id as number;
    for (const [field, value, error] of [
      ['contactId', contact.id, 'ERR_NO_CONTACT_FOUND'],
      ['chatappId', d.connectionId, 'ERR_NO_CONNECTION_FOUND'],
      ['ticketUserId', d.ana.id, 'ERR_NO_USER_FOUND'],
      ['queueId', queue, 'ERR_QUEUE_NOT_FOUND'],
    ] as const) {
      const res = await o.post('/schedules', modalBody({ contactId: theirContact, [field]: value }));
      expect([res.status, res.body], field).to.deep.equal([404, { error }]);
    }
    expect((await o.post('/schedules-message', messageForm({ contatos: String(contact.id) }))).body).to.deep.equal({ error: 'ERR_NO_CONTACT_FOUND' });
    expect((await o.post('/schedules-message', messageForm({ contatos: String(theirContact), tags: String(tag) }))).body).to.deep.equal({
      error: 'ERR_NO_TAG_FOUND',
    });
    expect((await o.get('/schedules')).body.count).to.equal(0);

    // Users read every schedule of the company, change only their own.
    expect((await d.bia.api.get(`/schedules/${ours.body.id}`)).status).to.equal(200);
    for (const [method, path, body] of everyRoute(ours.body.id).filter(([m, p]) => m !== 'GET' && p.includes(`/schedules/${ours.body.id}`))) {
      const res = await d.bia.api.call(method, path, body);
      expect([res.status, res.body], `${method} ${path}`).to.deep.equal([403, { error: 'ERR_NO_PERMISSION' }]);
    }
    expect((await d.bia.api.put(`/schedules-message/${bulk}`, messageForm({ nome: 'Meu' }))).body).to.deep.equal({ error: 'ERR_NO_PERMISSION' });
    expect((await d.admin.get(`/schedules/${ours.body.id}`)).body).to.include({ body: ours.body.body, mediaPath: null });
  });

  it('answers 403 on every route to a company whose plan lacks schedules', async () => {
    const { api: root } = await asSuper(b);
    const plan = await root.post('/plans', { name: 'Sem agendamentos', users: 5, connections: 2, queues: 3, amount: '10.00', useSchedules: false });
    expect(plan.status, JSON.stringify(plan.body)).to.equal(201);
    const small = await newCompanyWithAdmin(b, { planId: plan.body.id });
    for (const [method, path, body] of everyRoute(1)) {
      const res = await small.api.call(method, path, body);
      expect([res.status, res.body], `${method} ${path}`).to.deep.equal([403, { error: 'ERR_PLAN_FEATURE_DISABLED' }]);
    }
    expect((await small.api.post('/schedules', { body: 42 })).body).to.deep.equal({ error: 'ERR_PLAN_FEATURE_DISABLED' });
  });
});
