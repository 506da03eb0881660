import { expect } from 'chai';
import type { FlowGraphInput } from '../../src/flows/clean-graph.js';
import type { FlowTrigger } from '../../src/flows/flow.js';
import { FLOW_CALL_JOB, FLOW_TIMER_JOB } from '../../src/flows/flow-jobs.js';
import { botWorld, type BotWorld } from '../queues/bot-world.js';
import { code } from '../messaging/ticket-world.js';
import { connectionFixture } from '../contracts/messaging-contract.js';
import { node } from './graph-builder.js';

const edges = (list: ReadonlyArray<readonly [string, string, string]>) =>
  list.map(([source, sourceHandle, target], i) => ({ id: `e${i + 1}`, source, sourceHandle, target }));
const welcome: FlowTrigger = { type: 'welcome', chatappIds: [], keywords: [] };

/** Asks a name (timing out after a minute), then greets by it and hands over to Support. */
const askName = (w: BotWorld, hello = 'Hi! Your name?'): FlowGraphInput => ({
  nodes: [
    node('start', 'start'),
    node('ask', 'question', { text: hello, mode: 'free', variable: 'name', timeoutSeconds: 60 }),
    node('thanks', 'message', { text: 'Thanks, {{name}}.' }),
    node('to', 'transfer', { queueId: w.support.id }),
    node('late', 'message', { text: 'No answer, bye.' }),
  ],
  edges: edges([
    ['start', 'next', 'ask'],
    ['ask', 'answer', 'thanks'],
    ['thanks', 'next', 'to'],
    ['ask', 'timeout', 'late'],
  ]),
});

describe('Flows: runs', () => {
  let w: BotWorld;
  beforeEach(async () => {
    w = await botWorld();
    w.ports.jobDefinitions.push(...w.app.flows.jobs());
  });

  async function published(graph: FlowGraphInput, triggers: FlowTrigger[], name = 'Bot') {
    const flow = await w.app.flows.createFlow.execute({ actor: w.admin, name });
    await w.app.flows.saveFlowGraph.execute({ actor: w.admin, flowId: flow.id, version: 1, graph });
    await w.app.flows.publishFlow.execute({ actor: w.admin, flowId: flow.id });
    await w.app.flows.updateFlow.execute({ actor: w.admin, flowId: flow.id, active: true, triggers });
    return flow.id;
  }

  /** Runs every due job once, as a runner would (again while runs enqueue jobs already due). */
  async function runDue() {
    for (let round = 0; round < 20; round++) {
      const jobs = await w.ports.jobStore.claim({
        owner: 'test',
        limit: 100,
        leaseMs: new Map([
          [FLOW_TIMER_JOB, 60_000],
          [FLOW_CALL_JOB, 60_000],
        ]),
      });
      if (!jobs.length) return;
      for (const job of jobs) {
        const definition = w.app.flows.jobs().find((d) => d.name === job.name)!;
        await definition.run({ id: job.id, name: job.name, payload: job.payload, attempt: job.attempt, runAt: job.runAt });
        await w.ports.jobStore.complete(job.lease);
      }
    }
    throw new Error('jobs kept coming');
  }

  const runOf = async () => w.ports.flowRuns.activeOfTicket(w.acme.id, (await w.ticket()).id);
  const runs = () => w.ports.flowRuns.table.filter(() => true);

  it('a welcome flow answers a new conversation before the greeting and menu; the answer resumes it; the transfer ends it in the queue', async () => {
    await published(askName(w), [welcome]);
    await w.say('hello');
    expect(w.sent()).to.deep.equal(['Hi! Your name?']);
    const waiting = await runOf();
    expect(waiting).to.include({ status: 'waiting', trigger: 'welcome', version: 1 });
    await w.say('Carla');
    expect(w.sent()).to.deep.equal(['Hi! Your name?', 'Thanks, Carla.']);
    const ticket = await w.ticket();
    expect(ticket).to.include({ queueId: w.support.id, status: 'pending', botActive: false });
    expect(runs()[0]).to.include({ status: 'handedOver' });
    expect(runs()[0]!.state.variables).to.include({ name: 'Carla' });
    expect((await w.ports.flowRuns.steps(w.acme.id, runs()[0]!.id)).map((s) => s.input)).to.deep.equal(['start', 'answer']);
    // Ended: the next message is the queue's (no menu there: nothing is sent).
    await w.say('still there?');
    expect(w.sent()).to.have.length(2);
  });

  it('precedence: a keyword beats welcome; a returning contact gets noMatch; a flow limited to another connection stays out', async () => {
    const keyword: FlowTrigger = { type: 'keyword', chatappIds: [], keywords: [{ text: 'pedido', match: 'contains' }] };
    const say = (text: string): FlowGraphInput => ({ nodes: [node('start', 'start'), node('m', 'message', { text })], edges: edges([['start', 'next', 'm']]) });
    const line = await w.ports.connections.add(connectionFixture(w.acme.id, 'Second line'));
    await published(say('elsewhere'), [{ type: 'welcome', chatappIds: [line.id], keywords: [] }], 'Other line');
    await published(say('welcome!'), [welcome], 'Welcome');
    await published(say('about your order'), [keyword], 'Orders');
    await published(say('welcome back'), [{ type: 'noMatch', chatappIds: [w.connection.id], keywords: [] }], 'Back');
    await w.say('Meu PEDIDO chegou?');
    expect(w.sent()).to.deep.equal(['about your order']);
    // The run ended at once ('done'): close the ticket; the contact comes back.
    await w.ports.tickets.update({ ...(await w.ticket()), status: 'closed', closedAt: w.ports.clock.now() });
    await w.say('oi');
    expect(w.sent()).to.deep.equal(['about your order', 'welcome back']);
    // A new contact, no keyword: welcome.
    await w.say('oi', { from: '5511988887777' });
    expect(w.sent()).to.deep.equal(['about your order', 'welcome back', 'welcome!']);
  });

  it('without a matching flow the queue menu answers as before', async () => {
    await published(askName(w), [{ type: 'keyword', chatappIds: [], keywords: [{ text: 'bot', match: 'exact' }] }]);
    await w.say('hello');
    expect(w.sent()[0]).to.equal('Welcome!');
    expect(runs()).to.have.length(0);
  });

  it('a question times out through its job at `waitingUntil`, not before; a stale timer does nothing', async () => {
    await published(askName(w), [welcome]);
    await w.say('hello');
    const jobs = await w.ports.jobStore.list({ name: FLOW_TIMER_JOB });
    expect(jobs).to.have.length(1);
    await runDue();
    expect(w.sent()).to.deep.equal(['Hi! Your name?']);
    w.ports.clock.advance(61_000);
    await runDue();
    expect(w.sent()).to.deep.equal(['Hi! Your name?', 'No answer, bye.']);
    expect(runs()[0]).to.include({ status: 'done' });
    expect(runs()[0]!.state.nodeId).to.equal('late');
  });

  it('an answer before the timeout makes its timer stale', async () => {
    await published(askName(w), [welcome]);
    await w.say('hello');
    await w.say('Carla');
    w.ports.clock.advance(61_000);
    await runDue();
    expect(w.sent()).to.deep.equal(['Hi! Your name?', 'Thanks, Carla.']);
  });

  it('an HTTP node is called by a job after the commit; its result feeds the run (variables, success or error handle)', async () => {
    const graph: FlowGraphInput = {
      nodes: [
        node('start', 'start'),
        node('get', 'http', { url: 'https://erp.example.com/orders?phone={{number}}', save: [{ path: 'orders.0.status', variable: 'status' }] }),
        node('ok', 'message', { text: 'Order: {{status}}' }),
        node('ko', 'message', { text: 'Try later.' }),
      ],
      edges: edges([
        ['start', 'next', 'get'],
        ['get', 'success', 'ok'],
        ['get', 'error', 'ko'],
      ]),
    };
    await published(graph, [welcome]);
    w.ports.flowHttp.answers.set('https://erp.example.com/orders?phone=5511999990000', { status: 200, body: { orders: [{ status: 'shipped' }] } });
    await w.say('hello');
    expect(w.ports.flowHttp.calls).to.have.length(0);
    expect(await w.ports.jobStore.list({ name: FLOW_CALL_JOB })).to.have.length(1);
    expect((await runOf())!.state.waiting).to.include({ kind: 'http' });
    // An answer while the call is pending changes nothing.
    await w.say('??');
    await runDue();
    expect(w.ports.flowHttp.calls.map((c) => c.url)).to.deep.equal(['https://erp.example.com/orders?phone=5511999990000']);
    expect(w.sent()).to.deep.equal(['Order: shipped']);
    expect(runs()[0]).to.include({ status: 'done' });

    w.ports.flowHttp.answers.set('https://erp.example.com/orders?phone=5511988887777', { error: 'ERR_URL_NOT_ALLOWED' });
    await w.say('hello', { from: '5511988887777' });
    await runDue();
    expect(w.sent()).to.deep.equal(['Order: shipped', 'Try later.']);
  });

  it('an operator taking the ticket cancels the run: it never sends again (answers and timers alike)', async () => {
    await published(askName(w), [welcome]);
    await w.say('hello');
    await w.ports.tickets.update({ ...(await w.ticket()), status: 'open', userId: w.ana.userId });
    await w.say('Carla');
    expect(w.sent()).to.deep.equal(['Hi! Your name?']);
    expect(runs()[0]).to.include({ status: 'cancelled' });

    await w.say('hello', { from: '5511988887777' });
    await w.ports.tickets.update({ ...(await w.ticket('5511988887777')), status: 'closed', closedAt: w.ports.clock.now() });
    w.ports.clock.advance(61_000);
    await runDue();
    expect(w.sent()).to.deep.equal(['Hi! Your name?', 'Hi! Your name?']);
    expect(runs()[1]).to.include({ status: 'cancelled' });
  });

  it('a duplicated inbound answer advances the run once', async () => {
    await published(askName(w), [welcome]);
    await w.say('hello');
    const answer = await w.say('Carla');
    await w.app.conversations.routeInbound.execute(answer);
    expect(w.sent()).to.deep.equal(['Hi! Your name?', 'Thanks, Carla.']);
    expect(await w.ports.flowRuns.steps(w.acme.id, runs()[0]!.id)).to.have.length(2);
  });

  it('a run keeps the version it started on when a new one is published mid-conversation', async () => {
    const flowId = await published(askName(w), [welcome]);
    await w.say('hello');
    const changed = askName(w, 'New question?');
    const thanks = changed.nodes.find((n) => n.id === 'thanks')!;
    (thanks.data as { text: string }).text = 'V2 thanks, {{name}}.';
    await w.app.flows.saveFlowGraph.execute({ actor: w.admin, flowId, version: 2, graph: changed });
    await w.app.flows.publishFlow.execute({ actor: w.admin, flowId });
    await w.say('Carla');
    expect(w.sent()).to.deep.equal(['Hi! Your name?', 'Thanks, Carla.']);
    await w.say('hello', { from: '5511988887777' });
    expect(w.sent()).to.deep.equal(['Hi! Your name?', 'Thanks, Carla.', 'New question?']);
    expect(runs().map((r) => r.version)).to.deep.equal([1, 2]);
  });

  it("execute starts a manual run on a ticket or a contact's conversation: 409 when taken or running, 409 unpublished, 404 another company's", async () => {
    const flowId = await published(askName(w), []);
    await w.say('hello');
    const ticket = await w.ticket();
    const run = await w.app.flows.executeFlow.execute({ actor: w.admin, flowId, ticketId: ticket.id });
    expect(run).to.include({ flowId, version: 1, ticketId: ticket.id, status: 'waiting', trigger: 'manual', nodeId: 'ask' });
    expect(w.sent().at(-1)).to.equal('Hi! Your name?');
    expect(await code(w.app.flows.executeFlow.execute({ actor: w.admin, flowId, ticketId: ticket.id }))).to.equal('ERR_FLOW_RUN_ACTIVE');
    const contact = await w.ports.contacts.getOrCreate({
      companyId: w.acme.id,
      name: 'Dora',
      number: '5511977776666',
      email: null,
      isGroup: false,
      profilePicUrl: null,
      createdAt: w.ports.clock.now(),
      updatedAt: w.ports.clock.now(),
    });
    const other = await w.app.flows.executeFlow.execute({ actor: w.admin, flowId, contactId: contact.id, chatappId: w.connection.id });
    expect(other.ticketId).to.not.equal(ticket.id);
    await w.ports.tickets.update({ ...(await w.ports.tickets.findById(w.acme.id, other.ticketId))!, status: 'closed', closedAt: w.ports.clock.now() });
    const taken = { ...(await w.ports.tickets.findById(w.acme.id, other.ticketId))!, status: 'open' as const, userId: w.bia.userId, closedAt: null };
    await w.ports.tickets.update(taken);
    expect(await code(w.app.flows.executeFlow.execute({ actor: w.admin, flowId, ticketId: taken.id }))).to.equal('ERR_FLOW_TICKET_TAKEN');
    const draftOnly = await w.app.flows.createFlow.execute({ actor: w.admin, name: 'Draft' });
    expect(await code(w.app.flows.executeFlow.execute({ actor: w.admin, flowId: draftOnly.id, ticketId: ticket.id }))).to.equal('ERR_FLOW_NOT_PUBLISHED');
    expect(await code(w.app.flows.executeFlow.execute({ actor: w.admin, flowId, ticketId: 999 }))).to.equal('ERR_NO_TICKET_FOUND');
    expect(await code(w.app.flows.executeFlow.execute({ actor: w.admin, flowId, ticketId: ticket.id, contactId: contact.id }))).to.equal(
      'ERR_FLOW_EXECUTE_TARGET',
    );
    expect(await code(w.app.flows.executeFlow.execute({ actor: w.ana, flowId, ticketId: ticket.id }))).to.equal('ERR_NO_PERMISSION');
  });
});
