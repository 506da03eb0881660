import { expect } from 'chai';
import { RequestContext } from '@mikro-orm/core';
import type { SqlEntityManager } from '@mikro-orm/postgresql';
import type { CorePorts } from '@servicedesk/core';
import { createInMemoryPorts, type FixedClock } from '@servicedesk/core/testing';
import { dashboardTenant, describeDashboardsContract, type DashboardFixture } from '@servicedesk/core/contracts/dashboards-contract';
import { PGlite } from '@electric-sql/pglite';
import { contactDraft, ticketDraft } from '@servicedesk/core/contracts/messaging-contract';
import { companyFixture, planFixture, userFixture } from '@servicedesk/core/contracts/repositories-contract';
import {
  BACKEND_MIGRATIONS,
  completeSchema,
  mikroOrmRepositories,
  MikroOrmCompanies,
  MikroOrmContactsReport,
  MikroOrmContacts,
  MikroOrmPlans,
  MikroOrmTicketCycles,
  MikroOrmTicketLogs,
  MikroOrmTickets,
  MikroOrmUsers,
  openDatabase,
  type Database,
} from '../../src/index.js';
import { describeOnEachDatabase } from '../support/databases.js';

/** The whole core on this database (every table its repositories need): persistence through them, the rest (cache, realtime, clock) in memory. */
function fixtureOn(db: Database): DashboardFixture & { db: Database } {
  const memory = createInMemoryPorts();
  const ports = { ...memory, ...mikroOrmRepositories(db.orm), clock: memory.clock } as CorePorts & { clock: FixedClock };
  return { ports, db };
}

describeOnEachDatabase(
  fixtureOn,
  (name, make) => {
    describeDashboardsContract(name, make);

    describe(`Ticket tracking on ${name}: what only SQL shows`, () => {
      const sql = (db: Database, query: string, params: unknown[] = []) =>
        (db.orm.em.getContext() as unknown as SqlEntityManager).execute<any[]>(query, params);

      it('writes a cycle change in one statement, and two openers of one ticket get one open cycle', async () => {
        const f = await make();
        const t = await dashboardTenant(f);
        const cycles = new MikroOrmTicketCycles(f.db.orm);
        const [open] = await sql(f.db, 'select * from ticket_cycles where ticket_id = ? and closed_at is null', [t.tickets.d]);
        const draft = {
          companyId: t.acme.id,
          ticketId: t.tickets.d,
          contactId: Number(open.contact_id),
          connectionId: t.connection.id,
          queueId: null,
          userId: null,
          isGroup: false,
          outbound: false,
          reopened: false,
          startedAt: new Date(),
          acceptedAt: null,
          firstResponseAt: null,
          closedAt: null,
          rating: null,
        };
        await Promise.all([cycles.open(draft), cycles.open(draft)]);
        expect(await sql(f.db, 'select id from ticket_cycles where ticket_id = ?', [t.tickets.d])).to.have.length(1);
        const conn = f.db.orm.em.getConnection();
        const execute = conn.execute.bind(conn);
        let statements = 0;
        conn.execute = ((...args: Parameters<typeof execute>) => {
          statements++;
          return execute(...args);
        }) as typeof conn.execute;
        try {
          await cycles.change(t.acme.id, t.tickets.d, { queueId: t.sales.id, userId: t.bia.userId, at: new Date(), accepted: true, transferred: true });
          await cycles.responded(t.acme.id, t.tickets.d, new Date());
        } finally {
          conn.execute = execute;
        }
        expect(statements).to.equal(2);
        const [row] = await sql(f.db, 'select transfers, queue_id, user_id from ticket_cycles where ticket_id = ?', [t.tickets.d]);
        expect([Number(row.transfers), Number(row.queue_id), Number(row.user_id)]).to.deep.equal([1, t.sales.id, t.bia.userId]);
      });

      it('a deleted ticket takes its cycles along, a deleted company its cycles and figures', async () => {
        const f = await make();
        const t = await dashboardTenant(f);
        t.setClock('2026-03-10T12:00:00.000Z');
        await t.app.dashboards.refreshFigures.execute(t.acme.id);
        await t.app.tickets.deleteTicket.execute({ actor: t.admin, ticketId: t.tickets.a1 });
        expect(await sql(f.db, 'select id from ticket_cycles where ticket_id = ?', [t.tickets.a1])).to.deep.equal([]);
        await sql(f.db, 'delete from companies where id = ?', [t.acme.id]);
        for (const table of ['ticket_cycles', 'ticket_day_figures', 'dashboard_refreshes']) {
          expect(await sql(f.db, `select 1 from ${table} where company_id = ?`, [t.acme.id]), table).to.deep.equal([]);
        }
      });

      it("an export reads its batches after the request's unit of work is over", async () => {
        const f = await make();
        const t = await dashboardTenant(f);
        const report = new MikroOrmContactsReport(f.db.orm);
        const outside = await new Promise<number>((resolve, reject) => {
          // Leaves the request context, as a streamed response body does.
          setImmediate(() => {
            report.batch({ companyId: t.acme.id }, 0, 100).then((rows) => resolve(rows.length), reject);
          });
        });
        expect(RequestContext.currentRequestContext()).to.not.equal(undefined);
        expect(outside).to.equal(5);
      });
    });
  },
  completeSchema(),
);

describe('m0020 on a database that already has tickets (PGlite)', function () {
  this.timeout(120_000);

  it('gives every ticket one cycle from what its logs and messages say', async () => {
    const pglite = await PGlite.create();
    const before = await openDatabase({ pglite, migrations: BACKEND_MIGRATIONS.filter((m) => m.name < 'm0020') });
    const ids: Record<string, number> = {};
    try {
      await before.migrate();
      await RequestContext.create(before.orm.em, async () => {
        const { orm } = before;
        const sql = (q: string, p: unknown[]) => (orm.em.getContext() as unknown as SqlEntityManager).execute(q, p);
        const plan = await new MikroOrmPlans(orm).add(planFixture('Plan'));
        const company = await new MikroOrmCompanies(orm).add(companyFixture(plan.id, 'Acme'));
        const ana = await new MikroOrmUsers(orm).add(userFixture(company.id, 'ana@acme.test'));
        // In SQL, as the tables stood then: the repository would write columns later migrations add (m0025's `prompt_id`).
        const connection = (
          (await sql(
            `insert into connections (company_id, name, kind, provider, created_at, updated_at)
          values (?, 'Main', 'chatapp', 'sandbox', now(), now()) returning id`,
            [company.id],
          )) as Array<{ id: number }>
        )[0]!;
        const contacts = new MikroOrmContacts(orm);
        const alice = await contacts.add(contactDraft(company.id, '5511900000001'));
        const bruno = await contacts.add(contactDraft(company.id, '5511900000002'));
        const tickets = new MikroOrmTickets(orm);
        const at = (minutes: number) => new Date(Date.UTC(2026, 2, 1, 12, minutes));
        const ticket = async (contactId: number, fields: object) => {
          const { ticket: t } = await tickets.getOrCreateActive({
            ...ticketDraft({ companyId: company.id, contactId, connectionId: connection.id, uuid: crypto.randomUUID() }),
            createdAt: at(0),
            updatedAt: at(0),
          });
          await tickets.update({ ...t, ...fields });
          return t.id;
        };
        ids.closed = await ticket(alice.id, { status: 'closed', userId: ana.id, closedAt: at(30) });
        ids.open = await ticket(bruno.id, { status: 'open', userId: ana.id });
        ids.again = await ticket(alice.id, { status: 'pending' });
        const logs = new MikroOrmTicketLogs(orm);
        await logs.add({ companyId: company.id, ticketId: ids.closed, userId: ana.id, type: 'accept', payload: {}, createdAt: at(4) });
        await logs.add({ companyId: company.id, ticketId: ids.closed, userId: ana.id, type: 'close', payload: { rating: 4 }, createdAt: at(30) });
        for (const [ticketId, minute, userId, fromMe] of [
          [ids.closed, 1, null, false],
          [ids.closed, 6, ana.id, true],
          [ids.open, 9, ana.id, true],
        ] as const) {
          await sql(
            `insert into messages (id, company_id, ticket_id, contact_id, connection_id, from_me, body, status, user_id, created_at, updated_at)
            values (?, ?, ?, null, ?, ?, 'x', 'sent', ?, ?, ?)`,
            [crypto.randomUUID(), company.id, ticketId, connection.id, fromMe, userId, at(minute), at(minute)],
          );
        }
      });
    } finally {
      await before.close();
    }
    const after = await openDatabase({ pglite });
    try {
      await after.migrate();
      const rows: Array<Record<string, unknown>> = await after.orm.em.fork().getConnection().execute('select * from ticket_cycles order by ticket_id');
      const by = Object.fromEntries(rows.map((r) => [Number(r.ticket_id), r])) as Record<number, Record<string, any>>;
      const iso = (v: unknown) => (v === null ? null : new Date(v as string).toISOString());
      expect(rows).to.have.length(3);
      const fields = (ticketId: number | undefined) => {
        const r = by[ticketId!]!;
        return [iso(r.accepted_at), iso(r.first_response_at), iso(r.closed_at), r.rating === null ? null : Number(r.rating), r.first_contact];
      };
      expect(fields(ids.closed)).to.deep.equal(['2026-03-01T12:04:00.000Z', '2026-03-01T12:06:00.000Z', '2026-03-01T12:30:00.000Z', 4, true]);
      expect(fields(ids.open)).to.deep.equal(['2026-03-01T12:09:00.000Z', '2026-03-01T12:09:00.000Z', null, null, true]);
      expect(fields(ids.again)).to.deep.equal([null, null, null, null, false]);
    } finally {
      await after.close();
      await pglite.close();
    }
  });
});
