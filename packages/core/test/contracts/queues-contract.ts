import { expect } from 'chai';
import type {
  Companies,
  Connections,
  Contacts,
  NewQueue,
  NewQueueIntegration,
  NewQueueOption,
  Plans,
  QueueIntegrations,
  QueueOptions,
  Queues,
  Ticket,
  Tickets,
  Transaction,
  Users,
} from '../../src/index.js';
import { connectionFixture, contactDraft, ticketDraft } from './messaging-contract.js';
import { companyFixture, planFixture, userFixture } from './repositories-contract.js';

export interface QueuesFixture {
  readonly queues: Queues;
  readonly queueOptions: QueueOptions;
  readonly queueIntegrations: QueueIntegrations;
  readonly users: Users;
  readonly tickets: Tickets;
  readonly contacts: Contacts;
  readonly connections: Connections;
  readonly companies: Companies;
  readonly plans: Plans;
  readonly tx: Transaction;
}

const T0 = new Date('2026-03-01T10:00:00.000Z');
const at = (minutes: number) => new Date(T0.getTime() + minutes * 60_000);
const page = (offset = 0, limit = 20) => ({ offset, limit });
const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const code = (p: Promise<unknown>) =>
  p.then(
    () => 'resolved',
    (e: { code?: string }) => e.code,
  );
const ids = (rows: Array<{ id: number }> | undefined) => (rows ?? []).map((r) => r.id);

export function queueFixture(companyId: number, name: string, overrides: Partial<NewQueue> = {}): NewQueue {
  return {
    companyId,
    name,
    color: '#336699',
    greetingMessage: null,
    outOfHoursMessage: null,
    schedules: [],
    orderQueue: 0,
    integrationId: null,
    promptId: null,
    createdAt: T0,
    updatedAt: T0,
    ...overrides,
  };
}

export function optionFixture(companyId: number, queueId: number, option: string, overrides: Partial<NewQueueOption> = {}): NewQueueOption {
  return {
    companyId,
    queueId,
    parentId: null,
    kind: 'option',
    title: `Option ${option}`,
    message: null,
    option,
    forwardQueueId: null,
    forwardUserId: null,
    closeTicket: false,
    createdAt: T0,
    updatedAt: T0,
    ...overrides,
  };
}

export function integrationFixture(companyId: number, name: string, overrides: Partial<NewQueueIntegration> = {}): NewQueueIntegration {
  return {
    companyId,
    name,
    type: 'webhook',
    url: 'https://bot.example.com/hook',
    token: null,
    secret: null,
    config: {},
    createdAt: T0,
    updatedAt: T0,
    ...overrides,
  };
}

/** One suite for every adapter of the Queues, QueueOptions and QueueIntegrations ports, and the bot state on tickets. */
export function describeQueuesContract(name: string, make: () => Promise<QueuesFixture>) {
  describe(`Queues contract: ${name}`, () => {
    let r: QueuesFixture;
    let w: { c1: number; c2: number; conn1: number; conn2: number; u1: number; u2: number; foreignUser: number; n: number };
    beforeEach(async () => {
      r = await make();
    });

    /** Two companies with a connection each, two users in the first and one in the second. */
    async function given() {
      const plan = await r.plans.add(planFixture('P'));
      const c1 = (await r.companies.add(companyFixture(plan.id, 'One'))).id;
      const c2 = (await r.companies.add(companyFixture(plan.id, 'Two'))).id;
      const conn1 = (await r.connections.add(connectionFixture(c1, 'Main'))).id;
      const conn2 = (await r.connections.add(connectionFixture(c2, 'Other'))).id;
      const u1 = (await r.users.add(userFixture(c1, 'u1@one.test'))).id;
      const u2 = (await r.users.add(userFixture(c1, 'u2@one.test'))).id;
      const foreignUser = (await r.users.add(userFixture(c2, 'u@two.test'))).id;
      w = { c1, c2, conn1, conn2, u1, u2, foreignUser, n: 0 };
    }
    async function ticket(overrides: Partial<Ticket> = {}, companyId = w.c1): Promise<Ticket> {
      const c = await r.contacts.getOrCreate(contactDraft(companyId, `55119000${String(++w.n).padStart(5, '0')}`));
      const { ticket: t } = await r.tickets.getOrCreateActive(
        ticketDraft({ companyId, contactId: c.id, connectionId: companyId === w.c1 ? w.conn1 : w.conn2, uuid: uuid(++w.n) }),
      );
      const saved = { ...t, ...overrides };
      await r.tickets.update(saved);
      return saved;
    }

    describe('queues', () => {
      it('stores every field and finds by id, ids and name (any case) within the company only', async () => {
        await given();
        const schedules = [{ weekday: 'Segunda-feira', weekdayEn: 'monday' as const, startTime: '08:00', endTime: '18:00' }];
        const draft = queueFixture(w.c1, 'Vendas', {
          color: '#ff0000',
          greetingMessage: 'Olá!',
          outOfHoursMessage: 'Fechado',
          schedules,
          orderQueue: 3,
          promptId: 42,
          updatedAt: at(1),
        });
        const added = await r.queues.add(draft);
        expect(added).to.deep.equal({ ...draft, id: added.id });
        const found = await r.queues.findById(w.c1, added.id);
        expect({ ...found }).to.deep.equal({ ...draft, id: added.id });
        expect(found!.updatedAt.toISOString()).to.equal(at(1).toISOString());
        expect(await r.queues.findById(w.c2, added.id)).to.equal(null);
        expect((await r.queues.findByName(w.c1, 'VENDAS'))?.id).to.equal(added.id);
        expect(await r.queues.findByName(w.c2, 'vendas')).to.equal(null);
        const other = await r.queues.add(queueFixture(w.c1, 'Suporte'));
        const foreign = await r.queues.add(queueFixture(w.c2, 'Vendas'));
        expect(ids(await r.queues.findByIds(w.c1, [other.id, foreign.id, added.id, 999_999]))).to.deep.equal([added.id, other.id]);
        expect(await r.queues.findByIds(w.c1, [])).to.deep.equal([]);
        expect(await r.queues.countByCompany(w.c1)).to.equal(2);
      });

      it('lists by order then id; refuses a second name in any case, also on update and under a race; never touches another company', async () => {
        await given();
        const b = await r.queues.add(queueFixture(w.c1, 'B', { orderQueue: 2 }));
        const a = await r.queues.add(queueFixture(w.c1, 'A', { orderQueue: 2 }));
        const first = await r.queues.add(queueFixture(w.c1, 'First', { orderQueue: 1 }));
        await r.queues.add(queueFixture(w.c2, 'Theirs'));
        expect(ids(await r.queues.list(w.c1))).to.deep.equal([first.id, b.id, a.id]);
        expect(await code(r.queues.add(queueFixture(w.c1, 'first')))).to.equal('ERR_QUEUE_NAME_ALREADY_EXISTS');
        expect(await code(r.queues.add(queueFixture(w.c2, 'FIRST')))).to.equal('resolved');
        expect(await code(r.queues.update({ ...a, name: 'b' }))).to.equal('ERR_QUEUE_NAME_ALREADY_EXISTS');
        await r.queues.update({ ...a, name: 'AA', color: '#00ff00', integrationId: null, promptId: 9, updatedAt: at(3) });
        expect(await r.queues.findById(w.c1, a.id)).to.deep.include({ name: 'AA', color: '#00ff00', promptId: 9 });
        await r.queues.update({ ...a, name: 'AA', color: '#00ff00', promptId: null, updatedAt: at(4) });
        expect((await r.queues.findById(w.c1, a.id))?.promptId).to.equal(null);
        await r.queues.update({ ...b, companyId: w.c2, name: 'Hijack' });
        expect((await r.queues.findById(w.c1, b.id))?.name).to.equal('B');
        const results = await Promise.all(Array.from({ length: 6 }, () => code(r.queues.add(queueFixture(w.c1, 'Corrida')))));
        expect(results.filter((c) => c === 'resolved')).to.have.length(1);
        expect(results.filter((c) => c === 'ERR_QUEUE_NAME_ALREADY_EXISTS')).to.have.length(5);
      });

      it("keeps each queue's users (only the company's), answers them by queue and by user, and forgets removed users", async () => {
        await given();
        const q1 = await r.queues.add(queueFixture(w.c1, 'Q1', { orderQueue: 2 }));
        const q2 = await r.queues.add(queueFixture(w.c1, 'Q2', { orderQueue: 1 }));
        const theirs = await r.queues.add(queueFixture(w.c2, 'Theirs'));
        await r.queues.setUsers(w.c1, q1.id, [w.u2, w.u1, w.foreignUser]);
        await r.queues.setUsers(w.c1, q2.id, [w.u1]);
        await r.queues.setUsers(w.c1, theirs.id, [w.foreignUser]);
        expect(await r.queues.usersOf(w.c1, [q1.id, q2.id, theirs.id])).to.deep.equal(
          new Map([
            [q1.id, [w.u1, w.u2]],
            [q2.id, [w.u1]],
          ]),
        );
        expect(await r.queues.usersOf(w.c2, [theirs.id])).to.deep.equal(new Map());
        expect(ids(await r.queues.listOfUser(w.c1, w.u1))).to.deep.equal([q2.id, q1.id]);
        expect(await r.users.queueIdsOf(w.c1, w.u1)).to.deep.equal([q1.id, q2.id]);
        expect(await r.users.queueIdsOf(w.c2, w.u1)).to.deep.equal([]);
        await r.queues.setUsers(w.c1, q1.id, [w.u2]);
        expect(await r.queues.usersOf(w.c1, [q1.id])).to.deep.equal(new Map([[q1.id, [w.u2]]]));
        await r.queues.setUsers(w.c2, q1.id, []);
        expect(await r.queues.usersOf(w.c1, [q1.id])).to.deep.equal(new Map([[q1.id, [w.u2]]]));
        await r.users.remove(w.c1, w.u2);
        expect(await r.queues.usersOf(w.c1, [q1.id])).to.deep.equal(new Map());
        await r.queues.setUsers(w.c1, q2.id, []);
        expect(await r.queues.listOfUser(w.c1, w.u1)).to.deep.equal([]);
      });

      it("keeps each connection's queues (only the company's), in menu order, replaced as a whole", async () => {
        await given();
        const late = await r.queues.add(queueFixture(w.c1, 'Late', { orderQueue: 5 }));
        const early = await r.queues.add(queueFixture(w.c1, 'Early', { orderQueue: 1 }));
        const theirs = await r.queues.add(queueFixture(w.c2, 'Theirs'));
        await r.queues.setConnectionQueues(w.c1, w.conn1, [late.id, early.id, theirs.id]);
        await r.queues.setConnectionQueues(w.c1, w.conn2, [late.id]);
        const map = await r.queues.ofConnections(w.c1, [w.conn1, w.conn2]);
        expect([...map.keys()]).to.deep.equal([w.conn1]);
        expect(ids(map.get(w.conn1))).to.deep.equal([early.id, late.id]);
        expect(await r.queues.ofConnections(w.c2, [w.conn1])).to.deep.equal(new Map());
        await r.queues.setConnectionQueues(w.c1, w.conn1, [late.id]);
        expect(ids((await r.queues.ofConnections(w.c1, [w.conn1])).get(w.conn1))).to.deep.equal([late.id]);
        await r.queues.setConnectionQueues(w.c1, w.conn1, []);
        expect(await r.queues.ofConnections(w.c1, [w.conn1])).to.deep.equal(new Map());
      });

      it('removing a queue takes its links and menu along and leaves its tickets without a queue', async () => {
        await given();
        const gone = await r.queues.add(queueFixture(w.c1, 'Gone'));
        const kept = await r.queues.add(queueFixture(w.c1, 'Kept'));
        await r.queues.setUsers(w.c1, gone.id, [w.u1]);
        await r.queues.setConnectionQueues(w.c1, w.conn1, [gone.id, kept.id]);
        const root = await r.queueOptions.add(optionFixture(w.c1, gone.id, '1'));
        await r.queueOptions.add(optionFixture(w.c1, gone.id, '1', { parentId: root.id }));
        const forward = await r.queueOptions.add(optionFixture(w.c1, kept.id, '1', { forwardQueueId: gone.id }));
        const inGone = await ticket({ queueId: gone.id, queueOptionId: root.id, botActive: true, botAttempts: 2 });
        const inKept = await ticket({ queueId: kept.id });
        await r.queues.remove(w.c2, gone.id);
        expect(await r.queues.findById(w.c1, gone.id)).to.not.equal(null);
        await r.queues.remove(w.c1, gone.id);
        expect(await r.queues.findById(w.c1, gone.id)).to.equal(null);
        expect(await r.users.queueIdsOf(w.c1, w.u1)).to.deep.equal([]);
        expect(ids((await r.queues.ofConnections(w.c1, [w.conn1])).get(w.conn1))).to.deep.equal([kept.id]);
        expect(await r.queueOptions.list({ companyId: w.c1, queueId: gone.id })).to.deep.equal([]);
        expect(await r.queueOptions.findById(w.c1, forward.id)).to.deep.include({ forwardQueueId: null });
        expect(await r.tickets.findById(w.c1, inGone.id)).to.deep.include({ queueId: null, queueOptionId: null, botActive: true, botAttempts: 2 });
        expect(await r.tickets.findById(w.c1, inKept.id)).to.deep.include({ queueId: kept.id });
      });
    });

    describe('queue options', () => {
      it('stores every field, lists by queue, level and kind, in id order, within the company only', async () => {
        await given();
        const q = await r.queues.add(queueFixture(w.c1, 'Q'));
        const target = await r.queues.add(queueFixture(w.c1, 'Target'));
        const theirs = await r.queues.add(queueFixture(w.c2, 'Theirs'));
        const draft = optionFixture(w.c1, q.id, '2', {
          title: 'Vendas',
          message: 'Escolha:',
          forwardQueueId: target.id,
          forwardUserId: w.u1,
          updatedAt: at(2),
        });
        const root = await r.queueOptions.add(draft);
        expect(root).to.deep.equal({ ...draft, id: root.id });
        expect({ ...(await r.queueOptions.findById(w.c1, root.id)) }).to.deep.equal({ ...draft, id: root.id });
        expect(await r.queueOptions.findById(w.c2, root.id)).to.equal(null);
        const bot = await r.queueOptions.add(optionFixture(w.c1, q.id, 'menu', { kind: 'chatbot', closeTicket: true }));
        const child = await r.queueOptions.add(optionFixture(w.c1, q.id, '1', { parentId: root.id }));
        await r.queueOptions.add(optionFixture(w.c2, theirs.id, '1'));
        expect(ids(await r.queueOptions.list({ companyId: w.c1, queueId: q.id }))).to.deep.equal([root.id, bot.id, child.id]);
        expect(ids(await r.queueOptions.list({ companyId: w.c1, queueId: q.id, parentId: null }))).to.deep.equal([root.id, bot.id]);
        expect(ids(await r.queueOptions.list({ companyId: w.c1, parentId: root.id }))).to.deep.equal([child.id]);
        expect(ids(await r.queueOptions.list({ companyId: w.c1, kind: 'chatbot' }))).to.deep.equal([bot.id]);
        expect(ids(await r.queueOptions.list({ companyId: w.c1 }))).to.deep.equal([root.id, bot.id, child.id]);
        await r.queueOptions.update({ ...child, title: 'Novo', option: '9', message: 'x', closeTicket: true, updatedAt: at(9) });
        expect(await r.queueOptions.findById(w.c1, child.id)).to.deep.include({ title: 'Novo', option: '9', message: 'x', closeTicket: true });
        await r.queueOptions.update({ ...child, companyId: w.c2, title: 'Hijack' });
        expect((await r.queueOptions.findById(w.c1, child.id))?.title).to.equal('Novo');
      });

      it('keeps option keys unique among siblings ignoring case (also on update and under a race), and removes subtrees', async () => {
        await given();
        const q = await r.queues.add(queueFixture(w.c1, 'Q'));
        const other = await r.queues.add(queueFixture(w.c1, 'Other'));
        const root = await r.queueOptions.add(optionFixture(w.c1, q.id, 'Vendas'));
        expect(await code(r.queueOptions.add(optionFixture(w.c1, q.id, 'VENDAS', { kind: 'chatbot' })))).to.equal('ERR_QUEUE_OPTION_ALREADY_EXISTS');
        expect(await code(r.queueOptions.add(optionFixture(w.c1, q.id, 'vendas', { parentId: root.id })))).to.equal('resolved');
        expect(await code(r.queueOptions.add(optionFixture(w.c1, other.id, 'vendas')))).to.equal('resolved');
        const second = await r.queueOptions.add(optionFixture(w.c1, q.id, '2'));
        expect(await code(r.queueOptions.update({ ...second, option: 'vendas' }))).to.equal('ERR_QUEUE_OPTION_ALREADY_EXISTS');
        const results = await Promise.all(Array.from({ length: 6 }, () => code(r.queueOptions.add(optionFixture(w.c1, q.id, '7')))));
        expect(results.filter((c) => c === 'resolved')).to.have.length(1);
        const child = (await r.queueOptions.list({ companyId: w.c1, parentId: root.id }))[0]!;
        await r.queueOptions.add(optionFixture(w.c1, q.id, '1', { parentId: child.id }));
        const inside = await ticket({ queueId: q.id, queueOptionId: child.id });
        await r.queueOptions.remove(w.c2, root.id);
        expect(await r.queueOptions.findById(w.c1, root.id)).to.not.equal(null);
        await r.queueOptions.remove(w.c1, root.id);
        const remaining = ids(await r.queueOptions.list({ companyId: w.c1, queueId: q.id }));
        expect(remaining).to.include(second.id);
        expect(remaining).to.not.include.members([root.id, child.id]);
        expect(remaining).to.have.length(2);
        expect(await r.queueOptions.findById(w.c1, child.id)).to.equal(null);
        expect(await r.tickets.findById(w.c1, inside.id)).to.deep.include({ queueId: q.id, queueOptionId: null });
      });
    });

    describe('queue integrations', () => {
      it('stores every field, finds by id and name within the company, pages a folded-name search, and refuses a second name', async () => {
        await given();
        const draft = integrationFixture(w.c1, 'Typebot', {
          type: 'typebot',
          token: 'tok',
          secret: 'sec',
          config: { slug: 'x', nested: { a: [1, 2] } },
          updatedAt: at(1),
        });
        const added = await r.queueIntegrations.add(draft);
        expect(added).to.deep.equal({ ...draft, id: added.id });
        expect({ ...(await r.queueIntegrations.findById(w.c1, added.id)) }).to.deep.equal({ ...draft, id: added.id });
        expect(await r.queueIntegrations.findById(w.c2, added.id)).to.equal(null);
        expect((await r.queueIntegrations.findByName(w.c1, 'TYPEBOT'))?.id).to.equal(added.id);
        expect(await code(r.queueIntegrations.add(integrationFixture(w.c1, 'typebot')))).to.equal('ERR_INTEGRATION_NAME_ALREADY_EXISTS');
        const agua = await r.queueIntegrations.add(integrationFixture(w.c1, 'Água n8n', { type: 'n8n' }));
        await r.queueIntegrations.add(integrationFixture(w.c2, 'Alheia'));
        expect(ids((await r.queueIntegrations.list({ companyId: w.c1, page: page() })).rows)).to.deep.equal([agua.id, added.id]);
        expect(await r.queueIntegrations.list({ companyId: w.c1, search: 'AGU', page: page() })).to.deep.include({ count: 1 });
        const second = await r.queueIntegrations.list({ companyId: w.c1, page: page(1, 1) });
        expect(second.count).to.equal(2);
        expect(ids(second.rows)).to.deep.equal([added.id]);
        expect(await code(r.queueIntegrations.update({ ...agua, name: 'typebot' }))).to.equal('ERR_INTEGRATION_NAME_ALREADY_EXISTS');
        await r.queueIntegrations.update({ ...agua, url: 'https://n8n.example.com/x', token: null, config: { b: true } });
        expect(await r.queueIntegrations.findById(w.c1, agua.id)).to.deep.include({ url: 'https://n8n.example.com/x', token: null, config: { b: true } });
      });

      it('removing an integration detaches it from its queues', async () => {
        await given();
        const integration = await r.queueIntegrations.add(integrationFixture(w.c1, 'Hook'));
        const q = await r.queues.add(queueFixture(w.c1, 'Q', { integrationId: integration.id }));
        await r.queueIntegrations.remove(w.c2, integration.id);
        expect(await r.queueIntegrations.findById(w.c1, integration.id)).to.not.equal(null);
        await r.queueIntegrations.remove(w.c1, integration.id);
        expect(await r.queueIntegrations.findById(w.c1, integration.id)).to.equal(null);
        expect(await r.queues.findById(w.c1, q.id)).to.deep.include({ integrationId: null });
      });
    });

    describe('the bot state on tickets', () => {
      it('starts with no node, no attempts and no bot; keeps what is saved; narrows pending tickets to queues', async () => {
        await given();
        const q1 = await r.queues.add(queueFixture(w.c1, 'Q1'));
        const q2 = await r.queues.add(queueFixture(w.c1, 'Q2'));
        const option = await r.queueOptions.add(optionFixture(w.c1, q1.id, '1'));
        const c = await r.contacts.getOrCreate(contactDraft(w.c1, '5511900000999'));
        const { ticket: fresh } = await r.tickets.getOrCreateActive({
          uuid: uuid(900),
          companyId: w.c1,
          contactId: c.id,
          connectionId: w.conn1,
          status: 'pending',
          userId: null,
          queueId: null,
          unreadMessages: 0,
          lastMessage: '',
          isGroup: false,
          greetedAt: null,
          closedAt: null,
          createdAt: T0,
          updatedAt: T0,
        });
        expect(fresh).to.deep.include({ queueOptionId: null, botAttempts: 0, botActive: false });
        expect(await r.tickets.findById(w.c1, fresh.id)).to.deep.include({ queueOptionId: null, botAttempts: 0, botActive: false });
        await r.tickets.update({ ...fresh, queueId: q1.id, queueOptionId: option.id, botAttempts: 2, botActive: true });
        expect(await r.tickets.findById(w.c1, fresh.id)).to.deep.include({ queueId: q1.id, queueOptionId: option.id, botAttempts: 2, botActive: true });
        const inQ2 = await ticket({ queueId: q2.id });
        const mine = await ticket({ status: 'open', userId: w.u1, queueId: q2.id });
        const noQueue = await ticket();
        const scope = async (queues: number[]) =>
          ids((await r.tickets.list({ companyId: w.c1, pendingOrAssignedTo: w.u1, pendingInQueues: queues, page: page() })).rows).sort((a, b) => a - b);
        expect(await scope([q1.id])).to.deep.equal([fresh.id, mine.id, noQueue.id]);
        expect(await scope([])).to.deep.equal([mine.id, noQueue.id]);
        expect(await scope([q1.id, q2.id])).to.deep.equal([fresh.id, inQ2.id, mine.id, noQueue.id]);
        expect(await r.tickets.count({ companyId: w.c1, pendingOrAssignedTo: w.u1, pendingInQueues: [q2.id] })).to.equal(3);
      });
    });
  });
}
