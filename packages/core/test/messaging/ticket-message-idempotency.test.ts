import { expect } from 'chai';
import type { SendTicketMessageInput } from '../../src/conversations/send-ticket-message.js';
import { createApplication, InMemoryCache } from '../../src/index.js';
import { code, eventsOf, ticketWorld, type TicketWorld } from './ticket-world.js';

const PNG = Buffer.from('89504e470d0a1a0a', 'hex');
const json = (value: unknown) => JSON.parse(JSON.stringify(value));
const stored = (w: TicketWorld, ticketId: number) => w.ports.messages.listByTicket(w.acme.id, ticketId, { offset: 0, limit: 50 }).then((p) => p.count);

describe("Operators' sends with an Idempotency-Key (in-memory use cases)", () => {
  it('the same key twice sends once and answers the first result again, publishing nothing more; without a key each call sends', async () => {
    const w = await ticketWorld();
    const t = await w.ticket({ unreadMessages: 1 });
    const input: SendTicketMessageInput = { actor: w.ana, ticketId: t.id, body: 'On my way', idempotencyKey: 'console-1' };
    const first = await w.app.conversations.sendTicketMessage.execute(input);
    expect(first.ticket).to.include({ status: 'open', userId: w.ana.userId });
    const events = eventsOf(w);
    expect(events).to.deep.equal(['ticket:delete', 'ticket:update', 'appMessage:create']);
    const again = await w.app.conversations.sendTicketMessage.execute(input);
    expect(json(again)).to.deep.equal(json(first));
    expect(w.ports.outbox.entries).to.have.length(1);
    expect(await stored(w, t.id)).to.equal(1);
    expect(eventsOf(w)).to.deep.equal(events);
    // The key is stored under the ticket's connection, with its company.
    expect(await w.ports.idempotencyKeys.find(w.connection.id, 'console-1')).to.include({ companyId: w.acme.id, connectionId: w.connection.id });
    // Without a key nothing changes: the same text twice is two messages.
    await w.app.conversations.sendTicketMessage.execute({ actor: w.ana, ticketId: t.id, body: 'On my way' });
    await w.app.conversations.sendTicketMessage.execute({ actor: w.ana, ticketId: t.id, body: 'On my way' });
    expect(await stored(w, t.id)).to.equal(3);
  });

  it('answers the first result once the ticket has moved on (closed), and after the in-progress marks are gone', async () => {
    const w = await ticketWorld();
    const t = await w.ticket({ status: 'open', userId: w.ana.userId });
    const input: SendTicketMessageInput = { actor: w.ana, ticketId: t.id, body: 'Done', idempotencyKey: 'console-2' };
    const first = await w.app.conversations.sendTicketMessage.execute(input);
    await w.ports.tickets.update({ ...t, status: 'closed', closedAt: w.ports.clock.now() });
    w.ports.cache.clear();
    expect(json(await w.app.conversations.sendTicketMessage.execute(input))).to.deep.equal(json(first));
    expect(await code(w.app.conversations.sendTicketMessage.execute({ ...input, idempotencyKey: 'console-3' }))).to.equal('ERR_TICKET_CLOSED');
    expect(await stored(w, t.id)).to.equal(1);
  });

  it('a note and files are idempotent too; the files are compared by content, not only by name, type and size', async () => {
    const w = await ticketWorld();
    const t = await w.ticket({ status: 'open', userId: w.ana.userId });
    const note = { actor: w.ana, ticketId: t.id, body: 'VIP', isPrivate: true, idempotencyKey: 'note-1' };
    const first = await w.app.conversations.sendTicketMessage.execute(note);
    expect(json(await w.app.conversations.sendTicketMessage.execute(note))).to.deep.equal(json(first));
    const files = {
      actor: w.ana,
      ticketId: t.id,
      body: 'photo',
      medias: [{ filename: 'a.png', contentType: 'image/png', data: PNG }],
      idempotencyKey: 'files-1',
    };
    const sent = await w.app.conversations.sendTicketMessage.execute(files);
    expect(json(await w.app.conversations.sendTicketMessage.execute({ ...files, medias: [{ ...files.medias[0]!, data: Buffer.from(PNG) }] }))).to.deep.equal(
      json(sent),
    );
    const otherBytes = Buffer.from(PNG);
    otherBytes[7] = 0;
    expect(await code(w.app.conversations.sendTicketMessage.execute({ ...files, medias: [{ ...files.medias[0]!, data: otherBytes }] }))).to.equal(
      'ERR_IDEMPOTENCY_KEY_REUSED',
    );
    expect(await stored(w, t.id)).to.equal(2);
    expect(w.ports.blobs.blobs.size).to.equal(1);
  });

  it('refuses the same key with another request (text, quote, note flag, file, ticket or user) with ERR_IDEMPOTENCY_KEY_REUSED, sending nothing', async () => {
    const w = await ticketWorld();
    const t = await w.ticket({ status: 'open', userId: w.ana.userId });
    const other = await w.ticket({ status: 'open', userId: w.ana.userId });
    const asked = await w.message(t, { body: 'price?' });
    const base: SendTicketMessageInput = { actor: w.ana, ticketId: t.id, body: 'Hello', idempotencyKey: 'k-1' };
    await w.app.conversations.sendTicketMessage.execute(base);
    const variants: SendTicketMessageInput[] = [
      { ...base, body: 'Hello!' },
      { ...base, quotedMsgId: asked.id },
      { ...base, isPrivate: true },
      { ...base, medias: [{ filename: 'a.png', contentType: 'image/png', data: PNG }] },
      { ...base, ticketId: other.id },
      { ...base, actor: w.admin },
    ];
    for (const [i, v] of variants.entries())
      expect(await code(w.app.conversations.sendTicketMessage.execute(v)), `variant ${i}`).to.equal('ERR_IDEMPOTENCY_KEY_REUSED');
    expect(await stored(w, t.id)).to.equal(2);
    expect(await stored(w, other.id)).to.equal(0);
    expect(w.ports.outbox.entries).to.have.length(1);
    // The message API's keys share the store, per connection: its request with this key is another request too.
    expect(
      await code(w.app.conversations.sendApiMessage.execute({ connection: w.connection, number: '5511988887777', body: 'Hello', idempotencyKey: 'k-1' })),
    ).to.equal('ERR_IDEMPOTENCY_KEY_REUSED');
  });

  it('a concurrent pair with one key sends once: the second answers the first result or ERR_IDEMPOTENT_REQUEST_IN_PROGRESS', async () => {
    const w = await ticketWorld();
    const t = await w.ticket({ status: 'open', userId: w.ana.userId });
    const input: SendTicketMessageInput = { actor: w.ana, ticketId: t.id, body: 'Once', idempotencyKey: 'race-1' };
    const outcomes = await Promise.allSettled([w.app.conversations.sendTicketMessage.execute(input), w.app.conversations.sendTicketMessage.execute(input)]);
    const ok = outcomes.flatMap((o) => (o.status === 'fulfilled' ? [o.value] : []));
    expect(ok.length).to.be.greaterThan(0);
    for (const o of outcomes) if (o.status === 'rejected') expect(o.reason.code).to.equal('ERR_IDEMPOTENT_REQUEST_IN_PROGRESS');
    expect(new Set(ok.map((r) => r.messages[0]!.id)).size).to.equal(1);
    expect(await stored(w, t.id)).to.equal(1);
  });

  it('when another instance committed the key first (its mark in another cache), the loser answers the stored result', async () => {
    const w = await ticketWorld();
    const t = await w.ticket({ status: 'open', userId: w.ana.userId });
    const input: SendTicketMessageInput = { actor: w.ana, ticketId: t.id, body: 'Once', idempotencyKey: 'race-2' };
    // A second instance: the same stores, its own cache; its first look finds no key yet (the first one commits meanwhile).
    const keys = w.ports.idempotencyKeys;
    let looks = 0;
    const late = {
      find: async (connectionId: number, key: string) => (looks++ === 0 ? null : keys.find(connectionId, key)),
      add: keys.add.bind(keys),
      removeOlderThan: keys.removeOlderThan.bind(keys),
    };
    const instance2 = createApplication({ ...w.ports, cache: new InMemoryCache(), idempotencyKeys: late });
    const first = await w.app.conversations.sendTicketMessage.execute(input);
    const second = await instance2.conversations.sendTicketMessage.execute(input);
    expect(json(second)).to.deep.equal(json(first));
    expect(looks).to.equal(2);
  });
});
