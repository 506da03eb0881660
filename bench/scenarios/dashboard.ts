import { ratioOfP99, ratioOfThroughput, both, type Ctx, type Row, type Scenario } from '../lib/context.js';
import { api } from '../lib/http.js';
import { cannon, closedLoop, type PhaseResult } from '../lib/load.js';
import { uniqueToken } from '../lib/setup.js';
import { now } from '../lib/stats.js';
import { seedTenant } from '../lib/seed.js';
import type { Sql } from '../lib/sql.js';

const CONCURRENCY = 1;
/** The company's zone (the `timezone` setting's default). */
const ZONE = 'America/Sao_Paulo';
const URL_PATH = '/dashboard?days=30';

interface State {
  companyId: number;
  adminToken: string;
  connectionId: number;
  userIds: number[];
  expectedTickets: number;
  seedMs: number;
  baseline?: PhaseResult;
  plan?: string;
}
let state: State | undefined;

/**
 * Attendance cycles for the generated tenant's tickets, as the ticket changes would have written
 * them: one per ticket, started when it was created; taken and answered minutes later unless it is
 * still pending; closed when the ticket was; a third of the closed ones rated; every seventh ticket
 * started by us, every eleventh transferred once.
 */
export function seedCycles(companyId: number): string {
  return `
    insert into ticket_cycles (company_id, ticket_id, contact_id, connection_id, queue_id, user_id, is_group, outbound, reopened, first_contact,
                               started_at, accepted_at, first_response_at, closed_at, rating, transfers, updated_at)
    select t.company_id, t.id, t.contact_id, t.connection_id, null, t.user_id, false, t.id % 7 = 0, false, true,
           t.created_at,
           case when t.status <> 'pending' then t.created_at + (1 + t.id % 17) * interval '1 minute' end,
           case when t.status <> 'pending' then t.created_at + (2 + t.id % 13) * interval '1 minute' end,
           t.closed_at,
           case when t.status = 'closed' and t.id % 3 = 0 then 1 + t.id % 5 end,
           (t.id % 11 = 0)::int,
           t.updated_at
    from tickets t where t.company_id = ${companyId};
    analyze ticket_cycles;`;
}

/**
 * What `GET /dashboard?days=30` answers, in one statement straight from the cycles (no
 * pre-aggregation): the last 30 days on the company's clock, per operator and in all (grouping
 * sets), and the period's tickets open now. Times are means in minutes.
 */
export const DASHBOARD_SQL = `
  with bounds as (
    select (date_trunc('day', now() at time zone '${ZONE}') - interval '29 days') at time zone '${ZONE}' as f,
           (date_trunc('day', now() at time zone '${ZONE}') + interval '1 day') at time zone '${ZONE}' as t
  ), c as (
    select c.* from ticket_cycles c, bounds b where c.company_id = $1 and c.started_at >= b.f and c.started_at < b.t
  ), figures as (
    select user_id, grouping(user_id) as total, count(*) as tickets, count(*) filter (where closed_at is not null) as closed,
           count(*) filter (where outbound) as outbound, count(*) filter (where first_contact and not is_group) as leads,
           avg(extract(epoch from accepted_at - started_at) / 60) filter (where not outbound and accepted_at is not null) as wait,
           avg(extract(epoch from closed_at - accepted_at) / 60) filter (where closed_at is not null and accepted_at is not null) as handle,
           avg(extract(epoch from first_response_at - started_at) / 60) filter (where not outbound and first_response_at is not null) as first_response,
           avg(extract(epoch from closed_at - started_at) / 60) filter (where closed_at is not null) as resolution,
           count(rating) as rated, avg(rating) as rating, count(*) filter (where rating = 5) as promoters, count(*) filter (where rating <= 3) as detractors,
           count(*) filter (where closed_at is null and user_id is null) as waiting, count(*) filter (where closed_at is null and user_id is not null) as attended
    from c group by grouping sets ((user_id), ())
  )
  select u.id, u.name, u.online, f.*, t.tickets as total_tickets, t.closed as total_closed, t.waiting as total_waiting, t.attended as total_attended,
         t.wait as total_wait, t.handle as total_handle, t.first_response as total_first_response, t.rated as total_rated
  from users u
  left join figures f on f.user_id = u.id and f.total = 0
  cross join (select * from figures where total = 1) t
  where u.company_id = $1
  order by f.tickets desc nulls last, u.name`;

/**
 * `GET /dashboard` for the last 30 days as the tenant's admin, on the generated tenant (100,000
 * tickets, fewer with --quick) after `POST /dashboard/refresh-views` built its figures: computed
 * afresh (`Cache-Control: no-cache`: the pre-aggregated rows, the live counts of what is open,
 * the operators) and from the cache; beside the equivalent single SQL statement over the cycles.
 */
export const dashboard: Scenario = {
  name: 'dashboard',
  async setup(ctx: Ctx) {
    const { target } = ctx;
    const superAdmin = api(target.baseUrl, target.token);
    const plans = await superAdmin.get<Array<{ id: number }>>('/plans/all');
    const email = `admin@bench-dashboard-${Date.now()}.test`;
    const created = await superAdmin.post<{ company: { id: number } }>('/companies', {
      name: 'Bench dashboard tenant',
      email,
      planId: plans[0]!.id,
      password: 'bench-dashboard-1',
    });
    const companyId = created.company.id;
    const adminToken = (await api(target.baseUrl).post<{ token: string }>('/auth/login', { email, password: 'bench-dashboard-1' })).token;
    const admin = api(target.baseUrl, adminToken);
    const userIds: number[] = [];
    for (let i = 1; i <= 5; i++) {
      const u = await admin.post<{ id: number }>('/users', {
        name: `Agent ${i}`,
        email: `agent${i}-${companyId}@bench-dashboard.test`,
        password: 'bench-agent-1',
        profile: 'user',
      });
      userIds.push(u.id);
    }
    const connection = await admin.post<{ id: number }>('/chatapp/', { name: 'Bench dashboard line', provider: 'sandbox', token: uniqueToken('dashboard') });
    state = { companyId, adminToken, connectionId: connection.id, userIds, expectedTickets: 0, seedMs: 0 };
  },

  async offline(ctx: Ctx, sql: Sql) {
    const s = state!;
    const { settings } = ctx;
    const t0 = now();
    // The dashboard reads no message: one per ticket keeps the seeding short.
    await seedTenant(sql, { companyId: s.companyId, connectionId: s.connectionId, userIds: s.userIds, tickets: settings.tickets, messagesPerTicket: 1 });
    await sql.exec(seedCycles(s.companyId));
    s.seedMs = now() - t0;
    const rows = await sql.query<{ total_tickets: string | null }>(DASHBOARD_SQL, [s.companyId]);
    s.expectedTickets = Number(rows[0]?.total_tickets ?? 0);
    ctx.log(
      `  seeded ${settings.tickets.toLocaleString('en')} tickets and their cycles in ${(s.seedMs / 1000).toFixed(1)} s (${s.expectedTickets} started in the last 30 days)`,
    );
    const plan = await sql.query<Record<string, string>>(`explain (analyze, buffers) ${DASHBOARD_SQL}`, [s.companyId]);
    s.plan = plan.map((r) => Object.values(r)[0]).join('\n');
    for (let i = 0; i < 20; i++) await sql.query(DASHBOARD_SQL, [s.companyId]);
    s.baseline = await closedLoop({
      concurrency: CONCURRENCY,
      durationMs: settings.phaseMs,
      task: async () => (await sql.query(DASHBOARD_SQL, [s.companyId])).length === s.userIds.length + 1,
    });
  },

  async run(ctx: Ctx): Promise<Row[]> {
    const { target, settings } = ctx;
    const s = state!;
    const admin = api(target.baseUrl, s.adminToken);
    const t0 = now();
    const refreshed = await admin.post<{ days: number }>('/dashboard/refresh-views');
    const refreshMs = now() - t0;
    const check = await admin.get<{ counters: { tickets: number }; attendants: unknown[] }>(URL_PATH);
    if (check.counters.tickets !== s.expectedTickets || check.attendants.length !== s.userIds.length + 1) {
      throw new Error(
        `GET ${URL_PATH} counted ${check.counters.tickets} tickets and ${check.attendants.length} operators, the SQL ${s.expectedTickets} and ${s.userIds.length + 1}`,
      );
    }
    const headers = { authorization: `Bearer ${s.adminToken}` };
    const uncachedHeaders = { ...headers, 'cache-control': 'no-cache' };
    const durationS = Math.round(settings.phaseMs / 1000);
    await cannon({ url: `${target.baseUrl}${URL_PATH}`, connections: CONCURRENCY, durationS: 1, headers: uncachedHeaders });
    const fresh = await cannon({ url: `${target.baseUrl}${URL_PATH}`, connections: CONCURRENCY, durationS, headers: uncachedHeaders });
    const cached = await cannon({ url: `${target.baseUrl}${URL_PATH}`, connections: CONCURRENCY, durationS, headers });
    const base = s.baseline!;
    const scale = `${settings.tickets.toLocaleString('en')} tickets`;
    const baseline = {
      what: `the equivalent single SQL statement over the cycles (${target.kind === 'embedded' ? 'PGlite opened in the bench process' : 'pg driver'})`,
      load: base.load,
      throughput: base.throughput,
      unit: 'queries/s',
      latency: base.latency,
      errors: base.errors,
    };
    const notes = [
      `tenant of ${scale}${settings.quick ? ' (scaled down by --quick; the issue asks for 100,000)' : ''}, ${s.expectedTickets.toLocaleString('en')} started in the 30 days, seeded by SQL in ${(s.seedMs / 1000).toFixed(0)} s`,
      `POST /dashboard/refresh-views rebuilt ${refreshed.days} days of figures in ${(refreshMs / 1000).toFixed(2)} s`,
    ];
    return [
      {
        scenario: 'dashboard',
        result: {
          what: `GET ${URL_PATH} as the admin, computed afresh (Cache-Control: no-cache)`,
          load: fresh.load,
          throughput: fresh.throughput,
          unit: 'req/s',
          latency: fresh.latency,
          errors: fresh.errors,
        },
        baseline,
        ratio: both(ratioOfThroughput(fresh.throughput, base.throughput), ratioOfP99(fresh.latency, base.latency)),
        target: 'p99 < 50 ms on PostgreSQL',
        met: target.kind === 'postgres' ? fresh.errors === 0 && fresh.latency.p99 < 50 : null,
        notes,
        details: { plan: s.plan, expectedTickets: s.expectedTickets, refreshMs },
      },
      {
        scenario: 'dashboard (cached)',
        result: {
          what: `GET ${URL_PATH} as the admin, from the cache`,
          load: cached.load,
          throughput: cached.throughput,
          unit: 'req/s',
          latency: cached.latency,
          errors: cached.errors,
        },
        baseline,
        ratio: both(ratioOfThroughput(cached.throughput, base.throughput), ratioOfP99(cached.latency, base.latency)),
        target: 'none (the cached path, for comparison)',
        met: null,
      },
    ];
  },
};
