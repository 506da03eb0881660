import { expect } from 'chai';
import { InProcessBroker, SUBJECTS, type BrokerEnvelope, type ChannelEvent, type SessionControl, type SessionSendMessage } from '@servicedesk/core';
import { ChannelRuntime, InMemorySandboxLedger, InMemorySessionRegistry, SandboxConnector } from '../../src/index.js';

const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Two runtime instances on one broker and one registry, as two processes on NATS and PostgreSQL. */
async function pair() {
  const broker = new InProcessBroker();
  const registry = new InMemorySessionRegistry();
  const ledger = new InMemorySandboxLedger();
  const make = (instanceId: string) => {
    const sandbox = new SandboxConnector(ledger);
    const runtime = new ChannelRuntime({
      broker,
      connectors: [sandbox],
      logger: silent,
      registry,
      instanceId,
      leaseTtlMs: 300,
      syncIntervalMs: 50,
      retryDelayMs: 5,
    });
    return { sandbox, runtime };
  };
  const a = make('a');
  const b = make('b');
  await a.runtime.start();
  await b.runtime.start();
  const events: ChannelEvent[] = [];
  await broker.subscribe('test-events', 'evt.>', async (e: BrokerEnvelope) => {
    events.push(e.payload as ChannelEvent);
  });
  const control = (chatappId: number, action: SessionControl['action'] = 'start'): SessionControl => ({
    type: 'SessionControl',
    action,
    companyId: 1,
    chatappId,
    provider: 'sandbox',
    secrets: {},
    externalId: null,
  });
  const send = (messageId: string, chatappId: number): SessionSendMessage => ({
    type: 'SessionSendMessage',
    messageId,
    companyId: 1,
    chatappId,
    ticketId: 3,
    to: '5511999990000',
    content: { body: messageId },
  });
  const settle = async (ms = 150) => {
    for (let i = 0; i < ms / 10; i++) {
      await broker.idle();
      await sleep(10);
    }
  };
  const sentIds = () => events.filter((e) => e.type === 'SessionMessageSent').map((e) => (e.type === 'SessionMessageSent' ? e.messageId : ''));
  return { broker, registry, a, b, events, control, send, settle, sentIds };
}

describe('Channel runtime instances sharing sessions', () => {
  it('each session runs on exactly one instance, and its sends go out once, through the owner', async () => {
    const p = await pair();
    for (let id = 1; id <= 6; id++) await p.broker.publish({ id: `c${id}`, subject: SUBJECTS.sessionControl(id), payload: p.control(id) });
    await p.settle();
    const held = [...p.a.runtime.heldSessions(), ...p.b.runtime.heldSessions()].sort((x, y) => x - y);
    expect(held).to.deep.equal([1, 2, 3, 4, 5, 6]);
    for (let id = 1; id <= 6; id++) await p.broker.publish({ id: `m${id}`, subject: SUBJECTS.sessionSend(id), payload: p.send(`m${id}`, id) });
    await p.settle();
    expect(p.sentIds().sort()).to.deep.equal(['m1', 'm2', 'm3', 'm4', 'm5', 'm6']);
    await p.a.runtime.stop();
    await p.b.runtime.stop();
  });

  it('a stopped instance hands its sessions over: the other takes them and sends what waited meanwhile', async () => {
    const p = await pair();
    for (let id = 1; id <= 4; id++) await p.broker.publish({ id: `c${id}`, subject: SUBJECTS.sessionControl(id), payload: p.control(id) });
    await p.settle();
    const leaving = p.a.runtime.heldSessions().length ? p.a : p.b;
    const staying = leaving === p.a ? p.b : p.a;
    const moved = leaving.runtime.heldSessions();
    await leaving.runtime.stop();
    for (const id of moved) await p.broker.publish({ id: `w${id}`, subject: SUBJECTS.sessionSend(id), payload: p.send(`w${id}`, id) });
    await p.settle(400);
    expect(staying.runtime.heldSessions()).to.deep.equal([1, 2, 3, 4]);
    expect(p.sentIds().sort()).to.deep.equal(moved.map((id) => `w${id}`).sort());
    await staying.runtime.stop();
  });

  it('a restart or logout received by one instance is carried out by the owner at its next sync', async () => {
    const p = await pair();
    await p.broker.publish({ id: 'c1', subject: SUBJECTS.sessionControl(1), payload: p.control(1) });
    await p.settle();
    const owner = p.a.runtime.heldSessions().includes(1) ? p.a : p.b;
    const statuses = () => p.events.filter((e) => e.type === 'SessionStatusChanged').map((e) => (e.type === 'SessionStatusChanged' ? e.status : ''));
    const before = statuses().length;
    await p.broker.publish({ id: 'c2', subject: SUBJECTS.sessionControl(1), payload: p.control(1, 'restart') });
    await p.settle();
    expect(statuses().slice(before)).to.include('OPENING');
    expect(owner.runtime.heldSessions()).to.deep.equal([1]);
    await p.broker.publish({ id: 'c3', subject: SUBJECTS.sessionControl(1), payload: p.control(1, 'logout') });
    await p.settle();
    expect(p.a.runtime.heldSessions().concat(p.b.runtime.heldSessions())).to.deep.equal([]);
    expect(statuses().at(-1)).to.equal('DISCONNECTED');
    expect(await p.registry.owner(1)).to.equal(null);
    await p.a.runtime.stop();
    await p.b.runtime.stop();
  });

  it('a resuming start repeated after a restart of the other instance leaves the running session alone', async () => {
    const p = await pair();
    await p.broker.publish({ id: 'c1', subject: SUBJECTS.sessionControl(1), payload: p.control(1) });
    await p.settle();
    const generation = (await p.registry.desired(1))!.generation;
    const count = p.events.length;
    await p.broker.publish({ id: 'r1', subject: SUBJECTS.sessionControl(1), payload: { ...p.control(1), resume: true } });
    await p.broker.idle();
    // Recorded without a change, so no owner acts on it: the restart sent after it is the one change that comes.
    expect((await p.registry.desired(1))!.generation).to.equal(generation);
    await p.broker.publish({ id: 'c2', subject: SUBJECTS.sessionControl(1), payload: p.control(1, 'restart') });
    // The old session's stop is not reported: the restart goes from OPENING to CONNECTED.
    const connectedAgain = () => p.events.slice(count).some((e) => e.type === 'SessionStatusChanged' && e.status === 'CONNECTED');
    for (let i = 0; i < 300 && !connectedAgain(); i++) await sleep(10);
    expect(p.events.slice(count).map((e) => (e.type === 'SessionStatusChanged' ? e.status : e.type))).to.deep.equal(['OPENING', 'CONNECTED']);
    await p.a.runtime.stop();
    await p.b.runtime.stop();
  });

  it('an instance cut off from the registry stops its sessions before its leases can lapse', async () => {
    const broker = new InProcessBroker();
    const registry = new InMemorySessionRegistry();
    let cutOff = false;
    const flaky = Object.assign(Object.create(registry), {
      renew: (owner: string, ttl: number) => (cutOff ? Promise.reject(new Error('database unreachable')) : registry.renew(owner, ttl)),
    });
    const runtime = new ChannelRuntime({
      broker,
      connectors: [new SandboxConnector()],
      logger: silent,
      registry: flaky,
      instanceId: 'a',
      leaseTtlMs: 1000,
      syncIntervalMs: 100,
    });
    await runtime.start();
    await broker.publish({
      id: 'c1',
      subject: SUBJECTS.sessionControl(1),
      payload: { type: 'SessionControl', action: 'start', companyId: 1, chatappId: 1, provider: 'sandbox', secrets: {}, externalId: null },
    });
    for (let i = 0; i < 10; i++) {
      await broker.idle();
      await sleep(10);
    }
    expect(runtime.heldSessions()).to.deep.equal([1]);
    cutOff = true;
    const since = Date.now();
    while (runtime.heldSessions().length && Date.now() - since < 3000) await sleep(10);
    const stoppedAfter = Date.now() - since;
    expect(runtime.heldSessions()).to.deep.equal([]);
    // Its lease (1,000 ms from the last renewal) had not lapsed yet: nobody else could have held the session meanwhile.
    expect(stoppedAfter).to.be.below(1000);
    expect(await registry.owner(1)).to.equal('a');
    await runtime.stop();
  });
});
