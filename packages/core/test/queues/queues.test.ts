import { expect } from 'chai';
import { integrationDeliverSubject, RetryableDeliveryError, type IntegrationDeliver } from '../../src/index.js';
import { FixedClock } from '../../src/in-memory/support.js';
import { ShowJobQueueHealth } from '../../src/queues/show-job-queue-health.js';
import { botWorld } from './bot-world.js';

const code = (p: Promise<unknown>) =>
  p.then(
    () => 'resolved',
    (e: { code?: string }) => e.code,
  );

describe('Queues, options, chatbots and integrations (in-memory use cases)', () => {
  describe('queues', () => {
    it('admins create, update and delete queues with users, announced on the queue namespace; operators read them', async () => {
      const w = await botWorld();
      const created = await w.app.queues.createQueue.execute({
        actor: w.admin,
        name: ' Financeiro ',
        color: '#AABBCC',
        userIds: [w.ana.userId, w.bia.userId, w.ana.userId],
      });
      expect(created).to.include({ name: 'Financeiro', color: '#aabbcc', orderQueue: 3, integrationId: null, greetingMessage: null });
      expect(created.users.map((u) => u.name)).to.deep.equal(['Ana', 'Bia']);
      expect((await w.app.queues.listQueues.execute({ actor: w.ana })).map((q) => q.name)).to.deep.equal(['Sales', 'Support', 'Financeiro']);
      expect((await w.app.queues.listMyQueues.execute({ actor: w.bia })).map((q) => q.name)).to.deep.equal(['Support', 'Financeiro']);
      const updated = await w.app.queues.updateQueue.execute({
        actor: w.admin,
        queueId: created.id,
        greetingMessage: 'Oi',
        orderQueue: 0,
        userIds: [w.bia.userId],
      });
      expect(updated).to.include({ greetingMessage: 'Oi', orderQueue: 0 });
      expect(updated.users.map((u) => u.id)).to.deep.equal([w.bia.userId]);
      expect((await w.app.queues.listMyQueues.execute({ actor: w.ana })).map((q) => q.name)).to.deep.equal(['Sales']);
      expect((await w.app.queues.showQueue.execute({ actor: w.ana, queueId: created.id })).name).to.equal('Financeiro');
      expect(await code(w.app.queues.createQueue.execute({ actor: w.ana, name: 'Nope' }))).to.equal('ERR_NO_PERMISSION');
      expect(await code(w.app.queues.updateQueue.execute({ actor: w.ana, queueId: created.id, name: 'Nope' }))).to.equal('ERR_NO_PERMISSION');
      expect(await code(w.app.queues.deleteQueue.execute({ actor: w.bia, queueId: created.id }))).to.equal('ERR_NO_PERMISSION');
      await w.app.queues.deleteQueue.execute({ actor: w.admin, queueId: created.id });
      expect(await code(w.app.queues.showQueue.execute({ actor: w.admin, queueId: created.id }))).to.equal('ERR_QUEUE_NOT_FOUND');
      expect(w.ports.realtime.events.filter((e) => e.entity === 'queue').map((e) => e.data.action)).to.deep.equal(['update', 'update', 'delete']);
    });

    it("refuses bad fields, a name in use (409), unknown users or integrations (404), and the plan's limit (403)", async () => {
      const w = await botWorld();
      for (const [input, expected] of [
        [{ name: '' }, 'ERR_INVALID_QUEUE_NAME'],
        [{ name: 'x'.repeat(101) }, 'ERR_INVALID_QUEUE_NAME'],
        [{ name: 'X', color: 'red' }, 'ERR_INVALID_QUEUE_COLOR'],
        [{ name: 'X', orderQueue: -1 }, 'ERR_INVALID_QUEUE_ORDER'],
        [{ name: 'sales' }, 'ERR_QUEUE_NAME_ALREADY_EXISTS'],
        [{ name: 'X', schedules: [{ weekday: 'x', weekdayEn: 'monday', startTime: '18:00', endTime: '08:00' }] }, 'ERR_INVALID_SCHEDULES'],
        [{ name: 'X', userIds: [999] }, 'ERR_NO_USER_FOUND'],
        [{ name: 'X', integrationId: 999 }, 'ERR_INTEGRATION_NOT_FOUND'],
        [{ name: 'X', greetingMessage: 'x'.repeat(4001) }, 'ERR_QUEUE_TEXT_TOO_LONG'],
      ] as const) {
        expect(await code(w.app.queues.createQueue.execute({ actor: w.admin, ...input } as never)), JSON.stringify(input)).to.equal(expected);
      }
      await w.ports.plans.update({ ...w.plan, queues: 3 });
      await w.app.queues.createQueue.execute({ actor: w.admin, name: 'Third' });
      expect(await code(w.app.queues.createQueue.execute({ actor: w.admin, name: 'Fourth' }))).to.equal('ERR_QUEUE_CREATION_COUNT');
      await w.ports.plans.update({ ...w.plan, queues: 10, features: { ...w.plan.features, integrations: false } });
      const integration = await w.app.queues.createQueueIntegration.execute({ actor: w.admin, name: 'Hook', type: 'webhook', url: 'https://bot.example.com' });
      expect(await code(w.app.queues.updateQueue.execute({ actor: w.admin, queueId: w.sales.id, integrationId: integration.id }))).to.equal(
        'ERR_PLAN_FEATURE_DISABLED',
      );
    });

    it("connections offer queues: created and updated with queueIds (the company's only), shown with them", async () => {
      const w = await botWorld();
      const created = await w.app.connections.createConnection.execute({
        actor: w.admin,
        kind: 'chatapp',
        name: 'Second',
        provider: 'sandbox',
        queueIds: [w.support.id, w.sales.id],
      });
      expect(created.queues.map((q) => q.name)).to.deep.equal(['Sales', 'Support']);
      const updated = await w.app.connections.updateConnection.execute({ actor: w.admin, connectionId: created.id, queueIds: [w.support.id] });
      expect(updated.queues.map((q) => q.id)).to.deep.equal([w.support.id]);
      expect((await w.app.connections.showConnection.execute({ actor: w.ana, connectionId: created.id })).queues).to.have.length(1);
      expect((await w.app.connections.listConnections.execute({ actor: w.ana })).map((c) => c.queues.length)).to.deep.equal([2, 1]);
      expect(await code(w.app.connections.updateConnection.execute({ actor: w.admin, connectionId: created.id, queueIds: [999] }))).to.equal(
        'ERR_QUEUE_NOT_FOUND',
      );
      expect(
        await code(w.app.connections.createConnection.execute({ actor: w.admin, kind: 'chatapp', name: 'Third', provider: 'sandbox', queueIds: [999] })),
      ).to.equal('ERR_QUEUE_NOT_FOUND');
    });
  });

  describe('ticket visibility by queue', () => {
    it("a user sees pending tickets of their queues and of none, and their own; not other queues' (list, count and show)", async () => {
      const w = await botWorld();
      await w.say('oi', { from: '5511900000001' });
      await w.say('oi', { from: '5511900000002' });
      await w.say('1', { from: '5511900000002' });
      await w.say('oi', { from: '5511900000003' });
      await w.say('2', { from: '5511900000003' });
      const [none, inSales, inSupport] = await Promise.all(['5511900000001', '5511900000002', '5511900000003'].map((n) => w.ticket(n)));
      const listed = async (actor: typeof w.ana) => (await w.app.tickets.listTickets.execute({ actor })).tickets.map((t) => t.id).sort();
      expect(await listed(w.ana)).to.deep.equal([none!.id, inSales!.id].sort());
      expect(await listed(w.bia)).to.deep.equal([none!.id, inSupport!.id].sort());
      expect(await listed(w.admin)).to.have.length(3);
      expect((await w.app.tickets.countTickets.execute({ actor: w.ana })).count).to.equal(2);
      expect(await code(w.app.tickets.showTicket.execute({ actor: w.ana, ticketId: inSupport!.id }))).to.equal('ERR_NO_PERMISSION');
      expect(await code(w.app.tickets.showTicket.execute({ actor: w.ana, ticketId: inSales!.id }))).to.equal('resolved');
      await w.app.tickets.updateTicket.execute({ actor: w.admin, ticketId: inSupport!.id, userId: w.ana.userId });
      expect(await code(w.app.tickets.showTicket.execute({ actor: w.ana, ticketId: inSupport!.id }))).to.equal('resolved');
      expect(await code(w.app.tickets.updateTicket.execute({ actor: w.admin, ticketId: none!.id, queueId: 999 }))).to.equal('ERR_QUEUE_NOT_FOUND');
    });
  });

  describe('queue options and chatbots', () => {
    it('admins build a tree: numbered by default, unique keys among siblings, moves without cycles; children go with their parent', async () => {
      const w = await botWorld();
      const a = await w.app.queues.createQueueOption.execute({ actor: w.admin, queueId: w.sales.id, title: 'A' });
      const b = await w.app.queues.createQueueOption.execute({ actor: w.admin, queueId: w.sales.id, title: 'B', message: 'Sobre B' });
      const a1 = await w.app.queues.createQueueOption.execute({ actor: w.admin, parentId: a.id, title: 'A1', option: 'x' });
      expect([a.option, b.option, a1.option]).to.deep.equal(['1', '2', 'x']);
      expect(a1).to.include({ queueId: w.sales.id, parentId: a.id, kind: 'option' });
      expect((await w.app.queues.listQueueOptions.execute({ actor: w.ana, queueId: w.sales.id, parentId: null })).map((o) => o.title)).to.deep.equal([
        'A',
        'B',
      ]);
      expect((await w.app.queues.listQueueOptions.execute({ actor: w.ana, parentId: a.id })).map((o) => o.title)).to.deep.equal(['A1']);
      expect(await code(w.app.queues.createQueueOption.execute({ actor: w.admin, queueId: w.sales.id, title: 'Dup', option: '1' }))).to.equal(
        'ERR_QUEUE_OPTION_ALREADY_EXISTS',
      );
      expect(await code(w.app.queues.updateQueueOption.execute({ actor: w.admin, queueOptionId: a.id, parentId: a1.id }))).to.equal('ERR_QUEUE_OPTION_CYCLE');
      expect(await code(w.app.queues.updateQueueOption.execute({ actor: w.admin, queueOptionId: a.id, parentId: a.id }))).to.equal('ERR_QUEUE_OPTION_CYCLE');
      expect(await w.app.queues.updateQueueOption.execute({ actor: w.admin, queueOptionId: b.id, parentId: a.id, option: '2' })).to.include({ parentId: a.id });
      for (const [input, expected] of [
        [{ title: 'x' }, 'ERR_QUEUE_REQUIRED'],
        [{ queueId: 999, title: 'x' }, 'ERR_QUEUE_NOT_FOUND'],
        [{ queueId: w.sales.id, title: ' ' }, 'ERR_INVALID_QUEUE_OPTION_TITLE'],
        [{ queueId: w.sales.id, title: 'x', option: 'a*b' }, 'ERR_INVALID_QUEUE_OPTION_KEY'],
        [{ parentId: 999, title: 'x' }, 'ERR_QUEUE_OPTION_NOT_FOUND'],
        [{ queueId: w.support.id, parentId: a.id, title: 'x' }, 'ERR_QUEUE_OPTION_QUEUE_MISMATCH'],
        [{ queueId: w.sales.id, title: 'x', forwardQueueId: w.support.id, closeTicket: true }, 'ERR_QUEUE_OPTION_ONE_ACTION'],
        [{ queueId: w.sales.id, title: 'x', forwardUserId: 999 }, 'ERR_NO_USER_FOUND'],
      ] as const) {
        expect(await code(w.app.queues.createQueueOption.execute({ actor: w.admin, ...input } as never)), JSON.stringify(input)).to.equal(expected);
      }
      expect(await code(w.app.queues.createQueueOption.execute({ actor: w.ana, queueId: w.sales.id, title: 'x' }))).to.equal('ERR_NO_PERMISSION');
      await w.app.queues.deleteQueueOption.execute({ actor: w.admin, queueOptionId: a.id });
      expect(await w.app.queues.listQueueOptions.execute({ actor: w.admin, queueId: w.sales.id })).to.deep.equal([]);
    });

    it("chatbots are the same tree under the lineage's names, in the same menus as options, shown with their subtree", async () => {
      const w = await botWorld();
      await w.app.queues.createQueueOption.execute({ actor: w.admin, queueId: w.sales.id, title: 'Opção' });
      const bot = await w.app.queues.createChatbot.execute({ actor: w.admin, queueId: w.sales.id, name: 'Robô', greetingMessage: 'Olá, sou o robô' });
      expect(bot).to.include({ option: '2', chatbotId: null, name: 'Robô', greetingMessage: 'Olá, sou o robô' });
      const child = await w.app.queues.createChatbot.execute({ actor: w.admin, chatbotId: bot.id, name: 'Preços', greetingMessage: 'Tabela: ...' });
      await w.app.queues.createChatbot.execute({ actor: w.admin, chatbotId: child.id, name: 'Atacado', closeTicket: true });
      const shown = await w.app.queues.showChatbot.execute({ actor: w.ana, chatbotId: bot.id });
      expect(shown.options!.map((o) => [o.name, o.options!.map((g) => g.name)])).to.deep.equal([['Preços', ['Atacado']]]);
      const list = await w.app.queues.listChatbots.execute({ actor: w.ana, searchParam: 'rob' });
      expect(list).to.deep.include({ count: 1, hasMore: false });
      expect(await code(w.app.queues.showQueueOption.execute({ actor: w.admin, queueOptionId: bot.id }))).to.equal('ERR_QUEUE_OPTION_NOT_FOUND');
      expect(await code(w.app.queues.showChatbot.execute({ actor: w.admin, chatbotId: child.id + 100 }))).to.equal('ERR_CHATBOT_NOT_FOUND');
      expect((await w.app.queues.updateChatbot.execute({ actor: w.admin, id: child.id, name: 'Valores' })).name).to.equal('Valores');
      await w.say('oi');
      await w.say('1');
      await w.say('2');
      expect(w.sent().slice(-2)).to.deep.equal(['Sales here.\n\n*1* - Opção\n*2* - Robô', 'Olá, sou o robô\n\n*1* - Valores']);
      await w.app.queues.deleteChatbot.execute({ actor: w.admin, chatbotId: bot.id });
      expect((await w.app.queues.listChatbots.execute({ actor: w.admin })).count).to.equal(0);
      expect(await w.app.queues.listQueueOptions.execute({ actor: w.admin })).to.have.length(1);
    });

    it("keeps tenants apart: another company's queues, options and chatbots are 404", async () => {
      const w = await botWorld();
      const other = await w.ports.companies.add({ ...(await w.ports.companies.findById(w.acme.id))!, name: 'Other' });
      const intruder = { userId: 999, companyId: other.id, profile: 'admin' as const };
      const option = await w.app.queues.createQueueOption.execute({ actor: w.admin, queueId: w.sales.id, title: 'A' });
      expect(await code(w.app.queues.showQueue.execute({ actor: intruder, queueId: w.sales.id }))).to.equal('ERR_QUEUE_NOT_FOUND');
      expect(await code(w.app.queues.updateQueue.execute({ actor: intruder, queueId: w.sales.id, name: 'x' }))).to.equal('ERR_QUEUE_NOT_FOUND');
      expect(await code(w.app.queues.deleteQueue.execute({ actor: intruder, queueId: w.sales.id }))).to.equal('ERR_QUEUE_NOT_FOUND');
      expect(await code(w.app.queues.createQueueOption.execute({ actor: intruder, queueId: w.sales.id, title: 'x' }))).to.equal('ERR_QUEUE_NOT_FOUND');
      expect(await code(w.app.queues.updateQueueOption.execute({ actor: intruder, queueOptionId: option.id, title: 'x' }))).to.equal(
        'ERR_QUEUE_OPTION_NOT_FOUND',
      );
      expect(await w.app.queues.listQueues.execute({ actor: intruder })).to.deep.equal([]);
      expect(await w.app.queues.listQueueOptions.execute({ actor: intruder })).to.deep.equal([]);
    });
  });

  describe('queue integrations', () => {
    it("admins manage integrations with write-only credentials; testsession answers the endpoint's status", async () => {
      const w = await botWorld();
      const created = await w.app.queues.createQueueIntegration.execute({
        actor: w.admin,
        name: 'n8n',
        type: 'n8n',
        url: 'https://n8n.example.com/webhook/x',
        token: 'tok-1',
        secret: 's3cret',
        config: { flow: 'a' },
      });
      expect(created).to.include({ name: 'n8n', type: 'n8n', hasToken: true, hasSecret: true });
      expect(created).to.not.have.any.keys('token', 'secret');
      expect((await w.app.queues.updateQueueIntegration.execute({ actor: w.admin, integrationId: created.id, token: null })).hasToken).to.equal(false);
      expect((await w.app.queues.listQueueIntegrations.execute({ actor: w.admin })).count).to.equal(1);
      for (const [input, expected] of [
        [{ name: 'x', type: 'smtp', url: 'https://a.example.com' }, 'ERR_INVALID_INTEGRATION_TYPE'],
        [{ name: 'x', type: 'webhook', url: 'ftp://a' }, 'ERR_INVALID_INTEGRATION_URL'],
        [{ name: 'x', type: 'webhook', url: 'https://u:p@a.example.com' }, 'ERR_INVALID_INTEGRATION_URL'],
        [{ name: 'N8N', type: 'webhook', url: 'https://a.example.com' }, 'ERR_INTEGRATION_NAME_ALREADY_EXISTS'],
        [{ name: 'x', type: 'webhook', url: 'https://a.example.com', secret: 'with space' }, 'ERR_INVALID_INTEGRATION_CREDENTIAL'],
      ] as const) {
        expect(await code(w.app.queues.createQueueIntegration.execute({ actor: w.admin, ...input })), JSON.stringify(input)).to.equal(expected);
      }
      expect(await code(w.app.queues.listQueueIntegrations.execute({ actor: w.ana }))).to.equal('ERR_NO_PERMISSION');
      const fake = w.ports.conversationIntegrations;
      expect(await w.app.queues.testQueueIntegration.execute({ actor: w.admin, integrationId: created.id })).to.deep.equal({ ok: true, status: 200 });
      expect(fake.requests[0]).to.deep.include({ url: 'https://n8n.example.com/webhook/x', token: null, secret: 's3cret', event: 'test' });
      fake.status = 500;
      expect(await w.app.queues.testQueueIntegration.execute({ actor: w.admin, type: 'webhook', url: 'https://other.example.com' })).to.deep.equal({
        ok: false,
        status: 500,
      });
      fake.status = null;
      expect(await w.app.queues.testQueueIntegration.execute({ actor: w.admin, integrationId: created.id })).to.deep.equal({
        ok: false,
        status: null,
        error: 'ERR_INTEGRATION_UNREACHABLE',
      });
      await w.app.queues.deleteQueueIntegration.execute({ actor: w.admin, integrationId: created.id });
      expect(await code(w.app.queues.showQueueIntegration.execute({ actor: w.admin, integrationId: created.id }))).to.equal('ERR_INTEGRATION_NOT_FOUND');
    });

    it('each inbound message of a ticket in a queue with an integration is written to the outbox and delivered, retried while the endpoint fails', async () => {
      const w = await botWorld();
      const integration = await w.app.queues.createQueueIntegration.execute({
        actor: w.admin,
        name: 'Hook',
        type: 'webhook',
        url: 'https://bot.example.com/in',
        secret: 'k',
      });
      await w.app.queues.updateQueue.execute({ actor: w.admin, queueId: w.support.id, integrationId: integration.id });
      await w.say('oi');
      expect(w.ports.outbox.entries.filter((e) => e.subject.startsWith('cmd.integration'))).to.have.length(0);
      const reply = await w.say('2');
      await w.say('tudo bem?');
      const entries = w.ports.outbox.entries.filter((e) => e.subject === integrationDeliverSubject(integration.id));
      expect(entries.map((e) => (e.payload as IntegrationDeliver).data.message.body)).to.deep.equal(['2', 'tudo bem?']);
      await w.app.conversations.routeInbound.execute(reply);
      expect(w.ports.outbox.entries.filter((e) => e.subject === integrationDeliverSubject(integration.id))).to.have.length(2);
      const command = entries[0]!.payload as IntegrationDeliver;
      expect(command.data.ticket).to.include({ queueId: w.support.id });
      expect(command.data.contact).to.include({ number: '5511999990000' });
      const fake = w.ports.conversationIntegrations;
      expect(await w.app.queues.deliverIntegrationEvent.execute(command)).to.equal('delivered');
      expect(fake.requests[0]).to.deep.include({ url: 'https://bot.example.com/in', secret: 'k', deliveryId: command.deliveryId, event: 'message.inbound' });
      expect(fake.requests[0]!.payload).to.deep.include({ event: 'message.inbound', integration: { id: integration.id, name: 'Hook', type: 'webhook' } });
      for (const status of [503, 429, null]) {
        fake.status = status;
        expect(
          await w.app.queues.deliverIntegrationEvent.execute(command).then(
            () => 'resolved',
            (e: unknown) => e instanceof RetryableDeliveryError,
          ),
        ).to.equal(true);
      }
      fake.status = 404;
      expect(await w.app.queues.deliverIntegrationEvent.execute(command)).to.equal('rejected');
      await w.ports.plans.update({ ...w.plan, features: { ...w.plan.features, integrations: false } });
      expect(await w.app.queues.deliverIntegrationEvent.execute(command)).to.equal('dropped');
    });
  });

  it('reports job-queue health as counts only', async () => {
    const w = await botWorld({ relayByHand: true });
    await w.say('oi');
    const health = await w.app.queues.jobQueueHealth.execute();
    expect(health).to.deep.include({ status: 'ok', broker: { connected: true }, backgroundJobs: { running: 0 } });
    expect(health.outbox).to.deep.equal({ pending: 2, oldestAgeSeconds: 0, bySubject: { 'cmd.session.send': 2 } });
    w.ports.clock.advance(120_000);
    expect((await w.app.queues.jobQueueHealth.execute()).status).to.equal('degraded');
  });

  it('reports a dependency that does not answer as down, naming the first one (database, cache, broker)', async () => {
    const up = {
      outboxBacklog: async () => ({ pending: 0, oldestCreatedAt: null, bySubject: {} }),
      cacheConnected: async () => true,
      brokerConnected: async () => true,
    };
    const show = (health: Partial<typeof up>) =>
      new ShowJobQueueHealth({
        health: { ...up, ...health },
        jobs: { runningCount: () => 0 } as never,
        clock: new FixedClock(new Date('2025-01-01T00:00:00Z')),
      }).execute();
    expect(await show({})).to.deep.include({ status: 'ok', database: { connected: true }, cache: { connected: true } });
    const noCache = await show({
      cacheConnected: async () => false,
      brokerConnected: async () => {
        throw new Error('gone');
      },
    });
    expect(noCache).to.deep.include({ status: 'down', error: 'ERR_CACHE_UNAVAILABLE', cache: { connected: false }, broker: { connected: false } });
    const noDatabase = await show({
      outboxBacklog: async () => {
        throw new Error('connection refused');
      },
      cacheConnected: async () => false,
    });
    expect(noDatabase).to.deep.include({ status: 'down', error: 'ERR_DATABASE_UNAVAILABLE', database: { connected: false }, outbox: null });
  });
});
