import { expect } from 'chai';
import { sandboxDesk } from '../support/sandbox-conversations.js';
import { client, startTestBackend, type Reply, type TestBackend } from '../support/test-backend.js';

/**
 * Every queue, menu, chatbot and queue-integration route answers a body its declared response
 * schema accepts: the test backend validates each answer and turns a mismatch into a 500.
 */
describe('HTTP: queue responses fit their schemas', () => {
  let b: TestBackend;
  before(async () => {
    b = await startTestBackend({ ALLOW_PRIVATE_URLS: 'true' });
  });
  after(async () => {
    await b.close();
  });
  beforeEach(async () => {
    await b.reset();
  });

  const ok = (res: Reply, status = 200) => {
    expect(res.status, JSON.stringify(res.body)).to.equal(status);
    return res.body;
  };

  it('answers every queue and menu route with a body of its schema', async () => {
    const d = await sandboxDesk(b);
    const queue = ok(
      await d.admin.post('/queue', {
        name: 'Vendas',
        color: '#2563EB',
        userIds: [d.ana.id],
        greetingMessage: 'Olá',
        schedules: [{ weekday: 'Segunda-feira', weekdayEn: 'monday', startTime: '08:00', endTime: '18:00' }],
      }),
      201,
    );
    expect(queue.users).to.deep.equal([{ id: d.ana.id, name: 'Ana' }]);
    const other = ok(await d.admin.post('/queue', { name: 'Suporte' }), 201);
    expect(ok(await d.admin.get('/queue'))).to.have.length(2);
    expect(ok(await d.ana.api.get('/queue/user')).map((q: { id: number }) => q.id)).to.deep.equal([queue.id]);
    ok(await d.admin.get(`/queue/${queue.id}`));
    ok(await d.admin.put(`/queue/${queue.id}`, { outOfHoursMessage: 'Fechado', userIds: [d.ana.id, d.bia.id] }));

    const option = ok(await d.admin.post('/queue-options', { queueId: queue.id, title: 'Orçamento', message: 'De quê?' }), 201);
    const child = ok(await d.admin.post('/queue-options', { parentId: option.id, title: 'Suporte', forwardQueueId: other.id }), 201);
    expect(child).to.include({ parentId: option.id, kind: 'option', option: '1' });
    ok(await d.admin.get(`/queue-options?queueId=${queue.id}&parentId=null`));
    ok(await d.admin.get('/queue-options'));
    ok(await d.admin.get(`/queue-options/${child.id}`));
    ok(await d.admin.put(`/queue-options/${child.id}`, { forwardQueueId: null, closeTicket: true }));
    expect(ok(await d.admin.delete(`/queue-options/${option.id}`))).to.deep.equal({ message: 'Option deleted' });

    const bot = ok(await d.admin.post('/chatbot', { queueId: queue.id, name: 'Robô', greetingMessage: 'Oi' }), 201);
    const sub = ok(await d.admin.post('/chatbot', { chatbotId: bot.id, name: 'Preços', option: '1' }), 201);
    ok(await d.admin.post('/chatbot', { chatbotId: sub.id, name: 'Tabela', forwardUserId: d.bia.id }), 201);
    expect(ok(await d.admin.get(`/chatbot?queueId=${queue.id}`))).to.deep.include({ count: 1, hasMore: false });
    const tree = ok(await d.admin.get(`/chatbot/${bot.id}`));
    expect(tree.options[0].options[0]).to.include({ name: 'Tabela', forwardUserId: d.bia.id });
    expect(tree.options[0].options[0].options).to.deep.equal([]);
    ok(await d.admin.put(`/chatbot/${sub.id}`, { name: 'Preços e prazos' }));
    expect(ok(await d.admin.delete(`/chatbot/${bot.id}`))).to.deep.equal({ message: 'Chatbot deleted' });

    expect(ok(await d.admin.delete(`/queue/${other.id}`))).to.deep.equal({ message: 'Queue deleted' });
    expect(ok(await client(b.url).get('/debug-queues')).status).to.be.oneOf(['ok', 'degraded']);
  });

  it('answers every queue-integration route with a body of its schema', async () => {
    const d = await sandboxDesk(b);
    const created = ok(
      await d.admin.post('/queueIntegration', { name: 'Robô', type: 'webhook', url: 'http://127.0.0.1:9/hook', token: 'tok', config: { a: 1 } }),
      201,
    );
    expect(created).to.include({ hasToken: true, hasSecret: false });
    expect(ok(await d.admin.get('/queueIntegration?searchParam=rob'))).to.deep.include({ count: 1, hasMore: false });
    ok(await d.admin.get(`/queueIntegration/${created.id}`));
    const updated = ok(await d.admin.put(`/queueIntegration/${created.id}`, { name: 'Robô 2', token: null, secret: 'segredo', config: null }));
    expect(updated).to.include({ name: 'Robô 2', hasToken: false, hasSecret: true });
    expect(updated.config).to.deep.equal({});
    const tested = ok(await d.admin.post('/queueIntegration/testsession', { integrationId: created.id }));
    expect(tested).to.deep.equal({ ok: false, status: null, error: 'ERR_INTEGRATION_UNREACHABLE' });
    expect(ok(await d.admin.delete(`/queueIntegration/${created.id}`))).to.deep.equal({ message: 'Integration deleted' });
  });
});
