import { expect } from 'chai';
import type { Knex } from '@mikro-orm/knex';
import { watchRoundTrips } from '@servicedesk/adapters-persistence/testing';
import { openNamespace } from '../support/namespace-client.js';
import { sandboxDesk } from '../support/sandbox-conversations.js';
import { asSuper, client, startTestBackend, type TestBackend } from '../support/test-backend.js';

/** What the channel runtime's session sync sends whatever the operations do (its leases). */
const BACKGROUND = /\b(session_leases|session_desired)\b/;
const RUNS = 5;
const MICRO = 'statement-count-microservice-secret-01';

/**
 * Round trips to the database per operation of the write path, on the real backend, against a
 * ceiling each: a change that adds statements to a send, an inbound message (the runtime's or a
 * webhook's) or the ticket list fails here instead of showing up later as a slower bench (`bench/tools/statements.ts` lists them
 * by shape). A multi-statement query counts once. PostgreSQL sends deferred writes with the next
 * statement, BEGIN with the first and the last writes with COMMIT (CoalescingPostgreSqlDriver), and
 * is counted where `pg` writes to the server; PGlite sends each statement on its own, hence two ceilings.
 */
describe('HTTP: SQL round trips per operation stay under their ceilings', function () {
  this.timeout(120_000);
  let b: TestBackend;
  let sent: string[] | null = null;
  let postgres = false;
  let unwatch: (() => void) | undefined;

  before(async () => {
    b = await startTestBackend({ CHATAPP_MICROSERVICE_SECRET: MICRO });
    await b.reset();
    postgres = b.infra.db.kind === 'postgresql';
    const count = (sql: string) => {
      if (sent && !BACKGROUND.test(sql)) sent.push(sql);
    };
    if (postgres) {
      unwatch = watchRoundTrips(count);
    } else {
      const knex = (b.infra.db.orm.em.getConnection() as unknown as { getKnex(): Knex }).getKnex();
      knex.on('query', (q: { sql: string }) => count(q.sql));
    }
  });
  after(async () => {
    unwatch?.();
    await b?.close();
  });

  /** Average round trips of `RUNS` runs of `operation` (each run awaited to its end). */
  async function perOperation(operation: (i: number) => Promise<void>): Promise<number> {
    const counts: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      sent = [];
      await operation(i);
      counts.push(sent.length);
      if (process.env.SHOW_STATEMENTS === 'all' && i === RUNS - 1) console.log(sent.map((s) => s.replace(/\s+/g, ' ').slice(0, 140)).join('\n'));
      sent = null;
    }
    return counts.reduce((a, c) => a + c, 0) / RUNS;
  }

  it('an API send to a new number, until its read frame; an inbound message of a new contact (runtime, webhook), until its frame; a ticket page', async () => {
    const token = 'statement-count-connection-token-0001';
    const desk = await sandboxDesk(b, { token });
    const { token: adminToken, api } = await asSuper(b);
    const ns = await openNamespace(b.url, 1, adminToken);
    const official = client(b.url, token);
    try {
      // Warm-up: caches of the token and the connection, the first of each kind of statement.
      await official.post('/api/messages/send', { number: '5511977770000', body: 'warm-up' });
      await desk.inbound('5511966660000', 'warm-up');
      // Background jobs (the relay's safety net, expiries, campaign dispatch) would fall into the
      // counts at random: this backend runs none from here on; the relay after each commit stays.
      await b.jobs.stop();

      const send = await perOperation(async (i) => {
        const res = await official.post('/api/messages/send', { number: `55119777700${String(i + 1).padStart(2, '0')}`, body: `Pedido ${i}` });
        expect(res.status, JSON.stringify(res.body)).to.equal(200);
        const id = res.body.messageId as string;
        await ns.waitFor(
          (f) => f.event === 'company-1-appMessage' && f.data.action === 'update' && f.data.message?.id === id && f.data.message?.ack === 3,
          20_000,
        );
      });
      const inbound = await perOperation(async (i) => {
        const body = `Olá ${i} ${Date.now()}`;
        b.sandbox!.inject(desk.connectionId, { from: `55119666600${String(i + 1).padStart(2, '0')}`, body, senderName: `Cliente ${i}` });
        await ns.waitFor((f) => f.event === 'company-1-appMessage' && f.data.action === 'create' && f.data.message?.body === body, 20_000);
      });
      const webhookInbound = await perOperation(async (i) => {
        const body = `Webhook ${i} ${Date.now()}`;
        const event = { type: 'InboundMessage', providerMessageId: `count-webhook-${i}`, from: `55119555500${String(i + 1).padStart(2, '0')}`, body };
        const res = await client(b.url).post(
          '/api/chatapp-microservice/webhook',
          { chatappId: desk.connectionId, events: [event] },
          { 'x-webhook-secret': MICRO },
        );
        expect(res.status, JSON.stringify(res.body)).to.equal(200);
        await ns.waitFor((f) => f.event === 'company-1-appMessage' && f.data.action === 'create' && f.data.message?.body === body, 20_000);
      });
      const ticketPage = await perOperation(async () => {
        expect((await api.get('/tickets?pageNumber=1')).status).to.equal(200);
      });

      // Measured when written: PostgreSQL 15 / 10 / 7, PGlite 21 / 13 / 7; one more each for timing (a relay drain that loops once more reads the outbox again).
      // An inbound message, whether a webhook's or one the embedded runtime took on this in-process
      // broker, is first recorded in the outbox (one multi-row insert, no transaction around it),
      // then relayed like a send (the relay's read of the outbox and its mark): three more, measured
      // PostgreSQL 13 / 14 and PGlite 16 / 17 (the webhook also reads its connection by id). The
      // routing's reads of the company's flows, its connection's queues and its settings are then
      // kept per process while no frame says they changed (RoutingReads): PostgreSQL 10 / 11, PGlite 13 / 14.
      const ceilings = postgres ? { send: 16, inbound: 11, webhookInbound: 12, ticketPage: 8 } : { send: 22, inbound: 14, webhookInbound: 15, ticketPage: 8 };
      const measured = { send, inbound, webhookInbound, ticketPage };
      if (process.env.SHOW_STATEMENTS) console.log('round trips per operation', b.infra.db.kind, JSON.stringify(measured));
      for (const [operation, ceiling] of Object.entries(ceilings)) {
        expect(measured[operation as keyof typeof measured], `${operation}: round trips per operation (${JSON.stringify(measured)})`).to.be.at.most(ceiling);
      }
    } finally {
      ns.close();
    }
  });
});
