import { expect } from 'chai';
import { RequestContext } from '@mikro-orm/core';
import type { Knex } from '@mikro-orm/knex';
import type { SqlEntityManager } from '@mikro-orm/postgresql';
import { companyFixture, planFixture } from '@servicedesk/core/contracts/repositories-contract';
import { connectionFixture, contactDraft, ticketDraft } from '@servicedesk/core/contracts/messaging-contract';
import { integrationUrl } from '@servicedesk/core/contracts/integration-env';
import {
  MikroOrmCompanies,
  MikroOrmConnections,
  MikroOrmContacts,
  MikroOrmMessageContextReads,
  MikroOrmMessages,
  MikroOrmPlans,
  MikroOrmTickets,
  type Database,
} from '../src/index.js';
import { openPostgresDatabase, truncate } from './support/databases.js';

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Index Cond'?: string;
  'Actual Loops'?: number;
  Plans?: PlanNode[];
}

/** Every node of the plan. */
const nodes = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodes)];

/** Every scan of `relations` in the plan, as "relation via index: condition" (or "relation: seq scan"). */
function scans(node: PlanNode, relations: readonly string[], out: string[] = []): string[] {
  if (node['Node Type'].includes('Scan') && node['Relation Name'] && relations.includes(node['Relation Name'])) {
    out.push(
      node['Index Name'] ? `${node['Relation Name']} via ${node['Index Name']}: ${node['Index Cond'] ?? ''}` : `${node['Relation Name']}: ${node['Node Type']}`,
    );
  }
  for (const child of node.Plans ?? []) scans(child, relations, out);
  return out;
}

/**
 * A small company beside a large one, grown since the last ANALYZE (a new tenant): the statistics
 * think it has almost no rows. The write path's single-row statements must still find their row
 * by its key, never by scanning the company's rows through a company-leading index (which reads
 * every row the company has, for each message).
 */
describe('Single-row statements of the write path keep to their keys when a company outgrew its statistics (PostgreSQL)', function () {
  this.timeout(60_000);
  let db: Database;
  let sent: string[] | null = null;
  const TABLES = ['tickets', 'messages', 'contacts'];

  before(async function () {
    if (!integrationUrl('TEST_DATABASE_URL')) return this.skip();
    db = await openPostgresDatabase();
    const knex = (db.orm.em.getConnection() as unknown as { getKnex(): Knex }).getKnex();
    knex.on('query', (q: { sql: string }) => {
      sent?.push(q.sql);
    });
  });
  after(async () => {
    await db?.close();
  });

  it('finds contacts, tickets and messages, saves tickets, reads message context and advances deliveries by key', async () => {
    await truncate(db);
    const em = db.orm.em.fork() as unknown as SqlEntityManager;
    const plans = new MikroOrmPlans(db.orm);
    const companies = new MikroOrmCompanies(db.orm);
    const connections = new MikroOrmConnections(db.orm);
    const contacts = new MikroOrmContacts(db.orm);
    const tickets = new MikroOrmTickets(db.orm);
    const messages = new MikroOrmMessages(db.orm);
    const contexts = new MikroOrmMessageContextReads(db.orm);
    const { big, small, bigLine, smallLine } = await RequestContext.create(db.orm.em, async () => {
      const plan = await plans.add(planFixture('P'));
      const big = (await companies.add(companyFixture(plan.id, 'Big'))).id;
      const small = (await companies.add(companyFixture(plan.id, 'Small'))).id;
      return {
        big,
        small,
        bigLine: (await connections.add(connectionFixture(big, 'Big line'))).id,
        smallLine: (await connections.add(connectionFixture(small, 'Small line'))).id,
      };
    });
    const grow = async (companyId: number, connectionId: number, n: number, from: number) => {
      await em.execute(`insert into contacts (company_id, name, number, created_at, updated_at)
        select ${companyId}, 'c' || g, '55119' || lpad(g::text, 8, '0'), now(), now() from generate_series(${from}, ${from + n - 1}) g`);
      await em.execute(`insert into tickets (uuid, company_id, contact_id, connection_id, status, unread_messages, last_message, is_group, created_at, updated_at)
        select gen_random_uuid(), ${companyId}, c.id, ${connectionId}, 'closed', 0, '', false, now(), now() from contacts c
         where c.company_id = ${companyId} and c.number between '55119' || lpad('${from}', 8, '0') and '55119' || lpad('${from + n - 1}', 8, '0')`);
      await em.execute(`insert into messages (id, company_id, ticket_id, contact_id, connection_id, from_me, body, status, is_private, created_at, updated_at)
        select gen_random_uuid(), t.company_id, t.id, t.contact_id, t.connection_id, true, 'm', 'read', false, now(), now()
          from tickets t, generate_series(1, 3) where t.company_id = ${companyId}`);
    };
    await grow(big, bigLine, 20_000, 1);
    await em.execute('analyze contacts; analyze tickets; analyze messages; analyze contact_identifiers');
    await grow(small, smallLine, 3_000, 100_000);

    const { ticket, contact } = await RequestContext.create(db.orm.em, async () => {
      const contact = await contacts.getOrCreate(contactDraft(small, '5511999990001'));
      const { ticket } = await tickets.getOrCreateActive(
        ticketDraft({ companyId: small, contactId: contact.id, connectionId: smallLine, uuid: '00000000-0000-4000-8000-000000000001' }),
      );
      return { ticket, contact };
    });
    const message = (await em.execute<Array<{ id: string }>>(`select id from messages where company_id = ${small} limit 1`))[0]!.id;

    sent = [];
    await RequestContext.create(db.orm.em, async () => {
      expect((await contacts.findByNumber(small, '5511999990001'))?.id).to.equal(contact.id);
      await tickets.update({ ...ticket, lastMessage: 'hello', unreadMessages: 1 });
      const read = await contexts.ticketsAndContacts(small, [ticket.id], [contact.id]);
      expect(read.tickets.map((t) => t.id)).to.deep.equal([ticket.id]);
      expect(await messages.advanceStatuses([{ companyId: small, target: { id: message }, status: 'read', at: new Date() }])).to.deep.equal([null]);
      expect((await tickets.findById(small, ticket.id))?.lastMessage).to.equal('hello');
      expect((await messages.findById(small, message))?.id).to.equal(message);
      expect((await contacts.findById(small, contact.id))?.id).to.equal(contact.id);
      expect((await contacts.findByIds(small, [contact.id])).map((c) => c.id)).to.deep.equal([contact.id]);
      expect(await tickets.findById(big, ticket.id)).to.equal(null);
      // Another company's id is not found through these statements.
      expect(await contacts.findByNumber(big, '5511999990001')).to.equal(null);
      expect((await contexts.ticketsAndContacts(big, [ticket.id], [contact.id])).tickets).to.deep.equal([]);
    });
    const statements = sent;
    sent = null;
    expect(statements.length).to.be.at.least(11);

    for (const sql of statements) {
      const [row] = await em.execute<Array<{ 'QUERY PLAN': PlanNode[] | string }>>(`explain (format json) ${sql}`);
      const plan = row!['QUERY PLAN'];
      const root = (typeof plan === 'string' ? JSON.parse(plan) : plan)[0] as { Plan: PlanNode };
      for (const scan of scans(root.Plan, TABLES)) {
        // By key: the primary key, or the contact's (company, number) / the message's (connection, provider id) unique keys.
        expect(scan, sql).to.match(/via (tickets_pkey|messages_pkey|contacts_pkey|contacts_company_id_number_key): .*(\bid\b|number)/);
      }
    }
  });

  it('fails stale sends reading the pending ones once and each stale one by key, however many sends are pending beyond what the statistics saw', async () => {
    await truncate(db);
    const em = db.orm.em.fork() as unknown as SqlEntityManager;
    const messages = new MikroOrmMessages(db.orm);
    const { ticket } = await RequestContext.create(db.orm.em, async () => {
      const plan = await new MikroOrmPlans(db.orm).add(planFixture('P'));
      const company = (await new MikroOrmCompanies(db.orm).add(companyFixture(plan.id, 'One'))).id;
      const line = (await new MikroOrmConnections(db.orm).add(connectionFixture(company, 'Line'))).id;
      const contact = await new MikroOrmContacts(db.orm).getOrCreate(contactDraft(company, '5511999990001'));
      return new MikroOrmTickets(db.orm).getOrCreateActive(
        ticketDraft({ companyId: company, contactId: contact.id, connectionId: line, uuid: '00000000-0000-4000-8000-000000000002' }),
      );
    });
    await em.execute('analyze messages');
    // A send backlog: 2,000 pending, the oldest 300 past the deadline.
    await em.execute(`insert into messages (id, company_id, ticket_id, contact_id, connection_id, from_me, body, status, is_private, created_at, updated_at)
      select gen_random_uuid(), ${ticket.companyId}, ${ticket.id}, ${ticket.contactId}, ${ticket.connectionId}, true, 'm', 'pending', false,
             now() - (case when g <= 300 then interval '1 hour' else interval '1 second' end) - g * interval '1 millisecond', now()
        from generate_series(1, 2000) g`);
    const before = new Date(Date.now() - 10 * 60_000);

    sent = [];
    const failed = await RequestContext.create(db.orm.em, () => messages.failStaleSends(before, 'ERR_SEND_DEADLINE_EXCEEDED', new Date(), 500));
    const [statement] = sent;
    sent = null;
    expect(failed).to.have.length(300);
    expect(failed.every((m) => m.status === 'failed' && m.failureReason === 'ERR_SEND_DEADLINE_EXCEEDED')).to.equal(true);

    // The same statement again, measured (and rolled back): each scan of the pending sends runs once.
    await em.execute(`update messages set status = 'pending', failure_reason = null where status = 'failed'`);
    let checked = false;
    await em
      .transactional(async (tx) => {
        const [row] = await tx.execute<Array<{ 'QUERY PLAN': Array<{ Plan: PlanNode }> | string }>>(`explain (analyze, format json) ${statement}`);
        const plan = row!['QUERY PLAN'];
        const root = (typeof plan === 'string' ? JSON.parse(plan) : plan)[0] as { Plan: PlanNode };
        const pendingScans = nodes(root.Plan).filter(
          (n) => n['Index Name'] === 'messages_pending_created_idx' || (n['Node Type'] === 'Seq Scan' && n['Relation Name'] === 'messages'),
        );
        // Once, for the stale ids; the rows to fail are then reached by their key, not by scanning
        // every pending send again beside the stale list (a nested loop of pending × stale).
        expect(pendingScans, JSON.stringify(root.Plan)).to.have.length(1);
        expect(pendingScans[0]!['Actual Loops'], JSON.stringify(root.Plan)).to.equal(1);
        expect(
          nodes(root.Plan).some((n) => n['Index Name'] === 'messages_pkey'),
          JSON.stringify(root.Plan),
        ).to.equal(true);
        checked = true;
        throw new Error('rollback');
      })
      .catch((err: Error) => {
        if (err.message !== 'rollback') throw err;
      });
    expect(checked).to.equal(true);
  });
});
