import { expect } from 'chai';
import { sandboxDesk, eventually } from '../support/sandbox-conversations.js';
import { startTestBackend, type TestBackend } from '../support/test-backend.js';

/** The whole week, a 1–2 s gap, no long pause, no caps: each scenario narrows one rule. */
const OPEN = {
  messageInterval: 1,
  messageIntervalMax: 2,
  longerIntervalAfter: 0,
  startHour: '00:00',
  endHour: '24:00',
  sabado: true,
  domingo: true,
  capHourly: 0,
  capDaily: 0,
};
const HALF_HOUR_MS = 1_800_000;

/** A one-hour window starting two hours from now on the company's clock (São Paulo by default): now is outside it. */
function closedWindow() {
  const hour = Number(new Intl.DateTimeFormat('en-GB', { timeZone: 'America/Sao_Paulo', hour: '2-digit', hourCycle: 'h23' }).format(new Date()));
  const start = (hour + 2) % 24;
  const hh = (h: number) => `${String(h).padStart(2, '0')}:00`;
  return { startHour: hh(start), endHour: start === 23 ? '24:00' : hh(start + 1) };
}

describe('HTTP: campaign settings re-plan the campaigns waiting on them', () => {
  let b: TestBackend;
  before(async () => {
    b = await startTestBackend({ OUTBOX_RELAY_INTERVAL_MS: '100' });
  });
  after(async () => {
    await b.close();
  });
  beforeEach(async () => {
    await b.reset();
  });

  const sql = (query: string, params: unknown[]) => b.infra.db.orm.em.fork().getConnection().execute<Array<Record<string, unknown>>>(query, params);
  /** Once the connection's dispatcher has decided to sleep past half an hour from now. */
  const asleep = (connectionId: number) =>
    eventually('the dispatcher to sleep', async () => {
      const [row] = await sql('select next_run_at from campaign_pacing where connection_id = ?', [connectionId]);
      return !!row?.next_run_at && new Date(row.next_run_at as string).getTime() > Date.now() + HALF_HOUR_MS;
    });

  /** A campaign to `numbers` on the desk's connection, started under `settings`. */
  async function started(settings: Record<string, unknown>, numbers: string[]) {
    const d = await sandboxDesk(b);
    expect((await d.admin.post('/campaign-settings', { settings: { ...OPEN, ...settings } })).status).to.equal(200);
    const list = (await d.admin.post('/contact-lists', { name: 'Clientes' })).body.id as number;
    for (const [i, number] of numbers.entries()) {
      expect((await d.admin.post('/contact-list-items', { contactListId: list, name: `Cliente ${i}`, number })).status).to.equal(200);
    }
    const id = (await d.admin.post('/campaigns', { name: 'Promo', message1: 'Oi {nome}', contactListId: list, chatappId: d.connectionId })).body.id as number;
    expect((await d.admin.post(`/campaigns/${id}/restart`)).status).to.equal(204);
    const sentTo = () =>
      d
        .sent()
        .map((s: { to: string }) => s.to)
        .filter((to: string) => numbers.includes(to));
    return { d, sentTo };
  }

  it('a campaign held outside its window sends promptly once the window is widened to include now', async () => {
    const { d, sentTo } = await started(closedWindow(), ['5511955550001']);
    await asleep(d.connectionId);
    expect(sentTo()).to.deep.equal([]);
    expect((await d.admin.post('/campaign-settings', { settings: { startHour: '00:00', endHour: '24:00' } })).status).to.equal(200);
    await eventually('the send', () => sentTo().length === 1, 10_000);
  });

  it('a connection held at its hourly cap sends promptly once the cap is lifted', async () => {
    const { d, sentTo } = await started({ capHourly: 1 }, ['5511955550001', '5511955550002']);
    await eventually('the first send', () => sentTo().length === 1, 10_000);
    await asleep(d.connectionId);
    expect((await d.admin.post('/campaign-settings', { settings: { capHourly: 0 } })).status).to.equal(200);
    await eventually('the second send', () => sentTo().length === 2, 10_000);
  });
});
