import { expect } from 'chai';
import {
  InProcessBroker,
  SUBJECTS,
  type Broker,
  type BrokerEnvelope,
  type ChannelEvent,
  type SessionControl,
  type SessionSendMessage,
} from '@servicedesk/core';
import { ChannelRuntime, InMemorySandboxLedger, SandboxConnector } from '../src/index.js';

const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };

/** Waits for something that must come; fails with `what` if it does not. */
async function until(what: string, check: () => boolean) {
  for (let i = 0; i < 500 && !check(); i++) await new Promise((r) => setTimeout(r, 5));
  if (!check()) throw new Error(`timed out waiting for ${what}`);
}

/** Each event as one word: a session status, or the event's type with the message it names. */
const word = (e: ChannelEvent) =>
  e.type === 'SessionStatusChanged'
    ? e.status
    : 'messageId' in e
      ? `${e.type}:${e.messageId}`
      : 'providerMessageId' in e
        ? `${e.type}:${e.providerMessageId}`
        : e.type;

async function setup() {
  const broker = new InProcessBroker();
  const sandbox = new SandboxConnector();
  const runtime = new ChannelRuntime({ broker, connectors: [sandbox], logger: silent, retryDelayMs: 5, maxSendAttempts: 3, sendDeadlineMs: 200 });
  await runtime.start();
  const events: ChannelEvent[] = [];
  const online: ChannelEvent[] = [];
  await broker.subscribe('test-events', 'evt.>', async (e: BrokerEnvelope) => {
    const event = e.payload as ChannelEvent;
    if (event.type === 'RuntimeOnline') online.push(event);
    else events.push(event);
  });
  const control = (action: SessionControl['action'], chatappId = 7): SessionControl => ({
    type: 'SessionControl',
    action,
    companyId: 1,
    chatappId,
    provider: 'sandbox',
    secrets: {},
    externalId: null,
  });
  const send = (messageId: string, chatappId = 7): SessionSendMessage => ({
    type: 'SessionSendMessage',
    messageId,
    companyId: 1,
    chatappId,
    ticketId: 3,
    to: '5511999990000',
    content: { body: 'hi' },
  });
  const settle = async () => {
    for (let i = 0; i < 5; i++) {
      await broker.idle();
      await new Promise((r) => setTimeout(r, 10));
    }
  };
  return { broker, sandbox, runtime, events, online, control, send, settle };
}

/** A broker that logs, in order, each publish as it is made and the end of each handled message (its acknowledgement). */
function loggingBroker(log: string[]) {
  const inner = new InProcessBroker();
  const broker: Broker = {
    onGiveUp: () => undefined,
    publish: (e) => {
      const p = e.payload as ChannelEvent;
      log.push(`publish ${p.type === 'MessageStatusChanged' ? p.status : p.type === 'InboundMessage' ? `inbound ${p.providerMessageId}` : p.type}`);
      return inner.publish(e);
    },
    subscribe: (durable, subject, handler, options) =>
      inner.subscribe(
        durable,
        subject,
        async (e, info) => {
          await handler(e, info);
          log.push(`ack ${e.id}`);
        },
        options,
      ),
  };
  return { inner, broker };
}

describe('Channel runtime with the sandbox connector', () => {
  it('announces itself when it starts, so the backend hands it the sessions to hold', async () => {
    const s = await setup();
    await s.settle();
    expect(s.online).to.have.length(1);
    expect(s.online[0]).to.include({ type: 'RuntimeOnline' });
    await s.runtime.stop();
  });

  it('starts a session and reports OPENING then CONNECTED', async () => {
    const s = await setup();
    await s.broker.publish({ id: 'c1', subject: SUBJECTS.sessionControl(7), payload: s.control('start') });
    await s.settle();
    expect(s.events.map((e) => (e.type === 'SessionStatusChanged' ? e.status : e.type))).to.deep.equal(['OPENING', 'CONNECTED']);
    await s.runtime.stop();
  });

  it('a restart reports OPENING then CONNECTED again, never the old session going DISCONNECTED in between', async () => {
    const s = await setup();
    await s.broker.publish({ id: 'c1', subject: SUBJECTS.sessionControl(7), payload: s.control('start') });
    await s.settle();
    await s.broker.publish({ id: 'c2', subject: SUBJECTS.sessionControl(7), payload: s.control('restart') });
    await until('the restarted session', () => s.events.filter((e) => e.type === 'SessionStatusChanged' && e.status === 'CONNECTED').length === 2);
    // A logout afterwards is reported: only the restart's own stop is silent.
    await s.broker.publish({ id: 'c3', subject: SUBJECTS.sessionControl(7), payload: s.control('logout') });
    await until('the logout', () => s.events.some((e) => e.type === 'SessionStatusChanged' && e.status === 'DISCONNECTED'));
    await s.settle();
    const words = s.events.map(word);
    expect(words.slice(0, 4)).to.deep.equal(['OPENING', 'CONNECTED', 'OPENING', 'CONNECTED']);
    expect([...new Set(words.slice(4))]).to.deep.equal(['DISCONNECTED']);
    await s.runtime.stop();
  });

  it('a start naming a phone number reports the pairing code with the qrcode status, and CONNECTED once the phone enters it', async () => {
    const s = await setup();
    await s.broker.publish({ id: 'c1', subject: SUBJECTS.sessionControl(7), payload: { ...s.control('start'), pairingPhoneNumber: '5511999990000' } });
    await until('the pairing code', () => s.events.some((e) => e.type === 'SessionStatusChanged' && e.status === 'qrcode'));
    const pairing = s.events.find((e) => e.type === 'SessionStatusChanged' && e.status === 'qrcode');
    const code = pairing?.type === 'SessionStatusChanged' ? pairing.pairingCode : undefined;
    expect(code).to.match(/^[1-9A-HJ-NP-TV-Z]{8}$/);
    expect(pairing).to.include({ qrcode: null, companyId: 1, chatappId: 7 });
    expect(s.sandbox.session(7).pairing).to.deep.equal({ phoneNumber: '5511999990000', code });
    // A wrong code leaves it waiting; the right one (as the phone shows it, with a dash) connects.
    expect(s.sandbox.session(7).enterPairingCode('AAAAAAAA')).to.equal(false);
    expect(s.sandbox.session(7).enterPairingCode(`${code!.slice(0, 4)}-${code!.slice(4)}`)).to.equal(true);
    await until('CONNECTED', () => s.events.some((e) => e.type === 'SessionStatusChanged' && e.status === 'CONNECTED'));
    expect(s.events.map(word)).to.deep.equal(['OPENING', 'qrcode', 'CONNECTED']);
    await s.runtime.stop();
  });

  it('sends through a connected session and reports sent, then delivered and read naming the message', async () => {
    const s = await setup();
    await s.broker.publish({ id: 'c1', subject: SUBJECTS.sessionControl(7), payload: s.control('start') });
    await s.settle();
    await s.broker.publish({ id: 'm1', subject: SUBJECTS.sessionSend(7), payload: s.send('m1') });
    await s.settle();
    const after = s.events.filter((e) => e.type !== 'SessionStatusChanged');
    expect(after.map((e) => e.type)).to.deep.equal(['SessionMessageSent', 'MessageStatusChanged', 'MessageStatusChanged']);
    expect(after.slice(1).map((e) => (e.type === 'MessageStatusChanged' ? [e.status, e.messageId] : null))).to.deep.equal([
      ['delivered', 'm1'],
      ['read', 'm1'],
    ]);
    expect(s.sandbox.session(7).sent.map((m) => m.content.body)).to.deep.equal(['hi']);
    await s.runtime.stop();
  });

  it("reports a send's receipts and the contact's reply before it acknowledges the command, so a crash cannot lose them", async () => {
    const log: string[] = [];
    const { inner, broker } = loggingBroker(log);
    const runtime = new ChannelRuntime({
      broker,
      connectors: [new SandboxConnector(new InMemorySandboxLedger(), { echo: true })],
      logger: silent,
      retryDelayMs: 5,
    });
    await runtime.start();
    await broker.publish({
      id: 'c1',
      subject: SUBJECTS.sessionControl(7),
      payload: { type: 'SessionControl', action: 'start', companyId: 1, chatappId: 7, provider: 'sandbox', secrets: {}, externalId: null },
    });
    await inner.idle();
    log.length = 0;
    await broker.publish({
      id: 'm1',
      subject: SUBJECTS.sessionSend(7),
      payload: { type: 'SessionSendMessage', messageId: 'm1', companyId: 1, chatappId: 7, ticketId: 3, to: '5511999990000', content: { body: 'hi' } },
    });
    await inner.idle();
    const handled = log.indexOf('ack m1');
    expect(handled, log.join(' | ')).to.be.above(0);
    expect(log.slice(1, handled)).to.deep.equal(['publish SessionMessageSent', 'publish delivered', 'publish read', 'publish inbound echo-m1']);
    await runtime.stop();
  });

  it('with recordInbound, an inbound message is taken once recorded, and a send is acknowledged only after its reply was recorded', async () => {
    const log: string[] = [];
    const { inner, broker } = loggingBroker(log);
    let release!: () => void;
    const recording = new Promise<void>((r) => {
      release = r;
    });
    const recordInbound = async (events: readonly BrokerEnvelope[]) => {
      await recording;
      for (const e of events) log.push(`recorded ${(e.payload as { providerMessageId: string }).providerMessageId}`);
    };
    const sandbox = new SandboxConnector(new InMemorySandboxLedger(), { echo: true });
    const runtime = new ChannelRuntime({ broker, connectors: [sandbox], logger: silent, retryDelayMs: 5, recordInbound });
    await runtime.start();
    await broker.publish({
      id: 'c1',
      subject: SUBJECTS.sessionControl(7),
      payload: { type: 'SessionControl', action: 'start', companyId: 1, chatappId: 7, provider: 'sandbox', secrets: {}, externalId: null },
    });
    await inner.idle();
    log.length = 0;
    let taken = false;
    const injected = sandbox.inject(7, { from: '5511988887777', body: 'oi', providerMessageId: 'in-1' }).then(() => {
      taken = true;
    });
    await broker.publish({
      id: 'm1',
      subject: SUBJECTS.sessionSend(7),
      payload: { type: 'SessionSendMessage', messageId: 'm1', companyId: 1, chatappId: 7, ticketId: 3, to: '5511999990000', content: { body: 'hi' } },
    });
    // The receipts are reported just before the reply, which waits for its recording with the command.
    for (let i = 0; i < 1000 && !log.includes('publish read'); i++) await new Promise((r) => setImmediate(r));
    expect(log, 'the command waits for its reply to be recorded').to.not.include('ack m1');
    expect(taken, 'the injected message is not taken before it is recorded').to.equal(false);
    release();
    await injected;
    await inner.idle();
    expect(log.filter((l) => l.startsWith('recorded') || l.startsWith('ack')).sort()).to.deep.equal(['ack m1', 'recorded echo-m1', 'recorded in-1']);
    expect(log.indexOf('recorded echo-m1')).to.be.below(log.indexOf('ack m1'));
    expect(
      log.filter((l) => l.startsWith('publish inbound')),
      'recorded, not published',
    ).to.deep.equal([]);
    await runtime.stop();
  });

  it("publishes a contact's typing straight to the broker, never through recordInbound (nothing to keep)", async () => {
    const broker = new InProcessBroker();
    const recorded: BrokerEnvelope[] = [];
    const sandbox = new SandboxConnector();
    const runtime = new ChannelRuntime({
      broker,
      connectors: [sandbox],
      logger: silent,
      retryDelayMs: 5,
      recordInbound: async (e) => void recorded.push(...e),
    });
    await runtime.start();
    const presences: BrokerEnvelope[] = [];
    await broker.subscribe('test-presence', 'evt.presence.>', async (e) => void presences.push(e));
    await broker.publish({
      id: 'c1',
      subject: SUBJECTS.sessionControl(7),
      payload: { type: 'SessionControl', action: 'start', companyId: 1, chatappId: 7, provider: 'sandbox', secrets: {}, externalId: null },
    });
    await until('the session', () => runtime.session(7)?.status() === 'CONNECTED');
    for (const state of ['composing', 'paused', 'recording'] as const) sandbox.session(7).presence('5511988887777', state);
    await until('three presence events', () => presences.length === 3);
    expect(presences.map((e) => e.subject)).to.deep.equal(Array(3).fill(SUBJECTS.contactPresence));
    expect(presences.map((e) => e.payload)).to.deep.include.members([
      { type: 'ContactPresence', companyId: 1, chatappId: 7, from: '5511988887777', state: 'composing', at: (presences[0]!.payload as { at: string }).at },
    ]);
    expect(presences.map((e) => (e.payload as { state: string }).state)).to.deep.equal(['composing', 'paused', 'recording']);
    expect(new Set(presences.map((e) => e.id)).size, 'each report its own event').to.equal(3);
    expect(recorded).to.deep.equal([]);
    await runtime.stop();
  });

  it('a send for a session nobody holds waits in the broker and goes out once the session starts', async () => {
    const s = await setup();
    await s.broker.publish({ id: 'm1', subject: SUBJECTS.sessionSend(9), payload: s.send('m1', 9) });
    await s.broker.idle();
    await s.broker.publish({ id: 'c9', subject: SUBJECTS.sessionControl(9), payload: s.control('start', 9) });
    await until('the send', () => s.events.some((e) => e.type === 'SessionMessageSent'));
    // Nothing came of the send before its session started: the session's statuses come first.
    expect(s.events.map(word).slice(0, 3)).to.deep.equal(['OPENING', 'CONNECTED', 'SessionMessageSent:m1']);
    expect(s.runtime.heldSessions()).to.deep.equal([9]);
    await s.runtime.stop();
  });

  it('never sends after the deadline: a send whose session appears too late fails with ERR_SEND_DEADLINE_EXCEEDED', async () => {
    const s = await setup();
    const old = { ...s.send('m1', 9), issuedAt: new Date(Date.now() - 1000).toISOString() };
    await s.broker.publish({ id: 'm1', subject: SUBJECTS.sessionSend(9), payload: old });
    await s.broker.publish({ id: 'c9', subject: SUBJECTS.sessionControl(9), payload: s.control('start', 9) });
    await s.settle();
    const failures = s.events.filter((e) => e.type === 'SessionMessageFailed').map((e) => (e.type === 'SessionMessageFailed' ? [e.messageId, e.reason] : null));
    expect(failures).to.deep.equal([['m1', 'ERR_SEND_DEADLINE_EXCEEDED']]);
    expect(s.sandbox.session(9).sent).to.deep.equal([]);
    await s.runtime.stop();
  });

  it('after a logout the session is handed back: later sends wait for whoever starts it again', async () => {
    const s = await setup();
    await s.broker.publish({ id: 'c1', subject: SUBJECTS.sessionControl(7), payload: s.control('start') });
    await s.settle();
    await s.broker.publish({ id: 'c2', subject: SUBJECTS.sessionControl(7), payload: s.control('logout') });
    await s.settle();
    expect(s.runtime.heldSessions()).to.deep.equal([]);
    const statuses = s.events.filter((e) => e.type === 'SessionStatusChanged').map((e) => (e.type === 'SessionStatusChanged' ? e.status : null));
    expect([...new Set(statuses)]).to.deep.equal(['OPENING', 'CONNECTED', 'DISCONNECTED']);
    await s.broker.publish({ id: 'm2', subject: SUBJECTS.sessionSend(7), payload: s.send('m2') });
    await s.broker.idle();
    const before = s.events.length;
    await s.broker.publish({ id: 'c3', subject: SUBJECTS.sessionControl(7), payload: s.control('start') });
    await until('the send', () => s.events.some((e) => e.type === 'SessionMessageSent'));
    // The send went out only once the session was started again, not before.
    expect(s.events.slice(0, before).filter((e) => e.type !== 'SessionStatusChanged')).to.deep.equal([]);
    expect(s.events.slice(before).map(word).slice(0, 3)).to.deep.equal(['OPENING', 'CONNECTED', 'SessionMessageSent:m2']);
    await s.runtime.stop();
  });

  it('reports a permanent refusal at once, and retries a transient one through the broker', async () => {
    const s = await setup();
    await s.broker.publish({ id: 'c1', subject: SUBJECTS.sessionControl(7), payload: s.control('start') });
    await s.settle();
    s.sandbox.session(7).behaviour = { failNext: { count: 1, reason: 'ERR_NUMBER_BLOCKED' }, flakyNext: 2 };
    await s.broker.publish({ id: 'm1', subject: SUBJECTS.sessionSend(7), payload: s.send('m1') });
    await s.broker.publish({ id: 'm2', subject: SUBJECTS.sessionSend(7), payload: s.send('m2') });
    await s.settle();
    const outcome = s.events
      .filter((e) => e.type === 'SessionMessageFailed' || e.type === 'SessionMessageSent')
      .map((e) => (e.type === 'SessionMessageFailed' ? `failed:${e.messageId}:${e.reason}` : e.type === 'SessionMessageSent' ? `sent:${e.messageId}` : ''));
    expect(outcome).to.deep.equal(['failed:m1:ERR_NUMBER_BLOCKED', 'sent:m2']);
    await s.runtime.stop();
  });

  it('a redelivered send command produces no second distinct event', async () => {
    const s = await setup();
    await s.broker.publish({ id: 'c1', subject: SUBJECTS.sessionControl(7), payload: s.control('start') });
    await s.settle();
    s.sandbox.session(7).behaviour = { acks: false };
    await s.broker.publish({ id: 'm1', subject: SUBJECTS.sessionSend(7), payload: s.send('m1') });
    await s.broker.publish({ id: 'm1-again', subject: SUBJECTS.sessionSend(7), payload: s.send('m1') });
    // The session's commands are handled in order: once a later send is reported, the redelivery is done with.
    await s.broker.publish({ id: 'm2', subject: SUBJECTS.sessionSend(7), payload: s.send('m2') });
    await until('the later send', () => s.events.some((e) => e.type === 'SessionMessageSent' && e.messageId === 'm2'));
    expect(s.events.filter((e) => e.type === 'SessionMessageSent').map(word)).to.deep.equal(['SessionMessageSent:m1', 'SessionMessageSent:m2']);
    await s.runtime.stop();
  });

  it('publishes injected inbound messages with their provider id', async () => {
    const s = await setup();
    await s.broker.publish({ id: 'c1', subject: SUBJECTS.sessionControl(7), payload: s.control('start') });
    await s.settle();
    s.sandbox.inject(7, { from: '5511988887777', body: 'oi', providerMessageId: 'in-1', senderName: 'Bia' });
    s.sandbox.inject(7, { from: '5511988887777', body: 'oi', providerMessageId: 'in-1', senderName: 'Bia' });
    // A later message of the session is published after any copy of the first.
    s.sandbox.inject(7, { from: '5511988887777', body: 'tudo bem?', providerMessageId: 'in-2', senderName: 'Bia' });
    await until('the later message', () => s.events.some((e) => e.type === 'InboundMessage' && e.providerMessageId === 'in-2'));
    const inbound = s.events.filter((e) => e.type === 'InboundMessage');
    expect(inbound.map(word)).to.deep.equal(['InboundMessage:in-1', 'InboundMessage:in-2']);
    expect(inbound[0]).to.include({ from: '5511988887777', body: 'oi', senderName: 'Bia', chatappId: 7, companyId: 1 });
    await s.runtime.stop();
  });

  it('answers number checks with a normalized id', async () => {
    const s = await setup();
    await s.broker.publish({ id: 'c1', subject: SUBJECTS.sessionControl(7), payload: s.control('start') });
    await s.settle();
    expect(await s.runtime.session(7)!.checkNumber('551188887777')).to.deep.equal({ exists: true, id: '5511988887777@sandbox' });
    expect(await s.runtime.session(7)!.checkNumber('12')).to.deep.equal({ exists: false, id: null });
    await s.runtime.stop();
  });
});

describe('Sandbox ledger: the simulated provider deduplicates by send key', () => {
  it('a send repeated with the same key, even by a restarted runtime, is delivered once', async () => {
    const ledger = new InMemorySandboxLedger();
    const listener = { status: () => undefined, inbound: async () => undefined, delivery: () => undefined, presence: () => undefined };
    const control: SessionControl = { type: 'SessionControl', action: 'start', companyId: 1, chatappId: 5, provider: 'sandbox', secrets: {}, externalId: null };
    const before = await new SandboxConnector(ledger).start(control, listener);
    const after = await new SandboxConnector(ledger).start(control, listener);
    const first = await before.send('5511999990000', { body: 'once' }, { idempotencyKey: 'msg-1' });
    const again = await after.send('5511999990000', { body: 'once' }, { idempotencyKey: 'msg-1' });
    expect(again.providerMessageId).to.equal(first.providerMessageId);
    expect((before as unknown as { sent: unknown[] }).sent).to.have.length(1);
    expect((after as unknown as { sent: unknown[] }).sent).to.have.length(0);
  });
});
