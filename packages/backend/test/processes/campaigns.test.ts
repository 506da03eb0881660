import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { integrationUrl } from '@servicedesk/core/contracts/integration-env';
import { client } from '../support/test-backend.js';
import { eventually } from '../support/eventually.js';
import {
  freePort,
  freshDatabase,
  migratedEmbeddedTarget,
  postgresTarget,
  privateNatsServer,
  Service,
  SNAPSHOT_ADMIN,
  type ProcessTarget,
} from './processes.js';

/** The admin of the migrated data dir the embedded run starts on (the PostgreSQL runs seed it). */
const ADMIN = SNAPSHOT_ADMIN;
const JWT_SECRET = 'campaign-processes-secret-campaign-processes-0123';
const HOUR_MS = 3_600_000;
/** The smallest gap the ledger may show between two sends of a connection paced at 1–2 s. */
const MIN_GAP_MS = 900;
/** Settings every scenario starts from: the whole week, a 1–2 s random gap, no long pause, no caps. */
const PACED = {
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

type Row = Record<string, unknown>;
type Api = ReturnType<typeof client>;

interface Progress {
  total: number;
  pending: number;
  sent: number;
  delivered: number;
  read: number;
  failed: number;
  skipped: number;
}
interface Shown {
  status: string;
  progress: Progress;
}

const numbersFrom = (prefix: string, count: number) => Array.from({ length: count }, (_, i) => `${prefix}${String(i + 1).padStart(2, '0')}`);
const at = (value: unknown) => new Date(value as string | Date).getTime();
/** Sent or further on: the recipient's message exists. */
const done = (p: Progress) => p.sent + p.delivered + p.read;
/** Acknowledged by the provider: the sandbox acknowledges a send after writing it to its ledger. */
const acked = (p: Progress) => p.delivered + p.read;

/** What a user does over HTTP to run a campaign. */
function campaignClient(api: () => Api) {
  const ok = (res: { status: number; body: unknown }, ...statuses: number[]) => {
    expect(statuses, `${res.status} ${JSON.stringify(res.body)}`).to.include(res.status);
    return res.body as Record<string, any>;
  };
  return {
    async settings(values: Record<string, unknown>) {
      ok(await api().post('/campaign-settings', { settings: values }), 200, 201);
    },
    /** A sandbox connection, once its session is CONNECTED. */
    async connection(name: string, token: string): Promise<number> {
      const id = ok(await api().post('/chatapp/', { name, provider: 'sandbox', token }), 200, 201).id as number;
      await eventually(`${name} CONNECTED`, async () => (await api().get(`/chatapp/${id}`)).body.status === 'CONNECTED', 60_000);
      return id;
    },
    async list(name: string, numbers: readonly string[]): Promise<number> {
      const id = ok(await api().post('/contact-lists', { name }), 200, 201).id as number;
      for (const [i, number] of numbers.entries()) {
        ok(await api().post('/contact-list-items', { name: `Contato ${i + 1}`, number, contactListId: id }), 200, 201);
      }
      return id;
    },
    async campaign(name: string, contactListId: number, chatappId: number): Promise<number> {
      return ok(await api().post('/campaigns', { name, message1: 'Oi {nome}', contactListId, chatappId }), 200, 201).id as number;
    },
    /** Starts it now (or runs a cancelled one again). */
    async run(id: number) {
      ok(await api().post(`/campaigns/${id}/restart`), 204);
    },
    async cancel(id: number) {
      ok(await api().post(`/campaigns/${id}/cancel`), 204);
    },
    async show(id: number): Promise<Shown> {
      return ok(await api().get(`/campaigns/${id}`), 200) as Shown;
    },
    /** Until `until` holds of the campaign as the API shows it. */
    async until(id: number, what: string, until: (c: Shown) => boolean, ms = 90_000): Promise<Shown> {
      let last: Shown | null = null;
      return eventually(
        what,
        async () => {
          last = await this.show(id);
          return until(last) && last;
        },
        ms,
      ).catch((err: Error) => {
        throw new Error(`${err.message}; last seen ${JSON.stringify(last)}`);
      });
    },
  };
}

/** What the database holds about one connection's campaign sends, once its backend has stopped (or live, on PostgreSQL). */
async function sendsOf(query: (sql: string) => Promise<Row[]>, connectionId: number) {
  const ledger = await query(
    `select idempotency_key as key, recipient, sent_at from channel.sandbox_sent where chatapp_id = ${connectionId} order by sent_at, idempotency_key`,
  );
  const messages = await query(
    `select m.id::text as id, c.number from messages m join contacts c on c.id = m.contact_id where m.connection_id = ${connectionId} and m.from_me`,
  );
  return { ledger, messages };
}

/** Each of `numbers` got exactly one message, stored once in `messages` and delivered once to the provider (by its recipient). */
function expectOncePerNumber(sends: Awaited<ReturnType<typeof sendsOf>>, numbers: readonly string[]) {
  const digits = (v: unknown) => String(v).replace(/\D/g, '');
  expect(sends.messages.map((m) => String(m.number)).sort(), 'messages stored per number').to.deep.equal([...numbers].sort());
  expect(sends.ledger.map((l) => digits(l.recipient)).sort(), 'ledger deliveries per number').to.deep.equal([...numbers].sort());
  expect(sends.ledger.map((l) => String(l.key)).sort(), 'each delivery is one stored message').to.deep.equal(sends.messages.map((m) => String(m.id)).sort());
}

/** The gaps between consecutive deliveries, in ms. */
function gaps(ledger: readonly Row[]): number[] {
  const times = ledger.map((l) => at(l.sent_at));
  return times.slice(1).map((t, i) => t - times[i]!);
}

/**
 * Campaigns run by the backend as a real process against the sandbox connector, whose deliveries
 * are written to the `channel.sandbox_sent` ledger (key = our message id, `sent_at` = when the
 * "provider" got it): a SIGKILL mid-run, a cancel, the hourly cap.
 */
function campaignProcesses(name: string, makeTarget: () => Promise<ProcessTarget | null>) {
  describe(`Campaigns as processes: ${name}`, function () {
    this.timeout(300_000);
    let target: ProcessTarget;
    let port: number;
    let backend: Service | null = null;
    let token = '';
    const url = () => `http://127.0.0.1:${port}`;
    const user = campaignClient(() => client(url(), token));
    /** Database checks run once the backend has stopped (the embedded database is the backend's alone). */
    const checks: Array<() => Promise<void>> = [];

    before(async function () {
      const t = await makeTarget();
      if (!t) return this.skip();
      target = t;
      port = await freePort();
      await start();
    });
    afterEach(function () {
      if (this.currentTest?.state === 'failed' && backend) process.stderr.write(`--- backend\n${backend.output.join('').slice(-6000)}\n`);
    });
    after(async () => {
      await backend?.kill('SIGTERM');
      await target?.dispose();
    });

    async function start() {
      backend = new Service('packages/backend/src/main.ts', {
        ...target.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        LOG_LEVEL: 'warn',
        ADMIN_PASSWORD: ADMIN.password,
        CHANNEL_CONNECTORS: 'sandbox',
        JWT_SECRET,
        OUTBOX_RELAY_INTERVAL_MS: '200',
        SEND_DEADLINE_MS: '600000',
      });
      backend.start();
      await eventually('the backend', async () => (await fetch(`${url()}/version`).catch(() => null))?.ok === true, 60_000);
      const login = await client(url()).post('/auth/login', ADMIN);
      expect(login.status, JSON.stringify(login.body)).to.equal(200);
      token = login.body.token as string;
    }

    it('A: a backend killed mid-run goes on after a restart: every number once, the pacing kept across the restart', async () => {
      await user.settings(PACED);
      const connection = await user.connection('Campaign crash sandbox', 'campaign-crash-token-0001');
      const numbers = numbersFrom('55119888800', 12);
      const id = await user.campaign('Crash campaign', await user.list('Crash list', numbers), connection);
      await user.run(id);
      // Three messages in the ledger, then a random moment in the gap.
      await user.until(id, 'three deliveries', (c) => acked(c.progress) >= 3, 60_000);
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 1500));
      const before = await user.show(id);
      expect(before.status).to.equal('EM_ANDAMENTO');
      expect(before.progress.pending, 'recipients left for after the restart').to.be.above(2);
      await backend!.kill('SIGKILL');
      await start();
      // The dispatch job may still be held by the dead process: its lease (120 s) has to lapse first.
      const after = await user.until(
        id,
        'FINALIZADA, every message delivered',
        (c) => c.status === 'FINALIZADA' && acked(c.progress) === numbers.length,
        180_000,
      );
      expect(after.progress).to.include({ total: numbers.length, pending: 0, failed: 0, skipped: 0 });
      checks.push(async () => {
        const sends = await sendsOf((sql) => target.query(sql), connection);
        expectOncePerNumber(sends, numbers);
        // The pacing is the dispatcher's: the moments it sent each message, before and after the
        // restart. The deliveries follow it, except that a message sent just before the kill reaches
        // the provider only once the backend is back, possibly just before the next one.
        const dispatched = await target.query(`select sent_at from campaign_recipients where campaign_id = ${id} and sent_at is not null order by sent_at`);
        expect(dispatched).to.have.length(numbers.length);
        const spacing = gaps(dispatched);
        expect(
          spacing.filter((g) => g < MIN_GAP_MS),
          `gaps between dispatches (ms): ${spacing.join(', ')}; between deliveries: ${gaps(sends.ledger).join(', ')}`,
        ).to.deep.equal([]);
      });
    });

    it('C: a cancelled campaign sends nothing more, and the connection goes on with the next campaign, paced', async () => {
      await user.settings(PACED);
      const connection = await user.connection('Campaign cancel sandbox', 'campaign-cancel-token-0001');
      const numbers = numbersFrom('55119888810', 6);
      const next = numbersFrom('55119888811', 1);
      const cancelled = await user.campaign('Cancelled campaign', await user.list('Cancel list', numbers), connection);
      const following = await user.campaign('Following campaign', await user.list('Following list', next), connection);
      await user.run(cancelled);
      await user.until(cancelled, 'two sends', (c) => done(c.progress) >= 2, 60_000);
      await user.cancel(cancelled);
      // Once the cancel has answered nothing more of this campaign goes out: its count now is final.
      const atCancel = await user.show(cancelled);
      expect(atCancel.status).to.equal('CANCELADA');
      expect(atCancel.progress.pending, 'recipients the cancel kept from being sent').to.be.above(0);
      // The proof that the dispatcher ran after the cancel and left the cancelled campaign alone is
      // a later event, not a wait: the next campaign on the same connection, started now, is sent.
      // The dispatcher takes a connection's due recipients oldest campaign first, so had the
      // cancelled campaign still been running its pending recipients would have gone out before.
      await user.run(following);
      await user.until(following, 'the following campaign delivered and FINALIZADA', (c) => c.status === 'FINALIZADA' && acked(c.progress) === 1, 60_000);
      const later = await user.show(cancelled);
      expect(later.status).to.equal('CANCELADA');
      expect(done(later.progress), 'sends of the cancelled campaign after the cancel answered').to.equal(done(atCancel.progress));
      expect(later.progress.pending).to.equal(atCancel.progress.pending);
      checks.push(async () => {
        const [{ cancelled_at: cancelledAt }] = (await target.query(`select updated_at as cancelled_at from campaigns where id = ${cancelled}`)) as [Row];
        const recipients = await target.query(
          `select campaign_id, number, state, sent_at, claimed_until, message_id from campaign_recipients where campaign_id in (${cancelled}, ${following}) order by id`,
        );
        const ofCancelled = recipients.filter((r) => Number(r.campaign_id) === cancelled);
        const sentBefore = ofCancelled.filter((r) => r.message_id !== null);
        expect(sentBefore).to.have.length(done(atCancel.progress));
        for (const r of sentBefore) expect(at(r.sent_at), `${r.number} sent after the cancel`).to.be.at.most(at(cancelledAt));
        // Nothing was claimed after the cancel either: the pending ones hold no claim.
        expect(
          ofCancelled.filter((r) => r.state === 'pending' && r.claimed_until !== null),
          'claims left on the cancelled campaign',
        ).to.deep.equal([]);
        const [nextRecipient] = recipients.filter((r) => Number(r.campaign_id) === following);
        expect(at(nextRecipient!.sent_at)).to.be.above(at(cancelledAt));
        const sends = await sendsOf((sql) => target.query(sql), connection);
        expectOncePerNumber(sends, [...sentBefore.map((r) => String(r.number)), ...next]);
        expect(String(sends.ledger.at(-1)!.key), "the last delivery is the following campaign's").to.equal(String(nextRecipient!.message_id));
        const spacing = gaps(sends.ledger);
        expect(
          spacing.filter((g) => g < MIN_GAP_MS),
          `gaps between deliveries (ms): ${spacing.join(', ')}`,
        ).to.deep.equal([]);
      });
    });

    it('D: the hourly cap sends its three and has the dispatcher wait until the first of them is an hour old', async () => {
      await user.settings({ ...PACED, messageInterval: 0, messageIntervalMax: 0, capHourly: 3 });
      const connection = await user.connection('Campaign cap sandbox', 'campaign-cap-token-0001');
      const numbers = numbersFrom('55119888820', 6);
      const id = await user.campaign('Capped campaign', await user.list('Cap list', numbers), connection);
      await user.run(id);
      await user.until(id, 'three messages delivered', (c) => acked(c.progress) === 3, 60_000);
      // The later event: the dispatcher stored its decision to look at the connection again only
      // once the first send is an hour old (on the embedded default it is read after the stop).
      const decided = async () => {
        const [pacing] = await target.query(`select next_run_at from campaign_pacing where connection_id = ${connection}`);
        const [first] = await target.query(`select min(sent_at) as first, count(*)::int as n from campaign_sends where connection_id = ${connection}`);
        return { nextRunAt: pacing?.next_run_at ? at(pacing.next_run_at) : null, first: at(first!.first), sends: Number(first!.n) };
      };
      const expectDecided = (d: Awaited<ReturnType<typeof decided>>) => {
        expect(d.sends).to.equal(3);
        expect(d.nextRunAt, 'next run of the connection').to.be.a('number');
        expect(d.nextRunAt! - d.first, 'next run after the first send (ms)').to.be.within(HOUR_MS - 2000, HOUR_MS + 2000);
      };
      if (target.live) {
        const d = await eventually(
          'the dispatcher to wait for the hourly cap',
          async () => {
            const seen = await decided();
            return seen.nextRunAt !== null && seen.nextRunAt - seen.first > HOUR_MS / 2 && seen;
          },
          30_000,
        );
        expectDecided(d);
      }
      const shown = await user.show(id);
      expect(shown.status).to.equal('EM_ANDAMENTO');
      expect(shown.progress).to.include({ total: 6, pending: 3, failed: 0 });
      expect(acked(shown.progress)).to.equal(3);
      checks.push(async () => {
        expectDecided(await decided());
        const recipients = await target.query(`select number, state, message_id from campaign_recipients where campaign_id = ${id} order by id`);
        const sent = recipients.filter((r) => r.message_id !== null).map((r) => String(r.number));
        expect(sent).to.have.length(3);
        expect(recipients.filter((r) => r.state === 'pending')).to.have.length(3);
        expectOncePerNumber(await sendsOf((sql) => target.query(sql), connection), sent);
      });
    });

    it('what the database holds agrees, once the backend has stopped', async function () {
      if (!checks.length) return this.skip();
      await backend!.kill('SIGTERM');
      backend = null;
      const failures: string[] = [];
      for (const check of checks) await check().catch((err: Error) => failures.push(err.message));
      expect(failures).to.deep.equal([]);
    });
  });
}

campaignProcesses('embedded default (PGlite, in-process broker)', () => migratedEmbeddedTarget('sd-campaigns-'));
campaignProcesses('PostgreSQL and NATS', () => postgresTarget('sd-campaigns-pg-'));

/**
 * Two backends on one PostgreSQL database and one NATS, with the channel runtime as a third
 * process: one campaign with no gap runs on whichever backend claims the dispatch job each turn,
 * and every number still gets exactly one message.
 */
describe('Campaigns as processes: two backends on PostgreSQL and NATS', function () {
  this.timeout(180_000);
  const dbBase = integrationUrl('TEST_DATABASE_URL');
  let nats: Awaited<ReturnType<typeof privateNatsServer>>;
  let db: Awaited<ReturnType<typeof freshDatabase>>;
  const backends: Array<{ service: Service; url: string }> = [];
  let runtime: Service | null = null;
  let dataDir: string;

  before(async function () {
    if (!dbBase) return this.skip();
    nats = await privateNatsServer();
    if (!nats) return this.skip();
    db = await freshDatabase(dbBase);
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'sd-campaigns-two-'));
    const common = { DATABASE_URL: db.url, BROKER_URL: nats.url, LOG_LEVEL: 'warn', CHANNEL_CONNECTORS: 'sandbox' };
    for (const name of ['one', 'two']) {
      const port = await freePort();
      const service = new Service('packages/backend/src/main.ts', {
        ...common,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: path.join(dataDir, `backend-${name}`),
        JWT_SECRET,
        ADMIN_PASSWORD: ADMIN.password,
        OUTBOX_RELAY_INTERVAL_MS: '200',
      });
      backends.push({ service, url: `http://127.0.0.1:${port}` });
      service.start();
      // One at a time: the first migrates the database, the second finds it ready.
      await eventually(`backend ${name}`, async () => (await fetch(`${backends.at(-1)!.url}/version`).catch(() => null))?.ok ?? false, 60_000);
    }
    runtime = new Service('packages/channel-runtime/src/main.ts', { ...common, DATA_DIR: path.join(dataDir, 'runtime'), SEND_DEADLINE_MS: '120000' });
    runtime.start();
    await db.connect();
  });

  afterEach(function () {
    if (this.currentTest?.state !== 'failed') return;
    for (const [name, s] of [['runtime', runtime], ...backends.map((b, i) => [`backend ${i + 1}`, b.service] as const)] as const) {
      if (s) process.stderr.write(`--- ${name}\n${s.output.join('').slice(-6000)}\n`);
    }
  });

  after(async () => {
    await runtime?.kill('SIGTERM');
    for (const b of backends) await b.service.kill('SIGTERM');
    await db?.drop();
    await nats?.dispose();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
  });

  it('B: one campaign, two backends dispatching: every number exactly once in the ledger and in messages', async () => {
    const [one, two] = backends as [(typeof backends)[0], (typeof backends)[0]];
    const login = await client(one.url).post('/auth/login', ADMIN);
    expect(login.status, JSON.stringify(login.body)).to.equal(200);
    const viaOne = campaignClient(() => client(one.url, login.body.token));
    const viaTwo = campaignClient(() => client(two.url, login.body.token));
    await viaOne.settings({ ...PACED, messageInterval: 0, messageIntervalMax: 0 });
    const connection = await viaOne.connection('Two backends sandbox', 'campaign-two-backends-token-0001');
    // More than one dispatch run is needed (each sends at most 20), each claimed by either backend.
    const numbers = numbersFrom('55119888830', 24);
    const id = await viaOne.campaign('Two backends campaign', await viaOne.list('Two backends list', numbers), connection);
    await viaTwo.run(id);
    const finished = await viaTwo.until(
      id,
      'FINALIZADA, every message delivered',
      (c) => c.status === 'FINALIZADA' && acked(c.progress) === numbers.length,
      120_000,
    );
    expect(finished.progress).to.include({ total: numbers.length, pending: 0, failed: 0, skipped: 0 });
    expect((await viaOne.show(id)).status).to.equal('FINALIZADA');
    const sends = await sendsOf((sql) => db.query(sql), connection);
    expectOncePerNumber(sends, numbers);
    const recipients = await db.query<{ n: number }>(`select count(distinct message_id)::int as n from campaign_recipients where campaign_id = ${id}`);
    expect(recipients[0]!.n).to.equal(numbers.length);
  });
});
