/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
// The functions passed to the page run in Chromium: the DOM's types, beside Node's.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type CDPSession, type Page } from 'playwright-core';

/** Debian's Chromium, driven through playwright-core (no browser download). */
export const CHROMIUM = '/usr/bin/chromium';

export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`no browser at ${CHROMIUM} (apt-get install chromium)`);
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-background-networking', '--disable-component-update'],
  });
}

/**
 * A fresh context (empty cache, no cookies) with the instrumentation below in every page; `watch`:
 * selectors whose first paint is timed from the document's start.
 */
export async function freshPage(browser: Browser, watch: string[] = [], width = 1280, height = 800): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ locale: 'en-US', viewport: { width, height } });
  context.setDefaultTimeout(15_000);
  // tsx (esbuild's keepNames) wraps named functions in `__name(...)`, which the functions sent to the page then call.
  await context.addInitScript({ content: 'globalThis.__name ??= (f) => f;' });
  await context.addInitScript(instrument, watch);
  return { context, page: await context.newPage() };
}

/** What the instrumentation keeps in `window.__bench`. */
export interface BenchState {
  longtasks: Array<[start: number, duration: number]>;
  /** Text awaited in a websocket frame, and when the first frame carrying it arrived. */
  marker: string | null;
  frameAt: number | null;
  submitAt: number | null;
  clickAt: number | null;
  /** Polls `check` on every animation frame; the frame's time when it first holds, null after `timeoutMs`. */
  when(check: () => boolean, timeoutMs: number): Promise<number | null>;
  /** When the first element matching each watched selector was painted, counted from the document's start. */
  firstPaint: Record<string, Promise<number | null>>;
  pending: Record<string, Promise<number | null>>;
  frames: number[];
  counting: boolean;
}

/**
 * Runs in every page before its own scripts: long tasks (PerformanceObserver `longtask`), the
 * arrival of a websocket frame carrying a marker, the moment a form is submitted or a ticket row
 * clicked, and a poll on animation frames, whose callback time is the start of the frame that
 * paints what the check found (the page's own changes land in the next frame's paint).
 */
function instrument(watch: string[]) {
  const w = window as unknown as { __bench: BenchState; WebSocket: typeof WebSocket };
  const b: BenchState = {
    longtasks: [],
    marker: null,
    frameAt: null,
    submitAt: null,
    clickAt: null,
    pending: {},
    frames: [],
    counting: false,
    when: (check, timeoutMs) =>
      new Promise((resolve) => {
        const start = performance.now();
        const tick = () => {
          let ok = false;
          try {
            ok = check();
          } catch {
            ok = false;
          }
          if (ok) resolve(performance.now());
          else if (performance.now() - start > timeoutMs) resolve(null);
          else requestAnimationFrame(tick);
        };
        requestAnimationFrame(tick);
      }),
    firstPaint: {},
  };
  w.__bench = b;
  // Chromium keeps 250 entries by default and drops later ones: an inbound run makes a thousand requests.
  performance.setResourceTimingBufferSize(1_000_000);
  for (const selector of watch) b.firstPaint[selector] = b.when(() => document.querySelector(selector) !== null, 60_000);
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) b.longtasks.push([e.startTime, e.duration]);
    }).observe({ type: 'longtask', buffered: true });
  } catch {
    /* no long task timing */
  }
  const Native = w.WebSocket;
  w.WebSocket = class extends Native {
    constructor(url: string | URL, protocols?: string | string[]) {
      super(url, protocols);
      this.addEventListener('message', (e: MessageEvent) => {
        if (b.marker && b.frameAt === null && typeof e.data === 'string' && e.data.includes(b.marker)) b.frameAt = performance.now();
      });
    }
  };
  addEventListener('submit', () => (b.submitAt = performance.now()), true);
  addEventListener(
    'click',
    (e) => {
      if ((e.target as Element | null)?.closest?.('button[data-testid^="ticket-"]')) b.clickAt = performance.now();
    },
    true,
  );
}

/** One resource the page fetched (Resource Timing), times from the document's start. */
export interface Resource {
  name: string;
  initiatorType: string;
  startTime: number;
  responseEnd: number;
  transferSize: number;
  encodedBodySize: number;
  decodedBodySize: number;
}

export const resources = (page: Page): Promise<Resource[]> =>
  page.evaluate(() =>
    performance.getEntriesByType('resource').map((e) => {
      const r = e as PerformanceResourceTiming;
      return {
        name: r.name,
        initiatorType: r.initiatorType,
        startTime: r.startTime,
        responseEnd: r.responseEnd,
        transferSize: r.transferSize,
        encodedBodySize: r.encodedBodySize,
        decodedBodySize: r.decodedBodySize,
      };
    }),
  );

/**
 * The offset of the page's clock (`performance.timeOrigin + performance.now()`) from this
 * process's, from the round trip with the smallest delay of a few.
 */
export async function clockOffset(page: Page): Promise<number> {
  let best = { rtt: Number.POSITIVE_INFINITY, offset: 0 };
  for (let i = 0; i < 7; i++) {
    const before = performance.timeOrigin + performance.now();
    const there = await page.evaluate(() => performance.timeOrigin + performance.now());
    const after = performance.timeOrigin + performance.now();
    if (after - before < best.rtt) best = { rtt: after - before, offset: there - (before + after) / 2 };
  }
  return best.offset;
}

/** Frames and long tasks while `act` runs (a scroll gesture): frames per second, the longest gap, long tasks over 50 ms. */
export async function framesDuring(page: Page, act: () => Promise<void>) {
  const from = await page.evaluate(() => {
    const b = (window as unknown as { __bench: BenchState }).__bench;
    b.frames = [];
    b.counting = true;
    const tick = (t: number) => {
      b.frames.push(t);
      if (b.counting) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
    return performance.now();
  });
  await act();
  return page.evaluate((from) => {
    const b = (window as unknown as { __bench: BenchState }).__bench;
    b.counting = false;
    const f = b.frames;
    const ms = f.length > 1 ? f[f.length - 1]! - f[0]! : 0;
    const gaps = f.slice(1).map((t, i) => t - f[i]!);
    const long = b.longtasks.filter(([start]) => start >= from);
    return {
      frames: f.length,
      ms,
      fps: ms > 0 ? ((f.length - 1) / ms) * 1000 : 0,
      longestGapMs: gaps.length ? Math.max(...gaps) : 0,
      /** Frames that took more than 1.5 frame intervals at 60 Hz (a frame dropped or more). */
      slowFrames: gaps.filter((g) => g > 25).length,
      longTasks: long.length,
      longestTaskMs: long.length ? Math.max(...long.map(([, d]) => d)) : 0,
    };
  }, from);
}

/** Main-thread time of the page's tasks, scripts, style recalculations and layouts (Chromium's own counters), in ms. */
export interface MainThread {
  task: number;
  script: number;
  style: number;
  layout: number;
}

const COUNTERS = { TaskDuration: 'task', ScriptDuration: 'script', RecalcStyleDuration: 'style', LayoutDuration: 'layout' } as const;

/** Chromium's main-thread counters (`Performance.getMetrics`) before and after `act`. */
export async function mainThreadDuring<T>(cdp: CDPSession, act: () => Promise<T>): Promise<{ result: T; main: MainThread }> {
  await cdp.send('Performance.enable');
  const read = async () => {
    const { metrics } = await cdp.send('Performance.getMetrics');
    const out: MainThread = { task: 0, script: 0, style: 0, layout: 0 };
    for (const m of metrics) if (m.name in COUNTERS) out[COUNTERS[m.name as keyof typeof COUNTERS]] = m.value * 1000;
    return out;
  };
  const before = await read();
  const result = await act();
  const after = await read();
  return {
    result,
    main: { task: after.task - before.task, script: after.script - before.script, style: after.style - before.style, layout: after.layout - before.layout },
  };
}

export interface ProfiledFunction {
  /** Its name and file (`va (inbox-….js)`), or Chromium's own `(program)`, `(garbage collector)`. */
  fn: string;
  url: string;
  /** Zero-based, as the profiler gives them. */
  line: number;
  column: number;
  ms: number;
  /** The start of its source, added by whoever has the file. */
  source?: string;
}

/**
 * A CPU profile of the page's main thread while `act` runs, summed by function (self time): the
 * ten costliest, with the file they come from (names in the console's bundle are minified;
 * Chromium's built-ins keep theirs), and the time outside JavaScript and in the garbage collector.
 */
export async function cpuProfileDuring(cdp: CDPSession, act: () => Promise<void>) {
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
  await cdp.send('Profiler.start');
  await act();
  const { profile } = await cdp.send('Profiler.stop');
  await cdp.send('Profiler.disable');
  const self = new Map<number, number>();
  const deltas = profile.timeDeltas ?? [];
  for (const [i, id] of (profile.samples ?? []).entries()) self.set(id, (self.get(id) ?? 0) + (deltas[i] ?? 0) / 1000);
  const byFunction = new Map<string, ProfiledFunction>();
  let total = 0;
  let idle = 0;
  for (const node of profile.nodes) {
    const t = self.get(node.id) ?? 0;
    if (!t) continue;
    const f = node.callFrame;
    const file = f.url ? path.basename(new URL(f.url).pathname) : '';
    const fn = `${f.functionName || '(anonymous)'}${file ? ` (${file})` : ''}`;
    if (fn === '(idle)') {
      idle += t;
      continue;
    }
    total += t;
    // Minified names repeat across files and positions: a function is its name and where it is.
    const key = `${fn}@${f.lineNumber}:${f.columnNumber}`;
    const entry = byFunction.get(key) ?? { fn, url: f.url, line: f.lineNumber, column: f.columnNumber, ms: 0 };
    entry.ms += t;
    byFunction.set(key, entry);
  }
  const top = [...byFunction.values()]
    .sort((a, b) => b.ms - a.ms)
    .slice(0, 10)
    .map((e) => ({ ...e, ms: Math.round(e.ms * 10) / 10 }));
  return { busyMs: Math.round(total), idleMs: Math.round(idle), top };
}
