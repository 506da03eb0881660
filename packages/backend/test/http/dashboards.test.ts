import { expect } from 'chai';
import { eventually, sandboxDesk } from '../support/sandbox-conversations.js';
import { requestScope } from '../../src/container.js';
import { client, login, newCompanyWithAdmin, startTestBackend, type TestBackend } from '../support/test-backend.js';

/** A desk with three conversations: Ana answers and closes one (rated 5), Bia takes another, the third waits. */
async function busyDesk(b: TestBackend) {
  const d = await sandboxDesk(b);
  const first = await d.inbound('5511911110001', 'Olá', { senderName: 'Alice' });
  const second = await d.inbound('5511911110002', 'Oi', { senderName: 'Bruno' });
  const third = await d.inbound('5521911110003', 'Bom dia', { senderName: '=cmd|calc' });
  expect((await d.ana.api.post(`/messages/${first.id}`, { body: 'Em que posso ajudar?' })).status).to.equal(200);
  expect((await d.ana.api.put(`/tickets/${first.id}`, { status: 'closed', rating: 5 })).status).to.equal(200);
  expect((await d.bia.api.put(`/tickets/${second.id}`, { status: 'open' })).status).to.equal(200);
  return { ...d, tickets: { first: first.id as number, second: second.id as number, third: third.id as number } };
}

describe('HTTP: dashboards, the attendance panel and the contacts report', () => {
  let b: TestBackend;
  before(async () => {
    b = await startTestBackend();
  });
  after(async () => {
    await b.close();
  });
  beforeEach(async () => {
    await b.reset();
  });

  it("refresh-views then GET /dashboard: the period's counters and operators, with decimals and first response", async () => {
    const d = await busyDesk(b);
    const refreshed = await d.admin.post('/dashboard/refresh-views');
    expect(refreshed.status, JSON.stringify(refreshed.body)).to.equal(200);
    expect(refreshed.body.days).to.be.greaterThan(0);
    const res = await d.admin.get('/dashboard?days=2');
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.counters).to.deep.include({
      tickets: 3,
      supportFinished: 1,
      supportHappening: 1,
      supportPending: 1,
      passiveTickets: 3,
      activeTickets: 0,
      leads: 3,
      withRating: 1,
      withoutRating: 0,
      percRating: 100,
      npsPromotersPerc: 100,
      npsScore: 100,
    });
    // Ana answered within milliseconds (0.00 minutes): the cycle holds the moment itself.
    expect(res.body.counters.avgFirstResponseTime).to.be.a('number');
    const [cycle] = await b.infra.db.orm.em
      .fork()
      .getConnection()
      .execute<Array<Record<string, unknown>>>(
        `select first_response_at, accepted_at, closed_at, rating from ticket_cycles where ticket_id = ${d.tickets.first}`,
      );
    expect(cycle!.first_response_at).to.not.equal(null);
    expect(cycle!.accepted_at).to.not.equal(null);
    expect(Number(cycle!.rating)).to.equal(5);
    expect(res.body.period.timeZone).to.equal('America/Sao_Paulo');
    const ana = res.body.attendants.find((a: { name: string }) => a.name === 'Ana');
    expect(ana).to.deep.include({ tickets: 1, closed: 1, rating: 5, countRating: 1 });
    const users = await d.admin.get('/dashboard/ticketsUsers?initialDate=2000-01-01&finalDate=2001-01-01&companyId=999');
    expect(users.body.data.every((u: { quantidade: number }) => u.quantidade === 0)).to.equal(true);
    const recent = await d.admin.get('/dashboard/ticketsUsers');
    expect(
      recent.body.data
        .filter((u: { quantidade: number }) => u.quantidade > 0)
        .map((u: { nome: string }) => u.nome)
        .sort(),
    ).to.deep.equal(['Ana', 'Bia']);
    const perDay = await d.admin.get('/dashboard/ticketsDay');
    expect(perDay.body.count).to.equal(3);
    expect(perDay.body.data).to.have.length(30);
    const days = perDay.body.data.map((x: { day: string }) => x.day);
    expect(days).to.deep.equal([...days].sort());
    const extended = await d.admin.get('/dashboard/extended-metrics?days=7&granularity=day');
    expect(extended.status).to.equal(200);
    expect(extended.body.totals).to.deep.include({ tickets: 3, closed: 1, resolutionRate: 33.33 });
    const top = await d.admin.get('/dashboard/top-contacts?limit=2');
    expect(top.body).to.have.length(2);
  });

  it('caches answers per company until clear-cache (or a refresh); Cache-Control: no-cache computes again; the job refreshes stale companies', async () => {
    const d = await busyDesk(b);
    // The recurring job runs once right after the backend (re)registers it, then every 5 minutes: let that first run pass.
    const sql = (q: string) => b.infra.db.orm.em.fork().getConnection().execute<Array<Record<string, unknown>>>(q);
    await eventually(
      'the first run of the dashboards job',
      async () => (await sql("select 1 from jobs where name = 'dashboards.refresh' and run_at > now()")).length === 1,
    );
    expect((await d.admin.post('/dashboard/refresh-views')).status).to.equal(200);
    expect((await d.admin.get('/dashboard')).body.counters.tickets).to.equal(3);
    await sql('delete from ticket_day_figures');
    expect((await d.admin.get('/dashboard')).body.counters.tickets, 'the cached answer').to.equal(3);
    expect((await d.admin.get('/dashboard', { 'cache-control': 'no-cache' })).body.counters.tickets).to.equal(0);
    expect((await d.admin.get('/dashboard')).body.counters.tickets, 'the fresh answer, cached in turn').to.equal(0);
    await d.inbound('5511911110004', 'Mais um');
    // The recurring job's work: the company's cycles changed, so today's figures are computed again (and the cached answers dropped).
    expect(await requestScope(b.infra.db)(() => b.app.dashboards.refreshStaleFigures.execute())).to.deep.equal({ companies: 1 });
    expect((await d.admin.get('/dashboard')).body.counters.tickets).to.equal(4);
    await sql('delete from ticket_day_figures');
    expect((await d.admin.get('/dashboard')).body.counters.tickets).to.equal(4);
    expect((await d.ana.api.post('/dashboard/clear-cache')).body).to.deep.equal({ error: 'ERR_NO_PERMISSION' });
    const cleared = await d.admin.post('/dashboard/clear-cache');
    expect([cleared.status, cleared.body]).to.deep.equal([200, { cleared: true }]);
    expect((await d.admin.get('/dashboard')).body.counters.tickets).to.equal(0);
    const again = await d.admin.post('/dashboard/refresh-views');
    expect(again.status).to.equal(429);
    expect(again.body).to.deep.equal({ error: 'ERR_DASHBOARD_REFRESH_TOO_SOON' });
    expect(Number(again.headers.get('retry-after'))).to.be.within(1, 30);
  });

  it('checks tenant and profile: foreign ids are 404, operators without the dashboard read their own figures, bad input is 4xx', async () => {
    const d = await busyDesk(b);
    await d.admin.post('/dashboard/refresh-views');
    const other = await newCompanyWithAdmin(b);
    const theirQueue = await other.api.post('/queue', { name: 'Deles', color: '#112233' });
    expect(theirQueue.status, JSON.stringify(theirQueue.body)).to.be.oneOf([200, 201]);
    expect((await other.api.get('/dashboard')).body.counters.tickets).to.equal(0);
    expect((await d.admin.get(`/dashboard?queueIds=[${theirQueue.body.id}]`)).body).to.deep.equal({ error: 'ERR_QUEUE_NOT_FOUND' });
    expect((await d.admin.get(`/dashboard?userIds[]=${other.admin.id}`)).body).to.deep.equal({ error: 'ERR_NO_USER_FOUND' });
    const own = await d.ana.api.get('/dashboard');
    expect(own.body.counters).to.deep.include({ tickets: 1, supportFinished: 1 });
    expect(own.body.attendants.map((a: { name: string }) => a.name)).to.deep.equal(['Ana']);
    expect((await d.ana.api.get(`/dashboard?userIds=${d.bia.id}`)).status).to.equal(403);
    expect((await d.ana.api.post('/dashboard/refresh-views')).status).to.equal(403);
    for (const [url, code] of [
      ['/dashboard?date_from=2026-02-30', 'ERR_INVALID_DATE'],
      ['/dashboard?date_from=2026-03-09&date_to=2026-03-01', 'ERR_INVALID_DATE_RANGE'],
      ['/dashboard?date_from=2020-01-01&date_to=2026-01-01', 'ERR_DATE_RANGE_TOO_LONG'],
      ['/dashboard?days=0', 'ERR_VALIDATION'],
      ['/dashboard/ticketsDay?initialDate=yesterday', 'ERR_INVALID_DATE'],
      ['/dashboard/extended-metrics?granularity=year', 'ERR_VALIDATION'],
      ['/dashboard/top-contacts?limit=500', 'ERR_VALIDATION'],
      ['/dashboard/moments?queueIds=abc', 'ERR_VALIDATION'],
      ['/contacts-report?ddds[]=XX', 'ERR_VALIDATION'],
      ['/contacts-report?tags=[99999]', 'ERR_NO_TAG_FOUND'],
    ] as const) {
      const res = await d.admin.get(url);
      expect(res.status, url).to.be.within(400, 499);
      expect(res.body.error, url).to.equal(code);
    }
  });

  it('the attendance panel: the tickets open now, every one for admins, as the ticket rules allow for operators', async () => {
    const d = await busyDesk(b);
    const all = await d.admin.get('/usersMoments');
    expect(all.status).to.equal(200);
    expect(all.body.map((t: { id: number }) => t.id).sort()).to.deep.equal([d.tickets.second, d.tickets.third].sort());
    const held = all.body.find((t: { id: number }) => t.id === d.tickets.second);
    expect(held.user.name).to.equal('Bia');
    expect(held.contact.name).to.equal('Bruno');
    expect(held.chatapp.name).to.equal('Sandbox');
    const pending = await d.admin.get('/dashboard/moments', {});
    expect(pending.status).to.equal(200);
    const anas = await d.ana.api.get('/dashboard/moments?showAll=true');
    expect(anas.body.map((t: { id: number }) => t.id)).to.deep.equal([d.tickets.third]);
  });

  it('contacts report: JSON pages, and CSV streamed for Accept: text/csv or format=csv; formulas neutralised', async () => {
    const d = await busyDesk(b);
    const page = await d.admin.get('/contacts-report');
    expect(page.status).to.equal(200);
    expect(page.body).to.deep.include({ count: 3, hasMore: false });
    expect(page.body.contacts.map((c: { name: string }) => c.name)).to.deep.equal(['Alice', 'Bruno', '=cmd|calc']);
    expect((await d.admin.get('/contacts-report?ddds[]=SP')).body.contacts.map((c: { name: string }) => c.name)).to.deep.equal(['Alice', 'Bruno']);
    for (const [url, headers] of [
      ['/contacts-report', { accept: 'text/csv' }],
      ['/contacts-report?format=csv', {}],
    ] as const) {
      const res = await fetch(`${b.url}${url}`, {
        headers: { authorization: `Bearer ${(await login(b.url, 'root@example.com', 'root-password-1')).token}`, ...headers },
      });
      expect(res.status, url).to.equal(200);
      expect(res.headers.get('content-type')).to.match(/^text\/csv/);
      expect(res.headers.get('content-disposition')).to.match(/contacts-report\.csv/);
      const lines = (await res.text()).split('\r\n');
      expect(lines[0]).to.equal('id,name,number,email,createdAt');
      expect(lines.slice(1, 4).map((l) => l.split(',')[1])).to.deep.equal(['Alice', 'Bruno', "'=cmd|calc"]);
    }
    expect((await d.ana.api.get('/contacts-report')).body).to.deep.equal({ error: 'ERR_NO_PERMISSION' });
    await eventually('a user given the dashboard to read the report', async () => {
      expect((await d.admin.put(`/users/${d.ana.id}`, { showDashboard: 'enabled' })).status).to.equal(200);
      return (await client(b.url, (await login(b.url, 'ana@desk.test', 'operator-pass-1')).token).get('/contacts-report')).status === 200;
    });
  });
});
