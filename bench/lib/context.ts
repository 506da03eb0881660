import type { Latency } from './stats.js';
import type { Sql } from './sql.js';
import type { Target } from './target.js';

/** The sizes of one run: `--quick` is a smoke of about a minute per target, the default the real thing. */
export interface Settings {
  readonly quick: boolean;
  /** Length of every measured load phase. */
  readonly phaseMs: number;
  /** How long stragglers (events, deliveries) are awaited after a phase before they count as errors. */
  readonly drainMs: number;
  /** At most this long before each scenario, waiting for backend and runtime to go quiet. */
  readonly quiesceMs: number;
  /** Closed-loop concurrency of the HTTP throughput phases and their baselines. */
  readonly connections: number;
  /** Embedded target: the rate at which send and inbound must keep p99 < 100 ms. */
  readonly embeddedRate: number;
  readonly inboundContacts: number;
  /** Deliver is measured through one connection, then spread over this many. */
  readonly deliverConnections: number;
  readonly fanoutClients: number;
  readonly fanoutRounds: number;
  readonly sessions: number;
  readonly tickets: number;
  readonly messagesPerTicket: number;
}

export function settingsFor(quick: boolean, overrides: Partial<Settings> = {}): Settings {
  const base: Settings = quick
    ? {
        quick,
        phaseMs: 2_000,
        drainMs: 10_000,
        quiesceMs: 20_000,
        connections: 32,
        embeddedRate: 50,
        inboundContacts: 10_000,
        deliverConnections: 8,
        fanoutClients: 1000,
        fanoutRounds: 20,
        sessions: 100,
        tickets: 5_000,
        messagesPerTicket: 10,
      }
    : {
        quick,
        phaseMs: 20_000,
        drainMs: 60_000,
        quiesceMs: 180_000,
        connections: 32,
        embeddedRate: 50,
        inboundContacts: 10_000,
        deliverConnections: 8,
        fanoutClients: 1000,
        fanoutRounds: 200,
        sessions: 100,
        tickets: 100_000,
        messagesPerTicket: 10,
      };
  return { ...base, ...overrides };
}

/** One measured side (ours, or the baseline beside it). */
export interface Measure {
  readonly what: string;
  readonly load: string;
  readonly throughput?: number;
  readonly unit?: string;
  readonly latency?: Latency;
  readonly errors?: number;
  /** A single figure instead of throughput and latency (memory). */
  readonly value?: string;
}

/** One line of the results table. */
export interface Row {
  readonly scenario: string;
  readonly result: Measure;
  readonly baseline?: Measure;
  /** How we compare with the baseline, in words (`48 % of baseline throughput`, `p99 ×3.1`). */
  readonly ratio?: string;
  readonly target: string;
  /** null when the issue sets no target for this configuration. */
  readonly met: boolean | null;
  peakRss?: Record<string, number>;
  readonly notes?: string[];
  /** Details kept in the JSON only (query plans, status codes). */
  readonly details?: Record<string, unknown>;
}

export interface Ctx {
  readonly target: Target;
  readonly settings: Settings;
  readonly log: (line: string) => void;
  /** RSS (bytes) of the processes just after start, before any load. */
  readonly idle: Record<string, number | undefined>;
  /** Also measure idle memory of the built JavaScript (`--compiled`). */
  readonly compiled: boolean;
  /** Figures one scenario leaves for a later one (the sustained delivery rate measured by send). */
  readonly shared: Record<string, number>;
  /** Extra processes a scenario starts (baseline servers), watched while it runs. */
  readonly extraWatched: Record<string, () => number | undefined>;
}

export interface Scenario {
  readonly name: string;
  /** Before any target starts, in the source tree benched (a build the servers must find when they start). */
  prepare?(root: string, log: (line: string) => void): void | Promise<void>;
  /** Online set-up through the HTTP API (companies, users, connections). */
  setup?(ctx: Ctx): Promise<void>;
  /** Direct SQL work (seeding, SQL baselines); on the embedded target the backend is stopped meanwhile. */
  offline?(ctx: Ctx, sql: Sql): Promise<void>;
  run(ctx: Ctx): Promise<Row[]>;
}

export const ratioOfThroughput = (ours?: number, base?: number) =>
  ours !== undefined && base ? `${Math.round((ours / base) * 100)} % of baseline throughput` : undefined;

export const ratioOfP99 = (ours?: Latency, base?: Latency) =>
  ours && base && Number.isFinite(ours.p99) && base.p99 > 0 ? `p99 ×${(ours.p99 / base.p99).toFixed(1)} of baseline` : undefined;

export const both = (...parts: Array<string | undefined>) => parts.filter(Boolean).join('; ') || undefined;

/**
 * The rate of an open-loop phase: the target's rate, or 80 % of the most the system sustained
 * when that is below it (flooding it would only measure a queue, and leave it for the next
 * scenario). Then the target is missed whatever the latency.
 */
export function sustainableRate(targetRate: number, sustained: number | undefined): { rate: number; capped: boolean } {
  if (sustained === undefined || !Number.isFinite(sustained) || sustained >= targetRate) return { rate: targetRate, capped: false };
  return { rate: Math.max(5, Math.floor(sustained * 0.8)), capped: true };
}

/**
 * The "at a rate" targets of the write path: on PostgreSQL half of the throughput the max target
 * asks for (50 % of the same-run direct-SQL baseline, so a quarter of it) with the p99 given; on
 * the embedded default 50 msg/s with p99 < 100 ms.
 */
export function writeRateTarget(
  kind: 'embedded' | 'postgres',
  baselineThroughput: number,
  settings: Settings,
  p99Ms: number,
): { rate: number; p99Ms: number; label: string } {
  if (kind === 'embedded') return { rate: settings.embeddedRate, p99Ms: 100, label: `p99 < 100 ms at ${settings.embeddedRate}/s (embedded)` };
  const rate = Math.max(5, Math.floor(baselineThroughput * 0.25));
  return { rate, p99Ms, label: `p99 < ${p99Ms} ms at half of 50 % of the baseline (${rate}/s)` };
}
