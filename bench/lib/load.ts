import autocannon, { type Request } from 'autocannon';
import { now, summarize, type Latency } from './stats.js';
import { sleep } from './proc.js';

/** What one load phase measured. */
export interface PhaseResult {
  /** Completed operations per second over the phase. */
  readonly throughput: number;
  readonly latency: Latency;
  readonly ok: number;
  readonly errors: number;
  /** How the load was applied, for the table. */
  readonly load: string;
  readonly durationMs: number;
  readonly notes?: string[];
}

/**
 * Closed loop with autocannon: `connections` keep-alive connections, each sending its next
 * request as soon as the previous answered, for `durationS`. Latency of 2xx answers only.
 */
export async function cannon(options: {
  url: string;
  connections: number;
  durationS: number;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  setupRequest?: Request['setupRequest'];
  onResponse?: Request['onResponse'];
}): Promise<PhaseResult & { non2xx: number; statusCodes: Record<string, number> }> {
  const latencies: number[] = [];
  const request: Request = {
    method: options.method ?? 'GET',
    ...(options.headers ? { headers: options.headers } : {}),
    ...(options.body !== undefined ? { body: options.body } : {}),
    ...(options.setupRequest ? { setupRequest: options.setupRequest } : {}),
    ...(options.onResponse ? { onResponse: options.onResponse } : {}),
  };
  const instance = autocannon({
    url: options.url,
    connections: options.connections,
    duration: options.durationS,
    timeout: 30,
    requests: [request],
  });
  instance.on('response', (_client: unknown, status: number, _bytes: number, ms: number) => {
    if (status >= 200 && status < 300) latencies.push(ms);
  });
  const result = await instance;
  const ok = result['2xx'];
  const codes: Record<string, number> = {};
  for (const [code, { count }] of Object.entries(result.statusCodeStats ?? {})) codes[code] = count;
  return {
    throughput: ok / result.duration,
    latency: summarize(latencies),
    ok,
    errors: result.errors + result.timeouts + result.non2xx,
    non2xx: result.non2xx,
    statusCodes: codes,
    load: `autocannon, ${options.connections} connections, ${options.durationS} s`,
    durationMs: result.duration * 1000,
  };
}

/**
 * Open loop at a fixed rate: operation i is due at start + i / rate, whatever the earlier ones
 * are doing, and its latency runs from when it was due (no coordinated omission). Bounded: at
 * most `maxInFlight` outstanding (more are counted as errors, not sent), `durationMs` of sending,
 * then at most `drainMs` for the stragglers, which count as errors when they do not finish.
 */
export async function paced(options: {
  rate: number;
  durationMs: number;
  drainMs: number;
  maxInFlight?: number;
  /** Resolves false on failure, true when done, or the time (performance.now()) it was done at. */
  task: (i: number) => Promise<boolean | number>;
}): Promise<PhaseResult & { dropped: number; unfinished: number }> {
  const { rate, durationMs, drainMs, task } = options;
  const maxInFlight = options.maxInFlight ?? 5000;
  const latencies: number[] = [];
  let ok = 0;
  let errors = 0;
  let dropped = 0;
  let inFlight = 0;
  let issued = 0;
  let lastDone = 0;
  const total = Math.floor((rate * durationMs) / 1000);
  const start = now();
  while (issued < total) {
    const elapsed = now() - start;
    const due = Math.min(total, Math.floor((elapsed * rate) / 1000) + 1);
    while (issued < due) {
      const i = issued++;
      const dueAt = start + (i * 1000) / rate;
      if (inFlight >= maxInFlight) {
        dropped++;
        continue;
      }
      inFlight++;
      task(i)
        .then(
          (good) => {
            const t = typeof good === 'number' ? good : now();
            if (good !== false) {
              ok++;
              latencies.push(t - dueAt);
              lastDone = Math.max(lastDone, t);
            } else errors++;
          },
          () => {
            errors++;
          },
        )
        .finally(() => {
          inFlight--;
        });
    }
    const nextDue = start + (issued * 1000) / rate;
    const wait = nextDue - now();
    // Timers are coarse (about 1 ms): sleep for the longer gaps, yield for the short ones.
    if (wait > 2) await sleep(Math.floor(wait - 1));
    else await new Promise<void>((r) => setImmediate(r));
  }
  const sendEnd = now();
  const drainDeadline = sendEnd + drainMs;
  while (inFlight > 0 && now() < drainDeadline) await sleep(5);
  const unfinished = inFlight;
  const span = Math.max((lastDone || sendEnd) - start, 1);
  return {
    throughput: (ok * 1000) / span,
    latency: summarize(latencies),
    ok,
    errors: errors + dropped + unfinished,
    dropped,
    unfinished,
    load: `open loop, ${rate}/s for ${Math.round(durationMs / 1000)} s`,
    durationMs: span,
  };
}

/** Closed loop without HTTP: `concurrency` workers each run `task` back to back for `durationMs`. */
export async function closedLoop(options: {
  concurrency: number;
  durationMs: number;
  task: (worker: number, i: number) => Promise<boolean>;
}): Promise<PhaseResult> {
  const latencies: number[] = [];
  let ok = 0;
  let errors = 0;
  let counter = 0;
  const start = now();
  const end = start + options.durationMs;
  await Promise.all(
    Array.from({ length: options.concurrency }, async (_, worker) => {
      while (now() < end) {
        const t0 = now();
        const good = await options.task(worker, counter++).catch(() => false);
        if (good) {
          ok++;
          latencies.push(now() - t0);
        } else errors++;
      }
    }),
  );
  const span = now() - start;
  return {
    throughput: (ok * 1000) / span,
    latency: summarize(latencies),
    ok,
    errors,
    load: `closed loop, ${options.concurrency} concurrent, ${Math.round(options.durationMs / 1000)} s`,
    durationMs: span,
  };
}
