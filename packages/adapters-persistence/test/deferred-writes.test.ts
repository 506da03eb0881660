import { expect } from 'chai';
import { RequestContext } from '@mikro-orm/core';
import { ConflictError, type Message, type Ticket } from '@servicedesk/core';
import { companyFixture, planFixture } from '@servicedesk/core/contracts/repositories-contract';
import { connectionFixture, contactDraft, messageFixture, ticketDraft } from '@servicedesk/core/contracts/messaging-contract';
import {
  MikroOrmCompanies,
  MikroOrmConnections,
  MikroOrmContacts,
  MikroOrmMessages,
  MikroOrmOutbox,
  MikroOrmPlans,
  MikroOrmTickets,
  MikroOrmTransaction,
  type Database,
} from '../src/index.js';
import { openPgliteDatabase, openPostgresDatabase, truncate, watchRoundTrips } from './support/databases.js';
import { integrationUrl } from '@servicedesk/core/contracts/integration-env';

const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const T0 = new Date('2026-03-01T10:00:00.000Z');

/**
 * A transaction's writes whose answers nobody reads wait for its next statement and travel with
 * it, BEGIN with the first statement and COMMIT with the last writes (PostgreSQL); the outcome is
 * the same as writing at once (PGlite), only the round trips differ.
 */
for (const [name, open, enabled] of [
  ['PGlite', () => openPgliteDatabase(), () => true],
  ['PostgreSQL', () => openPostgresDatabase(), () => Boolean(integrationUrl('TEST_DATABASE_URL'))],
] as Array<[string, () => Promise<Database>, () => boolean]>) {
  describe(`Deferred writes in a transaction: ${name}`, () => {
    let db: Database;
    let r: ReturnType<typeof repositories>;
    let w: { company: number; connection: number; ticket: Ticket };
    /** Queries sent to the server (a multi-statement query counts once), while counting. */
    let sent: string[] | null = null;
    let unwatch: (() => void) | undefined;
    const coalesces = name === 'PostgreSQL';

    function repositories(d: Database) {
      const { orm } = d;
      return {
        plans: new MikroOrmPlans(orm),
        companies: new MikroOrmCompanies(orm),
        connections: new MikroOrmConnections(orm),
        contacts: new MikroOrmContacts(orm),
        tickets: new MikroOrmTickets(orm),
        messages: new MikroOrmMessages(orm),
        outbox: new MikroOrmOutbox(orm),
        tx: new MikroOrmTransaction(orm),
      };
    }
    const inContext = <T>(fn: () => Promise<T>) => RequestContext.create(db.orm.em, fn);
    const counted = async <T>(fn: () => Promise<T>) => {
      sent = [];
      try {
        return await fn();
      } finally {
        const n = sent;
        sent = null;
        counts.push(n);
      }
    };
    let counts: string[][] = [];

    before(async function () {
      if (!enabled()) return this.skip();
      db = await open();
      r = repositories(db);
      if (db.kind === 'postgresql')
        unwatch = watchRoundTrips((sql) => {
          sent?.push(sql);
        });
    });
    after(async () => {
      unwatch?.();
      await db?.close();
    });
    beforeEach(async () => {
      if (!db) return;
      await truncate(db);
      counts = [];
      await inContext(async () => {
        const plan = await r.plans.add(planFixture('P'));
        const company = (await r.companies.add(companyFixture(plan.id, 'One'))).id;
        const connection = (await r.connections.add(connectionFixture(company, 'Main'))).id;
        const contact = await r.contacts.getOrCreate(contactDraft(company, '5511999990001'));
        const { ticket } = await r.tickets.getOrCreateActive(
          ticketDraft({ companyId: company, contactId: contact.id, connectionId: connection, uuid: uuid(1) }),
        );
        w = { company, connection, ticket };
      });
    });

    const message = (n: number, overrides: Partial<Message> = {}) =>
      messageFixture(w.ticket, uuid(100 + n), { fromMe: true, body: `it's 10% "done"? \\ ${n}`, ...overrides });

    it('a read in the transaction sees the writes before it, which ride with it; the rest go just before the commit', async () => {
      await inContext(() =>
        counted(() =>
          r.tx.run(async () => {
            await r.messages.add(message(1, { media: { key: 'k', url: 'https://f.test/k?x=1', contentType: 'image/png', filename: 'ç?.png', size: 3 } }));
            await r.outbox.add({ id: uuid(100 + 1), subject: 'cmd.session.send.1', payload: { body: "O'Neil ? $1" }, createdAt: T0 });
            const found = await r.messages.findById(w.company, uuid(101));
            expect(found?.body).to.equal(`it's 10% "done"? \\ 1`);
            expect(found?.media?.filename).to.equal('ç?.png');
            // Values go in as literals: times keep their instant, JSON its text.
            expect(found?.createdAt.toISOString()).to.equal(T0.toISOString());
            expect(found?.media).to.deep.equal({ key: 'k', url: 'https://f.test/k?x=1', contentType: 'image/png', filename: 'ç?.png', size: 3 });
            await r.tickets.update({ ...w.ticket, lastMessage: 'último?', unreadMessages: 3, updatedAt: T0 });
            await r.messages.add(message(2));
          }),
        ),
      );
      await inContext(async () => {
        expect((await r.messages.findById(w.company, uuid(102)))?.body).to.equal(`it's 10% "done"? \\ 2`);
        expect((await r.outbox.pending(10)).map((e) => e.payload)).to.deep.equal([{ body: "O'Neil ? $1" }]);
        expect(await r.tickets.findById(w.company, w.ticket.id)).to.deep.include({ lastMessage: 'último?', unreadMessages: 3 });
      });
      // Two round trips: begin with the two writes and the read after them; the last two writes with the commit.
      if (coalesces) {
        expect(
          counts[0]!.map((s) =>
            s
              .split(';')
              .filter((part) => part.trim())
              .map((part) => part.trim().split(/\s/)[0]!.toLowerCase()),
          ),
        ).to.deep.equal([
          ['begin', 'insert', 'insert', 'select'],
          ['update', 'insert', 'commit'],
        ]);
      }
    });

    it('a transaction of writes alone is one round trip, and one that does nothing sends nothing', async () => {
      await inContext(() =>
        counted(() =>
          r.tx.run(async () => {
            await r.messages.add(message(8));
            await r.outbox.add({ id: uuid(108), subject: 'cmd.session.send.1', payload: { n: 8 }, createdAt: T0 });
          }),
        ),
      );
      await inContext(() => counted(() => r.tx.run(async () => undefined)));
      await inContext(async () => {
        expect((await r.messages.findById(w.company, uuid(108)))?.id).to.equal(uuid(108));
        expect((await r.outbox.pending(10)).map((e) => e.payload)).to.deep.equal([{ n: 8 }]);
      });
      if (coalesces) expect(counts.map((c) => c.length)).to.deep.equal([1, 0]);
    });

    it('a deferred write that fails fails the transaction with its own error, and nothing of the transaction stays', async () => {
      const closed = await inContext(async () => {
        await r.tickets.update({ ...w.ticket, status: 'closed', closedAt: T0 });
        const { ticket } = await r.tickets.getOrCreateActive(
          ticketDraft({ companyId: w.company, contactId: w.ticket.contactId, connectionId: w.connection, uuid: uuid(2) }),
        );
        return ticket;
      });
      const failure = await inContext(() =>
        r.tx
          .run(async () => {
            await r.messages.add(message(3));
            // Reopening the closed one while the other is active breaks the one-active-ticket rule.
            await r.tickets.update({ ...w.ticket, status: 'open', closedAt: null });
            await r.outbox.add({ id: uuid(300), subject: 's', payload: null, createdAt: T0 });
          })
          .then(
            () => null,
            (err: unknown) => err,
          ),
      );
      // The same when the write rides with a read (its failure then passes through the ORM's driver).
      const viaRead = await inContext(() =>
        r.tx
          .run(async () => {
            await r.tickets.update({ ...w.ticket, status: 'open', closedAt: null });
            await r.messages.findById(w.company, uuid(103));
          })
          .then(
            () => null,
            (err: unknown) => err,
          ),
      );
      expect((viaRead as ConflictError).code).to.equal('ERR_OTHER_OPEN_TICKET');
      expect(failure).to.be.instanceOf(ConflictError);
      expect((failure as ConflictError).code).to.equal('ERR_OTHER_OPEN_TICKET');
      await inContext(async () => {
        expect(await r.messages.findById(w.company, uuid(103))).to.equal(null);
        expect(await r.outbox.pending(10)).to.deep.equal([]);
        expect((await r.tickets.findById(w.company, w.ticket.id))?.status).to.equal('closed');
        expect((await r.tickets.findById(w.company, closed.id))?.status).to.equal('pending');
      });
      // The connections went back to the pool clean: as many transactions as the pool holds, side by side, all commit.
      await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          inContext(() =>
            r.tx.run(async () => {
              await r.outbox.add({ id: uuid(400 + i), subject: 's', payload: null, createdAt: T0 });
              await r.messages.findById(w.company, uuid(400 + i));
            }),
          ),
        ),
      );
      await inContext(async () => expect(await r.outbox.pending(20)).to.have.length(12));
    });

    it('a transaction opened inside another keeps the outer writes when it rolls back, and loses its own', async () => {
      await inContext(() =>
        r.tx.run(async () => {
          await r.messages.add(message(4));
          const inner = await r.tx
            .run(async () => {
              await r.messages.add(message(5));
              throw new Error('inner fails');
            })
            .catch((err: Error) => err.message);
          expect(inner).to.equal('inner fails');
          await r.messages.add(message(6));
        }),
      );
      await inContext(async () => {
        expect((await r.messages.findById(w.company, uuid(104)))?.id).to.equal(uuid(104));
        expect((await r.messages.findById(w.company, uuid(106)))?.id).to.equal(uuid(106));
        expect(await r.messages.findById(w.company, uuid(105))).to.equal(null);
      });
    });

    it('without a transaction a write runs at once', async () => {
      await inContext(async () => {
        await r.messages.add(message(7));
        expect(Number((await db.orm.em.getConnection().execute<Array<{ n: string }>>('select count(*) as n from messages'))[0]!.n)).to.equal(1);
      });
    });
  });
}
