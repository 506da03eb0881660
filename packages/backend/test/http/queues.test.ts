import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { openNamespace } from '../support/namespace-client.js';
import { eventually, sandboxDesk } from '../support/sandbox-conversations.js';
import { asSuper, client, login, newCompanyWithAdmin, startTestBackend, type TestBackend } from '../support/test-backend.js';

const MENU = '*1* - Vendas\n*2* - Suporte';

describe('HTTP: queues, menus, chatbots and queue integrations, end to end with the sandbox', () => {
  let b: TestBackend;
  let hook: http.Server;
  let hookUrl: string;
  const hits: Array<{ headers: http.IncomingHttpHeaders; body: string }> = [];
  let hookStatus = 200;
  before(async () => {
    b = await startTestBackend({ OUTBOX_RELAY_INTERVAL_MS: '50', ALLOW_PRIVATE_URLS: 'true', INTEGRATION_RETRY_DELAY_MS: '50' });
    hook = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => {
        body += c.toString('utf8');
      });
      req.on('end', () => {
        hits.push({ headers: req.headers, body });
        res.writeHead(hookStatus);
        res.end();
      });
    });
    await new Promise<void>((r) => hook.listen(0, '127.0.0.1', r));
    hookUrl = `http://127.0.0.1:${(hook.address() as AddressInfo).port}/bot`;
  });
  after(async () => {
    await b.close();
    await new Promise<void>((r) => {
      hook.closeAllConnections();
      hook.close(() => r());
    });
  });
  beforeEach(async () => {
    await b.reset();
    hits.length = 0;
    hookStatus = 200;
  });

  /** The sandbox desk with two queues (Vendas: Ana, Suporte: Bia) offered by its connection, which greets. */
  async function deskWithQueues() {
    const d = await sandboxDesk(b, { greetingMessage: 'Olá! Bem-vindo.' });
    const vendas = await d.admin.post('/queue', { name: 'Vendas', color: '#2563eb', userIds: [d.ana.id], greetingMessage: 'Vendas aqui.' });
    expect(vendas.status, JSON.stringify(vendas.body)).to.equal(201);
    const suporte = await d.admin.post('/queue', { name: 'Suporte', color: '#16a34a', userIds: [d.bia.id], greetingMessage: 'Suporte aqui, já te atendemos.' });
    const linked = await d.admin.put(`/chatapp/${d.connectionId}`, { queueIds: [vendas.body.id, suporte.body.id] });
    expect(linked.status, JSON.stringify(linked.body)).to.equal(200);
    expect(linked.body.queues.map((q: { name: string }) => q.name)).to.deep.equal(['Vendas', 'Suporte']);
    return { ...d, vendas: vendas.body as { id: number }, suporte: suporte.body as { id: number } };
  }

  it('a new number gets the greeting and the queue menu; "2" moves the ticket to queue 2, whose users see it on the namespace; a duplicate of that reply changes nothing', async () => {
    const d = await deskWithQueues();
    const { user } = await asSuper(b);
    const bia = await login(b.url, 'bia@desk.test', 'operator-pass-1');
    const ns = await openNamespace(b.url, user.companyId, bia.token);
    const number = '5511977770001';
    const first = await d.inbound(number, 'oi', { providerMessageId: 'wamid-oi' });
    await eventually('the greeting and the menu', async () => d.sent().filter((s) => s.to === number).length === 2);
    expect(d.sent().map((s) => s.content.body)).to.deep.equal(['Olá! Bem-vindo.', MENU]);
    expect(first).to.include({ status: 'pending', queueId: null });
    expect((await d.ana.api.get(`/tickets/${first.id}`)).status).to.equal(200);

    const moved = await d.inbound(number, '2', { providerMessageId: 'wamid-two' });
    expect(moved).to.include({ id: first.id, queueId: d.suporte.id, status: 'pending', unreadMessages: 2 });
    const frame = await ns.waitFor(
      (f) => f.event === `company-${user.companyId}-ticket` && f.data.ticket?.id === first.id && f.data.ticket?.queueId === d.suporte.id,
    );
    expect(frame.data.action).to.equal('update');
    await eventually('the queue greeting', async () => d.sent().length === 3);
    expect(d.sent()[2]!.content.body).to.equal('Suporte aqui, já te atendemos.');
    expect((await d.bia.api.get('/tickets')).body.tickets.map((t: { id: number }) => t.id)).to.deep.equal([first.id]);
    expect((await d.ana.api.get('/tickets')).body.tickets).to.deep.equal([]);
    expect((await d.ana.api.get(`/tickets/${first.id}`)).status).to.equal(403);

    b.sandbox!.inject(d.connectionId, { from: number, body: '2', providerMessageId: 'wamid-two' });
    const after = await d.inbound(number, 'obrigado', { providerMessageId: 'wamid-thanks' });
    expect(after).to.include({ queueId: d.suporte.id, unreadMessages: 3, status: 'pending' });
    const messages = (await d.admin.get(`/messages/${first.id}`)).body.messages as Array<{ body: string; fromMe: boolean }>;
    expect(messages.filter((m) => !m.fromMe).map((m) => m.body)).to.deep.equal(['oi', '2', 'obrigado']);
    // Another contact writing afterwards is greeted; its greeting and menu go out after anything the
    // duplicate '2' or 'obrigado' caused, so once they are there nothing more to this number can follow.
    const other = '5511977770009';
    await d.inbound(other, 'oi');
    await eventually('the greeting and the menu of the other contact', async () => d.sent().filter((s) => s.to === other).length === 2);
    expect(d.sent().map((s) => [s.to, s.content.body])).to.deep.equal([
      [number, 'Olá! Bem-vindo.'],
      [number, MENU],
      [number, 'Suporte aqui, já te atendemos.'],
      [other, 'Olá! Bem-vindo.'],
      [other, MENU],
    ]);
    ns.close();
  });

  it('writes a chatbot and its nested steps together: a refused step leaves no chatbot behind', async () => {
    const d = await deskWithQueues();
    const refused = await d.admin.post('/chatbot', {
      queueId: d.vendas.id,
      name: 'Atendimento',
      greetingMessage: 'Escolha',
      options: [{ name: 'Falar com alguém', queueType: 'attendent', optUserId: 999_999 }],
    });
    expect(refused.status, JSON.stringify(refused.body)).to.equal(404);
    expect((await d.admin.get(`/chatbot?queueId=${d.vendas.id}`)).body).to.include({ count: 0 });
    const bot = await d.admin.post('/chatbot', { queueId: d.vendas.id, name: 'Atendimento', greetingMessage: 'Escolha' });
    expect(bot.status, JSON.stringify(bot.body)).to.equal(201);
    const edit = await d.admin.put(`/chatbot/${bot.body.id}`, {
      name: 'Atendimento 2',
      options: [
        { name: 'Vendas', queueType: 'queue', optQueueId: d.vendas.id },
        { name: 'Falar com alguém', queueType: 'attendent', optUserId: 999_999 },
      ],
    });
    expect(edit.status, JSON.stringify(edit.body)).to.equal(404);
    const after = await d.admin.get(`/chatbot/${bot.body.id}`);
    expect(after.body).to.include({ name: 'Atendimento' });
    expect(after.body.options ?? []).to.deep.equal([]);
  });

  it('walks a menu tree of options and chatbots from the replies, re-sending the menu on a bad reply', async () => {
    const d = await deskWithQueues();
    const option = await d.admin.post('/queue-options', { queueId: d.vendas.id, title: 'Orçamento', message: 'De quê?' });
    expect(option.status, JSON.stringify(option.body)).to.equal(201);
    expect(option.body).to.include({ option: '1', kind: 'option', parentId: null });
    await d.admin.post('/queue-options', { parentId: option.body.id, title: 'Plantas', message: 'Um vendedor já vem.' });
    const bot = await d.admin.post('/chatbot', { queueId: d.vendas.id, name: 'Horários', greetingMessage: 'Das 8h às 18h.', option: 'h', closeTicket: true });
    expect(bot.status, JSON.stringify(bot.body)).to.equal(201);
    expect((await d.ana.api.get(`/queue-options?queueId=${d.vendas.id}&parentId=null`)).body.map((o: { title: string }) => o.title)).to.deep.equal([
      'Orçamento',
    ]);
    expect((await d.ana.api.get(`/chatbot/${bot.body.id}`)).body).to.include({ name: 'Horários', option: 'h', closeTicket: true });
    const number = '5511977770002';
    await d.inbound(number, 'oi');
    await d.inbound(number, '1');
    await d.inbound(number, 'x');
    await d.inbound(number, '1');
    const t = await d.inbound(number, '1');
    await eventually('five bot messages', async () => d.sent().length === 6);
    expect(d.sent().map((s) => s.content.body)).to.deep.equal([
      'Olá! Bem-vindo.',
      MENU,
      'Vendas aqui.\n\n*1* - Orçamento\n*h* - Horários',
      'Vendas aqui.\n\n*1* - Orçamento\n*h* - Horários',
      'De quê?\n\n*1* - Plantas',
      'Um vendedor já vem.',
    ]);
    expect(t).to.include({ queueId: d.vendas.id, status: 'pending' });
  });

  it('queue CRUD: auth, admin-only writes, bad input, the plan limit (403) and tenant isolation', async () => {
    const d = await deskWithQueues();
    expect((await d.ana.api.get('/queue')).body.map((q: { name: string; users: Array<{ id: number }> }) => [q.name, q.users.map((u) => u.id)])).to.deep.equal([
      ['Vendas', [d.ana.id]],
      ['Suporte', [d.bia.id]],
    ]);
    expect((await d.bia.api.get('/queue/user')).body.map((q: { name: string }) => q.name)).to.deep.equal(['Suporte']);
    expect((await d.ana.api.post('/queue', { name: 'Ana' })).status).to.equal(403);
    expect((await d.ana.api.put(`/queue/${d.vendas.id}`, { name: 'x' })).status).to.equal(403);
    const renamed = await d.admin.put(`/queue/${d.vendas.id}`, {
      name: 'Comercial',
      schedules: [{ weekday: 'Segunda', weekdayEn: 'monday', startTime: '08:00', endTime: '12:00' }],
    });
    expect(renamed.body).to.include({ name: 'Comercial' });
    expect(renamed.body.schedules).to.have.length(1);
    for (const bad of [
      await d.admin.post('/queue', {}),
      await d.admin.post('/queue', { name: 42 }),
      await d.admin.post('/queue', { name: 'X', color: 'blue' }),
      await d.admin.post('/queue', { name: 'X', userIds: 'all' }),
      await d.admin.post('/queue', { name: ' ' }),
      await d.admin.post('/queue', { name: 'X', schedules: [{ weekday: 'x', weekdayEn: 'monday', startTime: '25:00', endTime: '26:00' }] }),
      await d.admin.get('/queue/abc'),
      await d.admin.post('/queue-options', { title: 'no queue' }),
      await d.admin.get('/queue-options?parentId=x'),
      await d.admin.post('/chatbot', { queueId: d.vendas.id }),
      await d.admin.put(`/chatapp/${d.connectionId}`, { queueIds: ['x'] }),
    ]) {
      expect(bad.status, JSON.stringify(bad.body)).to.equal(422);
      expect(bad.body.error).to.be.a('string');
    }
    expect((await d.admin.post('/queue', { name: 'suporte' })).status).to.equal(409);
    expect((await d.admin.post('/queue', '{"name":')).status).to.equal(400);
    expect((await d.admin.get('/queue/999999')).body).to.deep.equal({ error: 'ERR_QUEUE_NOT_FOUND' });
    expect((await d.admin.put(`/chatapp/${d.connectionId}`, { queueIds: [999999] })).status).to.equal(404);
    expect((await d.admin.put(`/tickets/999999`, { queueId: d.vendas.id })).status).to.equal(404);

    const o = await newCompanyWithAdmin(b);
    const option = await d.admin.post('/queue-options', { queueId: d.vendas.id, title: 'A' });
    const bot = await d.admin.post('/chatbot', { queueId: d.vendas.id, name: 'B' });
    for (const res of [
      await o.api.get(`/queue/${d.vendas.id}`),
      await o.api.put(`/queue/${d.vendas.id}`, { name: 'x' }),
      await o.api.delete(`/queue/${d.vendas.id}`),
      await o.api.get(`/queue-options/${option.body.id}`),
      await o.api.put(`/queue-options/${option.body.id}`, { title: 'x' }),
      await o.api.delete(`/queue-options/${option.body.id}`),
      await o.api.post('/queue-options', { queueId: d.vendas.id, title: 'x' }),
      await o.api.get(`/chatbot/${bot.body.id}`),
      await o.api.put(`/chatbot/${bot.body.id}`, { name: 'x' }),
      await o.api.delete(`/chatbot/${bot.body.id}`),
    ])
      expect(res.status, JSON.stringify(res.body)).to.equal(404);
    expect((await o.api.get('/queue')).body).to.deep.equal([]);
    expect((await o.api.get('/chatbot')).body).to.deep.equal({ chatbots: [], count: 0, hasMore: false });

    const { api: root } = await asSuper(b);
    const plan = await root.post('/plans', { name: 'One queue', users: 5, connections: 2, queues: 1, amount: '10.00' });
    const small = await newCompanyWithAdmin(b, { planId: plan.body.id });
    expect((await small.api.post('/queue', { name: 'Única' })).status).to.equal(201);
    const over = await small.api.post('/queue', { name: 'Segunda' });
    expect(over.status).to.equal(403);
    expect(over.body).to.deep.equal({ error: 'ERR_QUEUE_CREATION_COUNT' });

    expect((await d.admin.delete(`/queue/${d.vendas.id}`)).status).to.equal(200);
    expect((await d.admin.get(`/chatapp/${d.connectionId}`)).body.queues.map((q: { id: number }) => q.id)).to.deep.equal([d.suporte.id]);
    expect((await d.admin.get(`/queue-options/${option.body.id}`)).status).to.equal(404);
  });

  it("queue integrations: CRUD behind the plan feature, testsession, and signed deliveries of a queue's inbound messages", async () => {
    const d = await deskWithQueues();
    const created = await d.admin.post('/queueIntegration', {
      name: 'Robô n8n',
      type: 'n8n',
      url: hookUrl,
      token: 'tok-123',
      secret: 'segredo',
      config: { workflow: 'vendas' },
    });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    expect(created.body).to.include({ name: 'Robô n8n', type: 'n8n', url: hookUrl, hasToken: true, hasSecret: true });
    expect(created.body).to.not.have.any.keys('token', 'secret');
    expect((await d.admin.get('/queueIntegration')).body).to.deep.include({ count: 1, hasMore: false });
    expect((await d.ana.api.get('/queueIntegration')).status).to.equal(403);
    expect((await d.admin.post('/queueIntegration', { name: 'x', type: 'smtp', url: hookUrl })).status).to.equal(422);
    expect((await d.admin.post('/queueIntegration', { name: 'x', type: 'webhook' })).status).to.equal(422);

    const test = await d.admin.post('/queueIntegration/testsession', { integrationId: created.body.id });
    expect(test.status, JSON.stringify(test.body)).to.equal(200);
    expect(test.body).to.deep.equal({ ok: true, status: 200 });
    expect(JSON.parse(hits[0]!.body)).to.include({ event: 'test' });
    hookStatus = 500;
    expect((await d.admin.post('/queueIntegration/testsession', { type: 'webhook', url: hookUrl })).body).to.deep.equal({ ok: false, status: 500 });
    hookStatus = 200;
    hits.length = 0;

    expect((await d.admin.put(`/queue/${d.suporte.id}`, { integrationId: created.body.id })).body).to.include({ integrationId: created.body.id });
    const number = '5511977770003';
    await d.inbound(number, 'oi');
    await d.inbound(number, '2');
    await d.inbound(number, 'preciso de ajuda');
    // The deliveries go out one at a time, in order: a later message's delivery comes after any
    // delivery of 'oi' (sent before the ticket had a queue) or a second one of the two.
    await d.inbound(number, 'mais uma coisa');
    await eventually('the later delivery', async () => hits.some((h) => JSON.parse(h.body).message.body === 'mais uma coisa'));
    const bodies = hits.map((h) => JSON.parse(h.body) as Record<string, any>);
    expect(bodies.map((p) => p.message.body)).to.deep.equal(['2', 'preciso de ajuda', 'mais uma coisa']);
    expect(bodies[0]).to.deep.include({ event: 'message.inbound', integration: { id: created.body.id, name: 'Robô n8n', type: 'n8n' } });
    expect(bodies[0]!.contact).to.include({ number });
    expect(bodies[0]!.ticket).to.include({ queueId: d.suporte.id });
    for (const h of hits) {
      expect(h.headers['authorization']).to.equal('Bearer tok-123');
      expect(h.headers['x-servicedesk-signature-256']).to.equal(`sha256=${createHmac('sha256', 'segredo').update(h.body).digest('hex')}`);
    }

    hookStatus = 503;
    hits.length = 0;
    await d.inbound(number, 'alguém?');
    await eventually('a retried delivery', async () => hits.length >= 2);
    hookStatus = 200;
    await eventually(
      'the delivery to go through',
      async () => hits.length >= 3 && hits.length === hits.filter((h) => JSON.parse(h.body).message.body === 'alguém?').length,
    );
    expect(new Set(hits.map((h) => h.headers['x-servicedesk-delivery'])).size).to.equal(1);

    const { api: root } = await asSuper(b);
    const plan = await root.post('/plans', { name: 'No integrations', users: 5, connections: 2, queues: 3, amount: '10.00', useIntegrations: false });
    const small = await newCompanyWithAdmin(b, { planId: plan.body.id });
    for (const res of [
      await small.api.get('/queueIntegration'),
      await small.api.post('/queueIntegration', { name: 'x', type: 'webhook', url: hookUrl }),
      await small.api.get(`/queueIntegration/${created.body.id}`),
      await small.api.post('/queueIntegration/testsession', { url: hookUrl }),
    ])
      expect(res.body).to.deep.equal({ error: 'ERR_PLAN_FEATURE_DISABLED' });
    const other = await newCompanyWithAdmin(b);
    expect((await other.api.get(`/queueIntegration/${created.body.id}`)).status).to.equal(404);
    expect((await other.api.post('/queueIntegration/testsession', { integrationId: created.body.id })).status).to.equal(404);
    expect((await d.admin.delete(`/queueIntegration/${created.body.id}`)).status).to.equal(200);
    expect((await d.admin.get(`/queue/${d.suporte.id}`)).body.integrationId).to.equal(null);
  });

  it('GET /debug-queues is public and answers counts only', async () => {
    const d = await deskWithQueues();
    await d.inbound('5511977770004', 'mensagem-secreta');
    const res = await client(b.url).get('/debug-queues');
    expect(res.status).to.equal(200);
    expect(res.body).to.have.all.keys('status', 'database', 'cache', 'outbox', 'broker', 'backgroundJobs', 'checkedAt');
    expect(res.body.outbox.pending).to.be.a('number');
    expect(res.body.broker).to.deep.equal({ connected: true });
    const text = JSON.stringify(res.body);
    for (const secret of ['5511977770004', 'Vendas', 'Sandbox', 'mensagem-secreta']) expect(text).to.not.include(secret);
    for (const family of Object.keys(res.body.outbox.bySubject)) expect(family).to.match(/^[a-z.]+$/);
  });
});
