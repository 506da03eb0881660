import { expect } from 'chai';
import { createApplication, type Actor, type CorePorts, type InboundMessageEvent } from '../../src/index.js';
import type { FixedClock } from '../../src/testing.js';
import { connectionFixture, contactDraft } from './messaging-contract.js';
import { queueFixture } from './queues-contract.js';
import { companyFixture, planFixture, userFixture } from './repositories-contract.js';
import { tagFixture } from './tags-contract.js';

/** A full set of ports (persistence on the adapter under test, the rest in memory) with a settable clock. */
export interface DashboardFixture {
  readonly ports: CorePorts & { readonly clock: FixedClock };
}

const ZONE = 'America/New_York';
const MIN = 60_000;

/**
 * A generated tenant whose figures were computed by hand, in New York (clocks go forward on
 * Sunday 2026-03-08 at 02:00: that day lasts 23 hours). Five contacts write in, one ticket is
 * created by an admin; operators accept, answer, transfer and close:
 *
 * | cycle | starts (UTC)      | local day | what happens (minutes after the start)                           |
 * |-------|-------------------|-----------|------------------------------------------------------------------|
 * | A1    | 03-07 04:30       | 03-06     | Ana answers at 5 (accepts), closes at 30 rated 5                 |
 * | B     | 03-08 04:30       | 03-07     | Bia accepts at 10, answers at 12, hands to Ana at 20; Ana closes at 60 rated 3 |
 * | C     | 03-09 03:30       | 03-08     | nobody: still pending                                            |
 * | D     | 03-09 04:30       | 03-09     | Ana accepts at 2: still open (00:30 local: a fixed -5 offset would say 03-08) |
 * | A2    | 03-09 15:00       | 03-09     | the same contact again: Bia answers at 3, closes at 4            |
 * | E     | 03-09 18:00       | 03-09     | the admin opens a ticket (ours), closes it at 15                 |
 */
export async function dashboardTenant(f: DashboardFixture) {
  const { ports } = f;
  const app = createApplication(ports);
  const setClock = (iso: string) => ports.clock.advance(new Date(iso).getTime() - ports.clock.now().getTime());
  const plan = await ports.plans.add(planFixture('Plan'));
  const acme = await ports.companies.add(companyFixture(plan.id, 'Acme'));
  const other = await ports.companies.add(companyFixture(plan.id, 'Other'));
  await ports.settings.put(acme.id, 'timezone', ZONE, ports.clock.now());
  const user = async (companyId: number, email: string, name: string, extra: Parameters<typeof userFixture>[2] = {}): Promise<Actor> => {
    const u = await ports.users.add(userFixture(companyId, email, { name, ...extra }));
    return { userId: u.id, companyId, profile: u.profile };
  };
  const admin = await user(acme.id, 'ada@acme.test', 'Ada Admin', { profile: 'admin' });
  const ana = await user(acme.id, 'ana@acme.test', 'Ana', { online: true });
  const bia = await user(acme.id, 'bia@acme.test', 'Bia');
  const carla = await user(acme.id, 'carla@acme.test', 'Carla');
  const supervisor = await user(acme.id, 'sara@acme.test', 'Sara', { showDashboard: 'enabled' });
  const otherAdmin = await user(other.id, 'admin@other.test', 'Otto', { profile: 'admin' });
  const connection = await ports.connections.add(connectionFixture(acme.id, 'Main', { status: 'CONNECTED', isDefault: true }));
  const sales = await ports.queues.add(queueFixture(acme.id, 'Sales'));
  const foreignQueue = await ports.queues.add(queueFixture(other.id, 'Theirs'));
  let n = 0;
  const inbound = async (at: string, from: string, name: string) => {
    setClock(at);
    const event: InboundMessageEvent = {
      type: 'InboundMessage',
      companyId: acme.id,
      chatappId: connection.id,
      providerMessageId: `p-${++n}`,
      from,
      senderName: name,
      body: 'Olá',
      isGroup: false,
      at,
    };
    const routed = await app.conversations.routeInbound.execute(event);
    return routed.ticketId!;
  };
  const after = (start: string, minutes: number) => setClock(new Date(new Date(start).getTime() + minutes * MIN).toISOString());
  const reply = (actor: Actor, ticketId: number) => app.conversations.sendTicketMessage.execute({ actor, ticketId, body: 'Oi, tudo bem?' });
  const update = (actor: Actor, ticketId: number, change: { status?: 'open' | 'closed'; userId?: number; rating?: number }) =>
    app.tickets.updateTicket.execute({ actor, ticketId, ...change });

  const A1 = '2026-03-07T04:30:00.000Z';
  const a1 = await inbound(A1, '5511900000001', 'Alice');
  after(A1, 5);
  await reply(ana, a1);
  after(A1, 30);
  await update(ana, a1, { status: 'closed', rating: 5 });

  const B = '2026-03-08T04:30:00.000Z';
  const b = await inbound(B, '5511900000002', 'Bruno');
  after(B, 10);
  await update(bia, b, { status: 'open' });
  after(B, 12);
  await reply(bia, b);
  after(B, 20);
  await update(bia, b, { userId: ana.userId });
  after(B, 60);
  await update(ana, b, { status: 'closed', rating: 3 });

  const c = await inbound('2026-03-09T03:30:00.000Z', '5511900000003', 'Caio');

  const D = '2026-03-09T04:30:00.000Z';
  const d = await inbound(D, '5511900000004', 'Davi');
  after(D, 2);
  await update(ana, d, { status: 'open' });

  const A2 = '2026-03-09T15:00:00.000Z';
  const a2 = await inbound(A2, '5511900000001', 'Alice');
  after(A2, 3);
  await reply(bia, a2);
  after(A2, 4);
  await update(bia, a2, { status: 'closed' });

  const E = '2026-03-09T18:00:00.000Z';
  const eva = await ports.contacts.getOrCreate(contactDraft(acme.id, '5521900000005', { name: 'Eva' }));
  setClock(E);
  const e = (await app.tickets.createTicket.execute({ actor: admin, contactId: eva.id, status: 'open' })).id;
  after(E, 15);
  await update(admin, e, { status: 'closed' });

  return {
    app,
    ports,
    acme,
    other,
    admin,
    ana,
    bia,
    carla,
    supervisor,
    otherAdmin,
    connection,
    sales,
    foreignQueue,
    tickets: { a1, b, c, d, a2, e },
    eva,
    setClock,
  };
}

export type DashboardTenant = Awaited<ReturnType<typeof dashboardTenant>>;

const code = (p: Promise<unknown>) =>
  p.then(
    () => 'resolved',
    (e: { code?: string }) => e.code,
  );
const RANGE = { dateFrom: '2026-03-06', dateTo: '2026-03-09' };

/** One suite for every adapter set of the dashboards: the figures of the hand-computed tenant. */
export function describeDashboardsContract(name: string, make: () => Promise<DashboardFixture>) {
  describe(`Dashboards contract: ${name}`, () => {
    let t: DashboardTenant;
    // In the test body, not a hook: adapters that need a unit of work get one around each test.
    const given = async () => {
      t = await dashboardTenant(await make());
      t.setClock('2026-03-10T12:00:00.000Z');
      await t.app.dashboards.refreshFigures.execute(t.acme.id);
    };

    it('counts, times and ratings of the period match the hand-computed ones (decimals, no integer division)', async () => {
      await given();
      const answer = await t.app.dashboards.showDashboard.execute({ actor: t.admin, ...RANGE });
      expect(answer.period).to.deep.equal({ dateFrom: '2026-03-06', dateTo: '2026-03-09', timeZone: ZONE });
      expect(answer.counters).to.deep.equal({
        tickets: 6,
        avgSupportTime: 22.75,
        avgWaitTime: 5,
        avgFirstResponseTime: 6.67,
        avgResolutionTime: 27.25,
        supportFinished: 4,
        supportHappening: 1,
        supportPending: 1,
        supportGroups: 0,
        leads: 5,
        activeTickets: 1,
        passiveTickets: 5,
        reopened: 0,
        transfers: 1,
        unattendedClosed: 0,
        waitRating: 0,
        withoutRating: 2,
        withRating: 2,
        percRating: 50,
        avgRating: 4,
        npsPromotersPerc: 50,
        npsPassivePerc: 0,
        npsDetractorsPerc: 50,
        npsScore: 0,
      });
      expect(answer.refreshedAt).to.equal('2026-03-10T12:00:00.000Z');
    });

    it('per operator: tickets they hold, their waits, handling, first responses and ratings; every operator listed', async () => {
      await given();
      const { attendants } = await t.app.dashboards.showDashboard.execute({ actor: t.admin, ...RANGE });
      const by = Object.fromEntries(attendants.map((a) => [a.name, a]));
      expect(attendants.map((a) => a.name)).to.deep.equal(['Ana', 'Ada Admin', 'Bia', 'Carla', 'Sara']);
      expect(by.Ana).to.deep.include({
        tickets: 3,
        closed: 2,
        avgWaitTime: 5.67,
        avgSupportTime: 37.5,
        avgFirstResponseTime: 8.5,
        rating: 4,
        countRating: 2,
        online: true,
      });
      expect(by.Bia).to.deep.include({ tickets: 1, closed: 1, avgWaitTime: 3, avgSupportTime: 1, avgFirstResponseTime: 3, rating: 0, countRating: 0 });
      expect(by['Ada Admin']).to.deep.include({ tickets: 1, closed: 1, avgWaitTime: 0, avgSupportTime: 15, avgFirstResponseTime: 0 });
      expect(by.Carla).to.deep.include({ tickets: 0, avgWaitTime: 0, rating: 0 });
      const chart = await t.app.dashboards.ticketsByUser.execute({ actor: t.admin, ...RANGE });
      expect(chart.data.map((u) => [u.nome, u.quantidade])).to.deep.equal([
        ['Ana', 3],
        ['Ada Admin', 1],
        ['Bia', 1],
        ['Carla', 0],
        ['Sara', 0],
      ]);
    });

    it("cuts days on the company's clock across the change to daylight time, in calendar order", async () => {
      await given();
      const days = await t.app.dashboards.ticketsByDay.execute({ actor: t.admin, ...RANGE });
      expect(days).to.deep.equal({
        count: 6,
        data: [
          { data: '06/03/2026', day: '2026-03-06', total: 1 },
          { data: '07/03/2026', day: '2026-03-07', total: 1 },
          { data: '08/03/2026', day: '2026-03-08', total: 1 },
          { data: '09/03/2026', day: '2026-03-09', total: 3 },
        ],
      });
      // The 23-hour day: Caio wrote at 23:30 daylight time.
      const sunday = await t.app.dashboards.ticketsByDay.execute({ actor: t.admin, dateFrom: '2026-03-08', dateTo: '2026-03-08' });
      expect(sunday.count).to.equal(1);
      expect(sunday.data.filter((h) => 'horario' in h && h.total > 0)).to.deep.equal([{ horario: '23', total: 1 }]);
      const monday = await t.app.dashboards.ticketsByDay.execute({ actor: t.admin, dateFrom: '2026-03-09', dateTo: '2026-03-09' });
      expect(monday.data).to.have.length(24);
      expect(monday.data.filter((h) => h.total > 0)).to.deep.equal([
        { horario: '00', total: 1 },
        { horario: '11', total: 1 },
        { horario: '14', total: 1 },
      ]);
      const monthEnd = await t.app.dashboards.ticketsByDay.execute({ actor: t.admin, dateFrom: '2026-02-27', dateTo: '2026-03-02' });
      expect(monthEnd.data.map((d) => ('data' in d ? d.data : ''))).to.deep.equal(['27/02/2026', '28/02/2026', '01/03/2026', '02/03/2026']);
      const sundayOnly = await t.app.dashboards.showDashboard.execute({ actor: t.admin, dateFrom: '2026-03-08', dateTo: '2026-03-08' });
      expect(sundayOnly.counters).to.deep.include({ tickets: 1, supportPending: 1, supportHappening: 0, supportFinished: 0, leads: 1 });
    });

    it('extended metrics: totals, and a series with every bucket of the range (ISO weeks from their Monday)', async () => {
      await given();
      const m = await t.app.dashboards.extendedMetrics.execute({ actor: t.admin, ...RANGE, granularity: 'week' });
      expect(m.totals).to.deep.include({ tickets: 6, closed: 4, resolutionRate: 66.67, avgFirstResponseTime: 6.67, avgResolutionTime: 27.25, transfers: 1 });
      expect(m.totals.ratings).to.deep.equal({ count: 2, average: 4, promoters: 1, passives: 0, detractors: 1, nps: 0 });
      expect(m.series.map((s) => [s.period, s.tickets])).to.deep.equal([
        ['2026-03-02', 3],
        ['2026-03-09', 3],
      ]);
      const daily = await t.app.dashboards.extendedMetrics.execute({ actor: t.admin, ...RANGE });
      expect(daily.series.map((s) => s.tickets)).to.deep.equal([1, 1, 1, 3]);
    });

    it('filters by queue and operator; an operator without the dashboard sees only their own figures', async () => {
      await given();
      const onlyBia = await t.app.dashboards.showDashboard.execute({ actor: t.admin, ...RANGE, userIds: [t.bia.userId] });
      expect(onlyBia.counters).to.deep.include({ tickets: 1, supportFinished: 1, avgFirstResponseTime: 3 });
      expect(onlyBia.attendants.map((a) => a.name)).to.deep.equal(['Bia']);
      const sales = await t.app.dashboards.showDashboard.execute({ actor: t.admin, ...RANGE, queueIds: [t.sales.id] });
      expect(sales.counters).to.deep.include({ tickets: 0, supportPending: 0 });
      const own = await t.app.dashboards.showDashboard.execute({ actor: t.ana, ...RANGE });
      expect(own.counters).to.deep.include({ tickets: 3, supportHappening: 1, supportPending: 0 });
      expect(own.attendants.map((a) => a.name)).to.deep.equal(['Ana']);
      expect(await code(t.app.dashboards.showDashboard.execute({ actor: t.ana, ...RANGE, userIds: [t.bia.userId] }))).to.equal('ERR_NO_PERMISSION');
      const granted = await t.app.dashboards.showDashboard.execute({ actor: t.supervisor, ...RANGE });
      expect(granted.counters.tickets).to.equal(6);
      expect(await code(t.app.dashboards.showDashboard.execute({ actor: t.admin, ...RANGE, queueIds: [t.foreignQueue.id] }))).to.equal('ERR_QUEUE_NOT_FOUND');
      expect(await code(t.app.dashboards.showDashboard.execute({ actor: t.admin, ...RANGE, userIds: [t.otherAdmin.userId] }))).to.equal('ERR_NO_USER_FOUND');
      const theirs = await t.app.dashboards.showDashboard.execute({ actor: t.otherAdmin, ...RANGE });
      expect(theirs.counters.tickets).to.equal(0);
    });

    it('a change after the refresh reaches the figures at the next refresh of the stale companies; a new zone rebuilds them', async () => {
      await given();
      t.setClock('2026-03-10T13:00:00.000Z');
      await t.app.tickets.updateTicket.execute({ actor: t.admin, ticketId: t.tickets.c, status: 'closed' });
      const live = await t.app.dashboards.showDashboard.execute({ actor: t.admin, ...RANGE, fresh: true });
      expect(live.counters).to.deep.include({ supportPending: 0, supportFinished: 4 });
      expect(await t.ports.dashboardFigures.staleCompanies(10, new Date('2026-03-01T00:00:00Z'))).to.deep.equal([t.acme.id]);
      t.setClock('2026-03-10T13:05:00.000Z');
      expect(await t.app.dashboards.refreshStaleFigures.execute()).to.deep.equal({ companies: 1 });
      const refreshed = await t.app.dashboards.showDashboard.execute({ actor: t.admin, ...RANGE });
      // Closed by the admin without anyone taking it: unattended, resolved after 33 h 30 min.
      expect(refreshed.counters).to.deep.include({
        supportFinished: 5,
        unattendedClosed: 1,
        avgResolutionTime: Math.round(((109 + 33.5 * 60) / 5) * 100) / 100,
      });
      t.setClock('2026-03-10T13:10:00.000Z');
      await t.ports.settings.put(t.acme.id, 'timezone', 'UTC', t.ports.clock.now());
      expect(await t.app.dashboards.refreshFigures.execute(t.acme.id)).to.deep.include({ rebuilt: true });
      const utc = await t.app.dashboards.ticketsByDay.execute({ actor: t.admin, dateFrom: '2026-03-06', dateTo: '2026-03-09' });
      expect(utc.data.map((d) => d.total)).to.deep.equal([0, 1, 1, 4]);
    });

    it('answers from the cache until it is cleared or a fresh answer is asked for; only admins clear or refresh', async () => {
      await given();
      const first = await t.app.dashboards.showDashboard.execute({ actor: t.admin, ...RANGE });
      await t.ports.dashboardFigures.clear(t.acme.id);
      expect((await t.app.dashboards.showDashboard.execute({ actor: t.admin, ...RANGE })).counters.tickets).to.equal(first.counters.tickets);
      expect((await t.app.dashboards.showDashboard.execute({ actor: t.admin, ...RANGE, fresh: true })).counters.tickets).to.equal(0);
      await t.app.dashboards.refreshDashboard.execute(t.admin);
      expect((await t.app.dashboards.showDashboard.execute({ actor: t.admin, ...RANGE })).counters.tickets).to.equal(6);
      await t.ports.dashboardFigures.clear(t.acme.id);
      expect(await t.app.dashboards.clearCache.execute(t.admin)).to.deep.equal({ cleared: true });
      expect((await t.app.dashboards.showDashboard.execute({ actor: t.admin, ...RANGE })).counters.tickets).to.equal(0);
      expect(await code(t.app.dashboards.refreshDashboard.execute(t.admin))).to.equal('ERR_DASHBOARD_REFRESH_TOO_SOON');
      expect(await code(t.app.dashboards.clearCache.execute(t.supervisor))).to.equal('ERR_NO_PERMISSION');
      expect(await code(t.app.dashboards.refreshDashboard.execute(t.ana))).to.equal('ERR_NO_PERMISSION');
    });

    it('refuses impossible or too long ranges', async () => {
      await given();
      const show = (q: object) => code(t.app.dashboards.showDashboard.execute({ actor: t.admin, ...q }));
      expect(await show({ dateFrom: '2026-02-30' })).to.equal('ERR_INVALID_DATE');
      expect(await show({ dateFrom: '2026-03-09', dateTo: '2026-03-01' })).to.equal('ERR_INVALID_DATE_RANGE');
      expect(await show({ dateFrom: '2020-01-01', dateTo: '2026-03-01' })).to.equal('ERR_DATE_RANGE_TOO_LONG');
      expect(await show({ days: 1000 })).to.equal('ERR_DATE_RANGE_TOO_LONG');
      const lastWeek = await t.app.dashboards.showDashboard.execute({ actor: t.admin, days: 7 });
      expect(lastWeek.period).to.deep.include({ dateFrom: '2026-03-04', dateTo: '2026-03-10' });
      expect(lastWeek.counters.tickets).to.equal(6);
    });

    it('top contacts: the most tickets first, the latest as tiebreak', async () => {
      await given();
      const top = await t.app.dashboards.topContacts.execute({ actor: t.admin, ...RANGE, limit: 2 });
      expect(top.map((c) => [c.name, c.tickets])).to.deep.equal([
        ['Alice', 2],
        ['Eva', 1],
      ]);
      expect(top[0]).to.deep.include({ number: '5511900000001', lastInteractionAt: '2026-03-09T15:00:00.000Z' });
    });

    it('the attendance panel lists the tickets open now as each profile may see them', async () => {
      await given();
      const all = await t.app.dashboards.listUsersMoments.execute({ actor: t.admin });
      expect(all.map((x) => x.id).sort((a, b) => a - b)).to.deep.equal([t.tickets.c, t.tickets.d].sort((a, b) => a - b));
      expect(all.find((x) => x.id === t.tickets.d)).to.deep.include({ status: 'open' });
      expect(all.find((x) => x.id === t.tickets.d)!.user).to.deep.include({ name: 'Ana' });
      const pending = await t.app.dashboards.listMoments.execute({ actor: t.admin, status: 'pending', showAll: true });
      expect(pending.map((x) => x.id)).to.deep.equal([t.tickets.c]);
      // Bia holds nothing open: the pending ticket (no queue) only.
      expect((await t.app.dashboards.listMoments.execute({ actor: t.bia })).map((x) => x.id)).to.deep.equal([t.tickets.c]);
      expect(await code(t.app.dashboards.listMoments.execute({ actor: t.admin, queueIds: [t.foreignQueue.id] }))).to.equal('ERR_QUEUE_NOT_FOUND');
    });

    it('contacts report: non-group contacts by creation day, tag, state or area code and search, paged and exported', async () => {
      await given();
      const tag = await t.ports.tags.add(tagFixture(t.acme.id, 'VIP'));
      const alice = (await t.ports.contacts.findByNumber(t.acme.id, '5511900000001'))!;
      await t.ports.tags.addContactTag(t.acme.id, alice.id, tag.id);
      await t.ports.contacts.add(contactDraft(t.acme.id, '120363000000000001', { name: 'Group', isGroup: true }));
      await t.ports.contacts.add(contactDraft(t.acme.id, '5521900000077', { name: '=HYPERLINK("x")', email: 'a,b@x.test' }));
      const page = await t.app.dashboards.contactsReport.execute({ actor: t.admin });
      expect(page.contacts.map((c) => c.name)).to.deep.equal(['Alice', 'Bruno', 'Caio', 'Davi', 'Eva', '=HYPERLINK("x")']);
      expect(page).to.deep.include({ count: 6, hasMore: false });
      expect((await t.app.dashboards.contactsReport.execute({ actor: t.admin, tagIds: [tag.id] })).contacts.map((c) => c.name)).to.deep.equal(['Alice']);
      expect((await t.app.dashboards.contactsReport.execute({ actor: t.admin, ddds: ['RJ'] })).contacts.map((c) => c.name)).to.deep.equal([
        'Eva',
        '=HYPERLINK("x")',
      ]);
      expect((await t.app.dashboards.contactsReport.execute({ actor: t.admin, ddds: ['11'], searchParam: 'dav' })).contacts.map((c) => c.name)).to.deep.equal([
        'Davi',
      ]);
      expect(await code(t.app.dashboards.contactsReport.execute({ actor: t.admin, tagIds: [9999] }))).to.equal('ERR_NO_TAG_FOUND');
      expect(await code(t.app.dashboards.contactsReport.execute({ actor: t.ana }))).to.equal('ERR_NO_PERMISSION');
      let csv = '';
      for await (const chunk of await t.app.dashboards.exportContactsReport.execute({ actor: t.supervisor, ddds: ['RJ'] })) csv += chunk;
      const lines = csv.split('\r\n');
      expect(lines[0]).to.equal('id,name,number,email,createdAt');
      expect(lines[1]).to.match(/^\d+,Eva,5521900000005,,/);
      expect(lines[2]).to.match(/^\d+,"'=HYPERLINK\(""x""\)",5521900000077,"a,b@x.test",/);
      expect(lines).to.have.length(4);
    });
  });
}
