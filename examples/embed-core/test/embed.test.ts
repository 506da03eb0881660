import { expect } from 'chai';
import { SUBJECTS } from '@servicedesk/core';
import { DEMO, runEmbedCoreDemo, type EmbedCoreDemoResult } from '../src/embed.js';

describe('Embedding the core (in-memory adapters)', () => {
  let r: EmbedCoreDemoResult;
  before(async () => {
    r = await runEmbedCoreDemo();
  });

  it('creates the company through the use cases and the sandbox connects its connection', () => {
    // The seed's own company is #1, so the created one must be a second company.
    expect(r.company).to.deep.equal({ id: 2, name: DEMO.company.name });
    expect(r.connection).to.include({ name: DEMO.connection.name, status: 'CONNECTED' });
  });

  it('opens exactly one ticket, for the contact, taken by the operator who replied', () => {
    expect(r.ticketCount).to.equal(1);
    expect(r.ticket.status).to.equal('open');
    expect(r.ticket.contact).to.include({ name: DEMO.contact.name, number: DEMO.contact.number });
    expect(r.ticket.user?.name).to.equal(DEMO.company.adminName);
    expect(r.ticket.chatapp?.id).to.equal(r.connection.id);
    expect(r.ticket.lastMessage).to.equal(DEMO.reply);
    expect(r.ticket.unreadMessages).to.equal(0);
  });

  it('stores the inbound message, the greeting and the reply in that order, all in the one ticket', () => {
    expect(r.messages.map((m) => [m.fromMe, m.body])).to.deep.equal([
      [false, DEMO.inbound.body],
      [true, DEMO.connection.greeting],
      [true, DEMO.reply],
    ]);
    expect(new Set(r.messages.map((m) => m.ticketId))).to.deep.equal(new Set([r.ticket.id]));
    expect(r.messages[0]).to.include({ providerMessageId: DEMO.inbound.providerMessageId, userId: null });
    expect(r.messages[2]!.userId).to.equal(r.ticket.user?.id);
  });

  it('accepts the reply as pending, with its send command waiting in the outbox next to the greeting', () => {
    expect(r.accepted.status).to.equal('pending');
    const send = SUBJECTS.sessionSend(r.connection.id);
    expect(r.accepted.outboxSubjects).to.deep.equal([send, send]);
  });

  it('relays the outbox to the broker, where the sandbox sends and acknowledges every message', () => {
    // The session start command and the two sends.
    expect(r.relayed).to.equal(3);
    expect(r.sandboxSent).to.deep.equal([
      { to: DEMO.contact.number, body: DEMO.connection.greeting },
      { to: DEMO.contact.number, body: DEMO.reply },
    ]);
    const reply = r.messages.find((m) => m.id === r.accepted.messageId)!;
    expect(reply).to.include({ status: 'delivered', providerMessageId: `sandbox-${r.accepted.messageId}` });
  });

  it('gives the same outcome on every run (time and ids come from the in-memory ports)', async () => {
    const again = await runEmbedCoreDemo();
    expect(again).to.deep.equal(r);
  });
});
