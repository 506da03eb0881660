import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import {
  clockOffset,
  cpuProfileDuring,
  framesDuring,
  freshPage,
  launchChromium,
  mainThreadDuring,
  resources,
  type BenchState,
  type MainThread,
  type Resource,
} from '../lib/browser.js';
import { buildStaticPage, type StaticPage } from '../lib/console-baseline.js';
import type { Ctx, Measure, Row, Scenario } from '../lib/context.js';
import { pageToken } from '../lib/fake-graph.js';
import { api, KeepAliveClient } from '../lib/http.js';
import { freePort, NodeService, reachable, until } from '../lib/proc.js';
import { messengerDelivery, metaSignature, uniqueToken } from '../lib/setup.js';
import { summarize, type Latency } from '../lib/stats.js';
import { seedTenant } from '../lib/seed.js';
import type { Sql } from '../lib/sql.js';

/** The conversations of 1,000 messages: the operator's most recent open tickets, so they head the list. */
const BIG_TICKETS = 10;
const BIG_MESSAGES = 1000;
const PAGE = 'BENCH-CONSOLE-PAGE';
const PASSWORD = 'bench-console-operator-1';
/** A brisk wheel scroll: about 28 rows of 72 px a second, a page of 20 fetched every 0.7 s. */
const SCROLL_SPEED = 2000;
/** Kilobytes as the issue counts them (1,000 bytes). */
const KB = 1000;
const ROW = 'button[data-testid^="ticket-"]';
const SUBMIT = 'form button[type=submit]';

interface Sizes {
  signIns: number;
  opensPerSignIn: number;
  inbound: number;
  scrollPx: number;
}
const sizesFor = (quick: boolean): Sizes =>
  quick ? { signIns: 6, opensPerSignIn: 3, inbound: 30, scrollPx: 4000 } : { signIns: 40, opensPerSignIn: 5, inbound: 200, scrollPx: 20_000 };

interface State {
  companyId: number;
  email: string;
  operatorId: number;
  connectionId: number;
  userIds: number[];
  seedMs: number;
  bigIds: number[];
}
let state: State | undefined;
/** Why the console could not be built, reported by the set-up of each target. */
let unbuilt: string | undefined;

const newestOf = (ticketId: number) => `Newest message of conversation ${ticketId}`;
const median = (v: number[]) => summarize(v).p50;
const ms = (v: number) => (Number.isFinite(v) ? (v < 10 ? v.toFixed(1) : Math.round(v).toLocaleString('en')) : '—');
const kb = (bytes: number) => `${(bytes / KB).toFixed(1)} kB`;
const isJs = (r: Resource) => /\.js(\?|$)/.test(new URL(r.name).pathname);
const sum = (rs: Resource[], key: 'encodedBodySize' | 'decodedBodySize') => rs.reduce((a, r) => a + r[key], 0);

/** The browser's `window.__bench` inside `page.evaluate` callbacks. */
declare global {
  interface Window {
    __bench: BenchState;
  }
}

/**
 * In the page: starts polling for what a measure waits for, under `window.__bench.pending[key]`
 * (the time of the frame that paints it, on the page's clock, or null after 15 s).
 */
function arm(page: Page, key: string, what: { kind: 'rows' } | { kind: 'newest'; marker: string } | { kind: 'row-with'; marker: string }) {
  return page.evaluate(
    ([key, what]) => {
      const b = window.__bench;
      const checks: Record<string, () => boolean> = {
        rows: () => document.querySelector('button[data-testid^="ticket-"]') !== null,
        newest: () => {
          const log = document.querySelector('[data-testid="messages"]');
          const all = log?.querySelectorAll('[data-testid="message"]');
          const last = all?.[all.length - 1];
          if (!log || !last?.textContent?.includes((what as { marker: string }).marker)) return false;
          const box = log.getBoundingClientRect();
          const r = last.getBoundingClientRect();
          return r.height > 0 && r.bottom <= box.bottom + 1 && r.top >= box.top - 1;
        },
        'row-with': () =>
          [...document.querySelectorAll('button[data-testid^="ticket-"]')].some((r) => r.textContent?.includes((what as { marker: string }).marker)),
      };
      b.pending[key] = b.when(checks[what.kind]!, 15_000);
    },
    [key, what] as const,
  );
}

const settle = (page: Page, key: string) => page.evaluate((key) => window.__bench.pending[key]!, key);
const stamps = (page: Page) =>
  page.evaluate(() => ({
    submitAt: window.__bench.submitAt,
    clickAt: window.__bench.clickAt,
    frameAt: window.__bench.frameAt,
    origin: performance.timeOrigin,
  }));

/** Requests in flight (websockets aside): `idle(quietMs)` resolves once none has been for that long. */
function network(page: Page) {
  let inFlight = 0;
  let lastChange = performance.now();
  const change = (d: number) => {
    inFlight += d;
    lastChange = performance.now();
  };
  page.on('request', () => change(1));
  page.on('requestfinished', () => change(-1));
  page.on('requestfailed', () => change(-1));
  return {
    idle: (quietMs = 300) => until('the page to go quiet', async () => inFlight <= 0 && performance.now() - lastChange >= quietMs, 15_000, 25),
  };
}

/** The rows of one latency measure. */
function latencyRow(o: {
  scenario: string;
  what: string;
  load: string;
  ours: number[];
  oursErrors: number;
  base: number[];
  baseErrors: number;
  baseWhat: string;
  baseLoad: string;
  q: 'p95' | 'p99';
  limitMs: number;
  notes: string[];
  details?: Record<string, unknown>;
}): Row {
  const ours = summarize(o.ours);
  const base = summarize(o.base);
  const measure = (what: string, load: string, l: Latency, errors: number): Measure => ({
    what,
    load,
    value: `${o.q} ${ms(l[o.q])} ms`,
    latency: l,
    errors,
  });
  return {
    scenario: o.scenario,
    result: measure(o.what, o.load, ours, o.oursErrors),
    baseline: measure(o.baseWhat, o.baseLoad, base, o.baseErrors),
    ratio: base[o.q] > 0 && Number.isFinite(ours[o.q]) ? `${o.q} ×${(ours[o.q] / base[o.q]).toFixed(1)} of baseline` : undefined,
    target: `${o.q} < ${o.limitMs.toLocaleString('en')} ms`,
    met: o.oursErrors === 0 && ours.samples > 0 && ours[o.q] < o.limitMs,
    notes: o.notes,
    ...(o.details ? { details: o.details } : {}),
  };
}

const longTasks = (page: Page) => page.evaluate(() => window.__bench.longtasks);
/** Main-thread time spent in long tasks that began between two moments of the page's clock. */
const busy = (tasks: Array<[number, number]>, from: number, to: number) => tasks.filter(([t]) => t >= from && t < to).reduce((a, [, d]) => a + d, 0);
function push(into: Record<string, number[]>, sample: Record<string, number>) {
  for (const [k, v] of Object.entries(sample)) (into[k] ??= []).push(v);
}
/** The requests that began in a window, relative to its start. */
const timeline = (rs: Resource[], from: number, to: number) =>
  rs
    .filter((r) => r.startTime >= from && r.startTime <= to)
    .map((r) => {
      const u = new URL(r.name);
      return { what: `${u.pathname}${u.search}`, fromMs: Math.round(r.startTime - from), toMs: Math.round(r.responseEnd - from), bytes: r.encodedBodySize };
    });

/** Median and p95 of each leg, in words. */
function legs(parts: Record<string, number[]>): string {
  return Object.entries(parts)
    .map(([name, v]) => `${name} ${ms(median(v))} / ${ms(summarize(v).p95)} ms`)
    .join(', ');
}

type Profile = Awaited<ReturnType<typeof cpuProfileDuring>>;

interface ConsoleFigures {
  formPaint: number[];
  signIn: number[];
  signInErrors: number;
  bootLegs: Record<string, number[]>;
  signInLegs: Record<string, number[]>;
  opens: number[];
  openErrors: number;
  openLegs: Record<string, number[]>;
  inbound: number[];
  inboundErrors: number;
  inboundLegs: Record<string, number[]>;
  /** Chromium's main-thread counters over each sample, by measure. */
  main: Record<'signIn' | 'open' | 'inbound' | 'scroll', MainThread[]>;
  /** Main-thread time in long tasks over each sample, by measure. */
  longTasks: Record<'boot' | 'signIn' | 'open' | 'inbound', number[]>;
  profiles: { scroll?: Profile; open?: Profile };
  /** The bodies of the JavaScript and CSS the first sign-in fetched, by URL. */
  code: Map<string, Promise<Buffer>>;
  /** The requests of one sample of each measure, for the JSON. */
  timelines: Record<string, Array<{ what: string; fromMs: number; toMs: number; bytes: number }>>;
  scroll: Awaited<ReturnType<typeof framesDuring>> & { rowsLoaded: number; pagesFetched: number; scrolledPx: number };
  /** What the first sign-in of a fresh profile fetched, by step. */
  bytes: {
    signInPage: Resource[];
    firstTickets: Resource[];
    conversation: Resource[];
    connections: Resource[];
    documentBytes: number;
  };
  firstPage: { tickets: Array<{ id: number; contact?: { name?: string; number?: string } | null; lastMessage?: string; updatedAt: string }> };
}

/** Signs in on a fresh profile; the sign-in (submit → first ticket row painted) and what it fetched. */
async function signIn(browser: Browser, baseUrl: string, email: string, code?: Map<string, Promise<Buffer>>) {
  const { context, page } = await freshPage(browser, [SUBMIT]);
  const net = network(page);
  // The code as served (another build may replace the files on disk meanwhile).
  if (code)
    page.on(
      'response',
      (r) =>
        void (
          /\.(js|css)$/.test(new URL(r.url()).pathname) &&
          code.set(
            r.url(),
            r.body().catch(() => Buffer.alloc(0)),
          )
        ),
    );
  await page.goto(`${baseUrl}/app/`);
  const formAt = await page.evaluate((s) => window.__bench.firstPaint[s]!, SUBMIT);
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await arm(page, 'rows', { kind: 'rows' });
  const cdp = await context.newCDPSession(page);
  const { result: rowsAt, main } = await mainThreadDuring(cdp, async () => {
    await page.getByRole('button', { name: 'Sign in' }).click();
    return settle(page, 'rows');
  });
  const { submitAt } = await stamps(page);
  return { context, page, cdp, net, formAt, submitAt, rowsAt, main };
}

async function measureConsole(ctx: Ctx, browser: Browser, s: State, z: Sizes): Promise<ConsoleFigures> {
  const { target } = ctx;
  const f: ConsoleFigures = {
    formPaint: [],
    signIn: [],
    signInErrors: 0,
    bootLegs: {},
    signInLegs: {},
    opens: [],
    openErrors: 0,
    openLegs: {},
    inbound: [],
    inboundErrors: 0,
    inboundLegs: {},
    timelines: {},
    main: { signIn: [], open: [], inbound: [], scroll: [] },
    longTasks: { boot: [], signIn: [], open: [], inbound: [] },
    profiles: {},
    code: new Map(),
    scroll: undefined as never,
    bytes: undefined as never,
    firstPage: await api(target.baseUrl, (await api(target.baseUrl).post<{ token: string }>('/auth/login', { email: s.email, password: PASSWORD })).token).get(
      '/tickets?status=open&pageNumber=1',
    ),
  };
  // i = -1 warms the server up and gives the bytes; it counts in no latency.
  for (let i = -1; i < z.signIns; i++) {
    let session: Awaited<ReturnType<typeof signIn>> | undefined;
    try {
      session = await signIn(browser, target.baseUrl, s.email, i === -1 ? f.code : undefined);
      const { page, cdp, net, formAt, submitAt, rowsAt, main } = session;
      if (rowsAt === null || submitAt === null || formAt === null) throw new Error('no ticket row within 15 s of signing in');
      const all = await resources(page);
      const tasks = await longTasks(page);
      const after = (r: Resource) => r.startTime >= submitAt && r.startTime <= rowsAt;
      if (i >= 0) {
        f.formPaint.push(formAt);
        f.signIn.push(rowsAt - submitAt);
        // Opening /app/: the document, the code, the requests before the form (config.json, the session's refresh), the paint.
        const before = all.filter((r) => r.responseEnd <= formAt);
        const doc = await page.evaluate(() => (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming).responseEnd);
        const code = Math.max(doc, ...before.filter(isJs).map((r) => r.responseEnd));
        const asked = Math.max(code, ...before.filter((r) => !isJs(r) && !r.name.endsWith('.css')).map((r) => r.responseEnd));
        push(f.bootLegs, {
          'document answered': doc,
          'code loaded': code - doc,
          'then its requests answered (config.json, the session refresh)': asked - code,
          'then painted': formAt - asked,
        });
        f.longTasks.boot!.push(busy(tasks, 0, formAt));
        // Signing in: the login, the inbox's code and first render until the list is asked, the list, the paint.
        const login = all.find((r) => after(r) && /\/auth\/login$/.test(r.name))?.responseEnd ?? submitAt;
        const list = all.find((r) => after(r) && /\/tickets\?/.test(r.name));
        push(f.signInLegs, {
          'login answered': login - submitAt,
          'then the list asked (the inbox code, the first render)': (list?.startTime ?? rowsAt) - login,
          'list answered': list ? list.responseEnd - list.startTime : 0,
          'then painted': rowsAt - (list?.responseEnd ?? rowsAt),
        });
        f.main.signIn!.push(main);
        f.longTasks.signIn!.push(busy(tasks, submitAt, rowsAt));
        if (i === 0) f.timelines['opening /app/ then signing in (from the navigation)'] = timeline(all, 0, rowsAt);
      }
      await net.idle();
      // Conversations of 1,000 messages, each opened for the first time in this profile.
      for (let k = 0; k < z.opensPerSignIn; k++) {
        const id = s.bigIds[(Math.max(0, i) * z.opensPerSignIn + k) % s.bigIds.length]!;
        await arm(page, 'newest', { kind: 'newest', marker: newestOf(id) });
        const { result: newestAt, main } = await mainThreadDuring(cdp, async () => {
          await page.getByTestId(`ticket-${id}`).click();
          return settle(page, 'newest');
        });
        const { clickAt } = await stamps(page);
        if (newestAt === null || clickAt === null) {
          f.openErrors++;
          continue;
        }
        f.main.open!.push(main);
        const seen = await resources(page);
        const asked = seen.find((r) => r.startTime >= clickAt && r.name.includes(`/messages/${id}?`));
        f.opens.push(newestAt - clickAt);
        push(f.openLegs, {
          'messages asked': (asked?.startTime ?? newestAt) - clickAt,
          'messages answered': asked ? asked.responseEnd - asked.startTime : 0,
          'then painted': newestAt - (asked?.responseEnd ?? newestAt),
        });
        f.longTasks.open!.push(busy(await longTasks(page), clickAt, newestAt));
        if (i === 0 && k === 0) f.timelines['opening a conversation (from the click)'] = timeline(seen, clickAt, newestAt);
        if (i === -1 && k === 0) {
          const since = (await resources(page)).filter((r) => r.startTime >= clickAt && r.startTime <= newestAt);
          f.bytes = {
            signInPage: all.filter((r) => r.startTime < submitAt),
            firstTickets: all.filter(after),
            conversation: since,
            connections: [],
            documentBytes: await page.evaluate(() => (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming).decodedBodySize),
          };
        }
        await net.idle();
      }
      if (i === -1) {
        const before = performance.now();
        const from = await page.evaluate(() => performance.now());
        await page.getByRole('link', { name: 'Connections' }).click();
        await page.locator('[data-testid^="connection-"]').first().waitFor();
        f.bytes.connections = (await resources(page)).filter((r) => r.startTime >= from);
        await Promise.all(f.code.values());
        ctx.log(`  warm-up sign-in done; the connections screen opened in ${ms(performance.now() - before)} ms`);
      }
    } catch (err) {
      if (i === -1) throw err;
      f.signInErrors++;
      ctx.log(`  sign-in ${i + 1}: ${String(err).split('\n')[0]}`);
    } finally {
      await session?.context.close();
    }
  }
  ctx.log(`  sign-in → first tickets: p95 ${ms(summarize(f.signIn).p95)} ms; conversation opened: p95 ${ms(summarize(f.opens).p95)} ms`);

  // Inbound: a signed Messenger webhook from a new contact, until its row is painted in the pending tab.
  const session = await signIn(browser, target.baseUrl, s.email);
  const { page, cdp, net } = session;
  const http = new KeepAliveClient(target.baseUrl, 2);
  try {
    await page.getByTestId('realtime-state').filter({ hasText: 'Live' }).waitFor();
    await page.getByTestId('tab-pending').click();
    await page.locator(ROW).first().waitFor();
    await net.idle();
    const offset = await clockOffset(page);
    const run = randomBytes(4).toString('hex');
    for (let j = 0; j < z.inbound; j++) {
      const marker = `console-${run}-${j}`;
      await page.evaluate((m) => {
        window.__bench.marker = m;
        window.__bench.frameAt = null;
      }, marker);
      await arm(page, 'row', { kind: 'row-with', marker });
      const body = messengerDelivery(PAGE, `PSID-console-${run}-${j}`, `m_console_${run}_${j}`, `Olá, ${marker}`);
      const sentAt = performance.timeOrigin + performance.now();
      const { result: rowAt, main } = await mainThreadDuring(cdp, async () => {
        const res = await http.request('POST', '/webhook/', { 'content-type': 'application/json', 'x-hub-signature-256': metaSignature(body) }, body);
        return res.status === 200 ? settle(page, 'row') : null;
      });
      if (rowAt === null) {
        f.inboundErrors++;
        continue;
      }
      f.main.inbound!.push(main);
      const { frameAt, origin } = await stamps(page);
      const local = (t: number) => origin + t - offset - sentAt;
      f.inbound.push(local(rowAt));
      if (frameAt !== null) {
        const seen = await resources(page);
        const refetch = seen.find((r) => r.startTime >= frameAt && /\/tickets\?/.test(r.name));
        push(f.inboundLegs, {
          'webhook → its frame in the page': local(frameAt),
          'then the list refetch sent': (refetch?.startTime ?? rowAt) - frameAt,
          'refetch answered': refetch ? refetch.responseEnd - refetch.startTime : 0,
          'then painted': rowAt - (refetch?.responseEnd ?? rowAt),
        });
        f.longTasks.inbound!.push(busy(await longTasks(page), frameAt, rowAt));
        if (j === 0) f.timelines['an inbound message (from its frame)'] = timeline(seen, frameAt, rowAt);
      }
      await net.idle();
    }
    ctx.log(`  inbound → row painted: p99 ${ms(summarize(f.inbound).p99)} ms (${f.inboundErrors} missing)`);

    // Scrolling the open tab: Chromium's own wheel gesture (as its smoothness benchmarks scroll).
    await page.getByTestId('tab-open').click();
    await page.locator(ROW).first().waitFor();
    await net.idle();
    const list = page.getByTestId('ticket-list');
    const box = (await list.boundingBox())!;
    const gesture = async () => {
      await cdp.send('Input.synthesizeScrollGesture', {
        x: Math.round(box.x + box.width / 2),
        y: Math.round(box.y + box.height / 2),
        yDistance: -z.scrollPx,
        speed: SCROLL_SPEED,
        gestureSourceType: 'mouse',
      });
    };
    const from = await page.evaluate(() => performance.now());
    const { result: figures, main } = await mainThreadDuring(cdp, () => framesDuring(page, gesture));
    f.main.scroll!.push(main);
    const after = (await resources(page)).filter((r) => r.startTime >= from && /\/tickets\?/.test(r.name));
    const scrolledPx = await list.evaluate((el) => el.scrollTop);
    f.scroll = {
      ...figures,
      scrolledPx,
      pagesFetched: after.length,
      rowsLoaded: await list.evaluate((el) => Math.round((el.firstElementChild as HTMLElement).offsetHeight / 72)),
    };
    ctx.log(`  scrolling: ${figures.fps.toFixed(1)} fps, ${figures.longTasks} long tasks (longest ${ms(figures.longestTaskMs)} ms)`);
    // Where the main thread's time goes, profiled apart from the measures (the profiler slows the page): scrolling on, then a conversation opened.
    f.profiles.scroll = await cpuProfileDuring(cdp, gesture);
    await list.evaluate((el) => {
      el.scrollTop = 0;
    });
    const id = s.bigIds[0]!;
    await arm(page, 'newest', { kind: 'newest', marker: newestOf(id) });
    f.profiles.open = await cpuProfileDuring(cdp, async () => {
      await page.getByTestId(`ticket-${id}`).click();
      await settle(page, 'newest');
    });
    // The minified functions, named by the start of their source in the bundle as served.
    for (const p of [f.profiles.scroll, f.profiles.open])
      for (const t of p.top) {
        const body = t.url ? (await f.code.get(t.url))?.toString('utf8') : undefined;
        if (!body) continue;
        const lineStart = body
          .split('\n')
          .slice(0, t.line)
          .reduce((a, l) => a + l.length + 1, 0);
        t.source = body.slice(lineStart + t.column, lineStart + t.column + 160);
      }
  } finally {
    http.close();
    await session.context.close();
  }
  return f;
}

interface BaselineFigures {
  load: number[];
  loadErrors: number;
  opens: number[];
  openErrors: number;
  inbound: number[];
  inboundErrors: number;
  scroll: Awaited<ReturnType<typeof framesDuring>>;
}

async function measureBaseline(ctx: Ctx, browser: Browser, site: StaticPage, url: string, s: State, z: Sizes, opens: number): Promise<BaselineFigures> {
  const b: BaselineFigures = { load: [], loadErrors: 0, opens: [], openErrors: 0, inbound: [], inboundErrors: 0, scroll: undefined as never };
  for (let i = -1; i < z.signIns; i++) {
    const { context, page } = await freshPage(browser, [ROW]);
    try {
      await page.goto(`${url}/`);
      const at = await page.evaluate((s) => window.__bench.firstPaint[s]!, ROW);
      if (i >= 0) at === null ? b.loadErrors++ : b.load.push(at);
    } finally {
      await context.close();
    }
  }
  const { context, page } = await freshPage(browser, [ROW]);
  const net = network(page);
  const http = new KeepAliveClient(url, 2);
  try {
    await page.goto(`${url}/`);
    await page.locator(ROW).first().waitFor();
    await page.evaluate(() => window.__bench.when(() => (window as unknown as { __ws?: WebSocket }).__ws?.readyState === 1, 15_000));
    for (let k = 0; k < opens; k++) {
      const id = s.bigIds[k % s.bigIds.length]!;
      await arm(page, 'newest', { kind: 'newest', marker: newestOf(id) });
      await page.getByTestId(`ticket-${id}`).click();
      const newestAt = await settle(page, 'newest');
      const { clickAt } = await stamps(page);
      if (newestAt === null || clickAt === null) b.openErrors++;
      else b.opens.push(newestAt - clickAt);
      await net.idle();
    }
    const offset = await clockOffset(page);
    const run = randomBytes(4).toString('hex');
    for (let j = 0; j < z.inbound; j++) {
      const marker = `console-${run}-${j}`;
      await arm(page, 'row', { kind: 'row-with', marker });
      const sentAt = performance.timeOrigin + performance.now();
      const res = await http.request(
        'POST',
        '/broadcast',
        { 'content-type': 'application/json' },
        JSON.stringify({ id: 1_000_000 + j, name: 'New contact', lastMessage: `Olá, ${marker}` }),
      );
      const rowAt = res.status === 200 ? await settle(page, 'row') : null;
      const { origin } = await stamps(page);
      if (rowAt === null) b.inboundErrors++;
      else b.inbound.push(origin + rowAt - offset - sentAt);
    }
    await page.goto(`${url}/list.html`);
    await page.locator(ROW).first().waitFor();
    const box = (await page.getByTestId('ticket-list').boundingBox())!;
    const cdp = await context.newCDPSession(page);
    b.scroll = await framesDuring(page, async () => {
      await cdp.send('Input.synthesizeScrollGesture', {
        x: Math.round(box.x + box.width / 2),
        y: Math.round(box.y + box.height / 2),
        yDistance: -z.scrollPx,
        speed: SCROLL_SPEED,
        gestureSourceType: 'mouse',
      });
    });
  } finally {
    http.close();
    await context.close();
  }
  ctx.log(
    `  baseline (${kb(site.encodedBytes)} compressed): load p95 ${ms(summarize(b.load).p95)} ms, open p95 ${ms(summarize(b.opens).p95)} ms, frame → row p99 ${ms(summarize(b.inbound).p99)} ms, ${b.scroll.fps.toFixed(1)} fps`,
  );
  return b;
}

/**
 * The operator console in headless Chromium against the backend serving it at /app/, on a tenant
 * of 100,000 tickets (5,000 with --quick): sign-in to the first page of tickets, opening a
 * conversation of 1,000 messages, an inbound webhook to its row, scrolling the list, and the
 * JavaScript the first page needs. Beside it, a static page of the same bytes served by Koa and
 * koa-send (the console's server kind): its load, a click fetching a message page of the same
 * bytes, a websocket frame to its row, a scroll of a static list: what the browser itself costs.
 */
export const consoleScenario: Scenario = {
  name: 'console',
  prepare(root, log) {
    log('building the console (node scripts/build.mjs) for the console scenario');
    const built = spawnSync(process.execPath, [path.join(root, 'scripts/build.mjs')], { cwd: root, encoding: 'utf8' });
    if (built.status !== 0) {
      unbuilt = `node scripts/build.mjs failed:\n${built.stdout}${built.stderr}`;
      log(`  ${unbuilt}`);
    }
  },

  async setup(ctx: Ctx) {
    const { target } = ctx;
    if (unbuilt) throw new Error(unbuilt);
    const page = await fetch(`${target.baseUrl}/app/`);
    if (!page.ok || !(page.headers.get('content-type') ?? '').includes('text/html'))
      throw new Error(`GET /app/ answered ${page.status}: the backend serves no console (packages/console/dist/web missing when it started)`);
    const superAdmin = api(target.baseUrl, target.token);
    const plans = await superAdmin.get<Array<{ id: number }>>('/plans/all');
    const adminEmail = `admin@bench-console-${Date.now()}.test`;
    const created = await superAdmin.post<{ company: { id: number } }>('/companies', {
      name: 'Bench console tenant',
      email: adminEmail,
      planId: plans[0]!.id,
      password: 'bench-console-admin-1',
    });
    const companyId = created.company.id;
    const admin = api(
      target.baseUrl,
      (await api(target.baseUrl).post<{ token: string }>('/auth/login', { email: adminEmail, password: 'bench-console-admin-1' })).token,
    );
    const userIds: number[] = [];
    for (let i = 1; i <= 5; i++) {
      const u = await admin.post<{ id: number }>('/users', {
        name: `Operator ${i}`,
        email: `operator${i}-${companyId}@bench-console.test`,
        password: PASSWORD,
        profile: 'user',
      });
      userIds.push(u.id);
    }
    const connection = await admin.post<{ id: number }>('/chatapp/', { name: 'Bench console line', provider: 'sandbox', token: uniqueToken('console') });
    await admin.post('/socialnet/', { name: 'Bench console page', provider: 'sandbox', externalId: PAGE, secrets: { pageAccessToken: pageToken(PAGE) } });
    // The generated tenant gives open tickets to the second operator (and the fourth), none to the first.
    state = {
      companyId,
      email: `operator2-${companyId}@bench-console.test`,
      operatorId: userIds[1]!,
      connectionId: connection.id,
      userIds,
      seedMs: 0,
      bigIds: [],
    };
  },

  async offline(ctx: Ctx, sql: Sql) {
    const s = state!;
    const t0 = performance.now();
    // The list reads no message: one per ticket, then 1,000 in each of the operator's ten latest open conversations.
    await seedTenant(sql, { companyId: s.companyId, connectionId: s.connectionId, userIds: s.userIds, tickets: ctx.settings.tickets, messagesPerTicket: 1 });
    const big = await sql.query<{ id: number }>(
      `select id from tickets where company_id = $1 and user_id = $2 and status = 'open' order by id limit ${BIG_TICKETS}`,
      [s.companyId, s.operatorId],
    );
    s.bigIds = big.map((r) => Number(r.id));
    if (s.bigIds.length < BIG_TICKETS) throw new Error(`the operator has ${s.bigIds.length} open tickets, ${BIG_TICKETS} wanted`);
    const ids = `array[${s.bigIds.join(',')}]::int[]`;
    await sql.exec(`
      update tickets t set updated_at = now() - (b.n * interval '1 second'), last_message = 'Newest message of conversation ' || t.id
      from (select id, row_number() over (order by id) as n from tickets where id = any(${ids})) b where t.id = b.id;
      delete from messages where ticket_id = any(${ids});
      insert into messages (id, company_id, ticket_id, contact_id, connection_id, provider_message_id, from_me, body, status, created_at, updated_at)
      select md5('bench-console-message-' || t.id || '-' || g)::uuid, t.company_id, t.id, t.contact_id, t.connection_id, 'bench-console-' || t.id || '-' || g,
             g % 3 = 0,
             case when g = ${BIG_MESSAGES} then 'Newest message of conversation ' || t.id
                  else 'Mensagem ' || g || ' do atendimento ' || t.id || repeat(', com mais um detalhe do pedido', g % 7) end,
             'read', t.updated_at - (${BIG_MESSAGES} - g) * interval '3 minutes', t.updated_at - (${BIG_MESSAGES} - g) * interval '3 minutes'
      from tickets t cross join generate_series(1, ${BIG_MESSAGES}) g where t.id = any(${ids});
      analyze tickets; analyze messages;`);
    s.seedMs = performance.now() - t0;
    ctx.log(
      `  seeded ${ctx.settings.tickets.toLocaleString('en')} tickets and ${BIG_TICKETS} conversations of ${BIG_MESSAGES} messages in ${(s.seedMs / 1000).toFixed(1)} s`,
    );
  },

  async run(ctx: Ctx): Promise<Row[]> {
    const { target, settings } = ctx;
    const s = state!;
    const z = sizesFor(settings.quick);
    const browser = await launchChromium();
    const dir = mkdtempSync(path.join(os.tmpdir(), 'sd-bench-console-'));
    let server: NodeService | undefined;
    try {
      const ours = await measureConsole(ctx, browser, s, z);
      // The static page: the console's own bytes up to its first page of tickets, and the message pages it fetched.
      const { token } = await api(target.baseUrl).post<{ token: string }>('/auth/login', { email: s.email, password: PASSWORD });
      const messagePages: Record<number, string> = {};
      for (const id of s.bigIds)
        messagePages[id] = await (await fetch(`${target.baseUrl}/messages/${id}?pageNumber=1`, { headers: { authorization: `Bearer ${token}` } })).text();
      const served = async (r: Resource) => (await ours.code.get(r.name))?.toString('utf8') ?? '';
      const code = [...ours.bytes.signInPage, ...ours.bytes.firstTickets].filter((r) => isJs(r) || /\.css(\?|$)/.test(r.name));
      const site = await buildStaticPage(dir, {
        css: await Promise.all(code.filter((r) => r.name.endsWith('.css')).map(served)),
        js: await Promise.all(code.filter(isJs).map(served)),
        rawBytes: ours.bytes.documentBytes + sum(code, 'decodedBodySize'),
        tickets: ours.firstPage.tickets,
        messagePages,
        listRows: Math.ceil(z.scrollPx / 72) + 40,
      });
      const port = await freePort();
      server = new NodeService('static page', 'bench/servers/static-page.ts', { PORT: String(port), DIR: dir });
      server.start();
      ctx.extraWatched['static page (baseline)'] = () => server?.pid;
      await until('the static page server', () => reachable('127.0.0.1', port), 30_000);
      const url = `http://127.0.0.1:${port}`;
      const base = await measureBaseline(ctx, browser, site, url, s, z, ours.opens.length + ours.openErrors);
      return rowsOf(ctx, s, z, ours, base, site, browser.version());
    } finally {
      await browser.close().catch(() => undefined);
      await server?.stop();
      delete ctx.extraWatched['static page (baseline)'];
      if (existsSync(dir)) rmSync(dir, { recursive: true, force: true });
    }
  },
};

const mainOf = (m: MainThread) => `${ms(m.task)} ms in tasks, of which script ${ms(m.script)}, style ${ms(m.style)}, layout ${ms(m.layout)} ms`;
/** Chromium's main-thread counters over a measure's samples (medians of each) and its long tasks. */
function mainNote(samples: MainThread[], longTasks: number[]): string {
  const of = (k: keyof MainThread) => median(samples.map((m) => m[k]));
  return `main thread per sample (median): ${mainOf({ task: of('task'), script: of('script'), style: of('style'), layout: of('layout') })}; in long tasks ${ms(median(longTasks))} ms (p95 ${ms(summarize(longTasks).p95)})`;
}
const profileNote = (p: Profile | undefined) =>
  p
    ? `CPU profile of the page, taken apart from the measure: ${p.busyMs.toLocaleString('en')} ms busy; costliest (self time): ${p.top
        .slice(0, 6)
        .map((t) => `${t.fn} ${ms(t.ms)} ms${t.source ? ` [${t.source.slice(0, 70)}…]` : ''}`)
        .join(', ')}`
    : 'no CPU profile';

function rowsOf(ctx: Ctx, s: State, z: Sizes, f: ConsoleFigures, b: BaselineFigures, site: StaticPage, chromium: string): Row[] {
  const { settings } = ctx;
  const scale = `${settings.tickets.toLocaleString('en')} tickets${settings.quick ? ' (scaled down by --quick; the issue asks for 100,000)' : ''}`;
  const browser = `headless Chromium ${chromium}, a fresh profile (empty cache) for each sign-in, 1280×800`;
  const staticPage = `a static page of the same bytes (${kb(site.rawBytes)} raw, ${kb(site.encodedBytes)} compressed; the console's JavaScript inside a comment, fetched and scanned, not run) from Koa + koa-send`;
  const js = (rs: Resource[]) => rs.filter(isJs);
  const initial = [...js(f.bytes.signInPage), ...js(f.bytes.firstTickets)];
  const initialBytes = sum(initial, 'encodedBodySize');
  const files = (rs: Resource[]) => rs.map((r) => `${path.basename(new URL(r.name).pathname)} ${kb(r.encodedBodySize)}`).join(', ') || 'nothing more';
  const connectionsJs = js(f.bytes.connections);
  const fps = (x: { fps: number; longTasks: number; longestTaskMs: number; slowFrames: number; frames: number }) =>
    `${x.fps.toFixed(1)} fps, ${x.longTasks} long tasks${x.longTasks ? ` (longest ${ms(x.longestTaskMs)} ms)` : ''}, ${x.slowFrames} of ${x.frames} frames over 25 ms`;
  return [
    latencyRow({
      scenario: 'console: sign-in → first tickets',
      what: `submit of the sign-in form → the first page of the operator's tickets painted (${browser})`,
      load: `${z.signIns} sign-ins, one at a time, tenant of ${scale}`,
      ours: f.signIn,
      oursErrors: f.signInErrors,
      base: b.load,
      baseErrors: b.loadErrors,
      baseWhat: `${staticPage}: opening it → its rows painted`,
      baseLoad: `${z.signIns} loads, a fresh profile each`,
      q: 'p95',
      limitMs: 1000,
      details: { timeline: f.timelines['opening /app/ then signing in (from the navigation)'], legs: f.signInLegs, boot: f.bootLegs, main: f.main.signIn },
      notes: [
        `where the time goes (median / p95): ${legs(f.signInLegs)}`,
        mainNote(f.main.signIn, f.longTasks.signIn),
        `opening /app/ → the sign-in form painted: p50 ${ms(median(f.formPaint))} ms, p95 ${ms(summarize(f.formPaint).p95)} ms (the static page of the same bytes: p50 ${ms(median(b.load))}, p95 ${ms(summarize(b.load).p95)} ms); median / p95: ${legs(f.bootLegs)}; in long tasks ${ms(median(f.longTasks.boot))} ms`,
        `tenant seeded by SQL in ${(s.seedMs / 1000).toFixed(0)} s: ${scale}, ${BIG_TICKETS} conversations of ${BIG_MESSAGES.toLocaleString('en')} messages`,
      ],
    }),
    latencyRow({
      scenario: 'console: open a conversation of 1,000 messages',
      what: 'click on its row → its newest message painted in view (each conversation opened for the first time in the profile)',
      load: `${f.opens.length + f.openErrors} opens of ${BIG_TICKETS} conversations, one at a time`,
      ours: f.opens,
      oursErrors: f.openErrors,
      base: b.opens,
      baseErrors: b.openErrors,
      baseWhat:
        'in the static page: click on a row → fetch a file of the same bytes as the API\u2019s message page → its messages rendered and the newest painted in view',
      baseLoad: `${b.opens.length + b.openErrors} opens`,
      q: 'p95',
      limitMs: 300,
      notes: [`where the time goes (median / p95): ${legs(f.openLegs)}`, mainNote(f.main.open, f.longTasks.open), profileNote(f.profiles.open)],
      details: { timeline: f.timelines['opening a conversation (from the click)'], legs: f.openLegs, main: f.main.open, profile: f.profiles.open },
    }),
    latencyRow({
      scenario: 'console: inbound → its row',
      what: "a signed Messenger webhook from a new contact → its row painted in the operator's pending tab",
      load: `${z.inbound} webhooks, one at a time, each after the page went quiet`,
      ours: f.inbound,
      oursErrors: f.inboundErrors,
      base: b.inbound,
      baseErrors: b.inboundErrors,
      baseWhat: 'in the static page: POST to its server → a websocket frame → a row inserted and painted',
      baseLoad: `${z.inbound} frames, one at a time`,
      q: 'p99',
      limitMs: 250,
      notes: [`where the time goes (median / p95): ${legs(f.inboundLegs)}`, mainNote(f.main.inbound, f.longTasks.inbound)],
      details: { timeline: f.timelines['an inbound message (from its frame)'], legs: f.inboundLegs, main: f.main.inbound },
    }),
    {
      scenario: 'console: scrolling the ticket list',
      result: {
        what: `Chromium's wheel gesture over the open tab (${f.scroll.scrolledPx.toLocaleString('en')} px at ${SCROLL_SPEED} px/s): animation frames a second and long tasks`,
        load: `${f.scroll.rowsLoaded.toLocaleString('en')} rows loaded, ${f.scroll.pagesFetched} pages fetched while scrolling`,
        value: fps(f.scroll),
      },
      baseline: {
        what: `${staticPage.split(' (')[0]}: a static list of ${site.listRows.toLocaleString('en')} rows, the same gesture`,
        load: 'one gesture',
        value: fps(b.scroll),
      },
      ratio: b.scroll.fps > 0 ? `${Math.round((f.scroll.fps / b.scroll.fps) * 100)} % of the baseline's frame rate` : undefined,
      target: '60 fps, no long task over 50 ms',
      met: Math.round(f.scroll.fps) >= 60 && f.scroll.longTasks === 0,
      notes: [
        `longest frame ${ms(f.scroll.longestGapMs)} ms (baseline ${ms(b.scroll.longestGapMs)} ms); main thread over the gesture: ${mainOf(f.main.scroll[0]!)}`,
        profileNote(f.profiles.scroll),
      ],
      details: { ours: f.scroll, baseline: b.scroll, main: f.main.scroll[0], profile: f.profiles.scroll },
    },
    {
      scenario: 'console: initial JavaScript',
      result: {
        what: 'JavaScript fetched (compressed bytes) by a fresh profile from opening /app/ to the first page of tickets',
        load: 'one sign-in, Brotli as the backend serves it',
        value: `${kb(initialBytes)} in ${initial.length} files (${kb(sum(initial, 'decodedBodySize'))} uncompressed)`,
      },
      target: '≤ 250 kB compressed, the rest split by screen',
      met: initialBytes <= 250 * KB && connectionsJs.length > 0,
      notes: [
        `the sign-in page: ${files(js(f.bytes.signInPage))}`,
        `after signing in, for the inbox: ${files(js(f.bytes.firstTickets))}`,
        `opening a conversation: ${files(js(f.bytes.conversation))}`,
        `the connections screen: ${files(connectionsJs)}`,
      ],
    },
  ];
}
