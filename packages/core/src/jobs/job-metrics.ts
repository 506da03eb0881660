import type { JobMetrics } from './job.js';

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** Counters per definition name, kept by one runner for health reports. */
export class JobMetricsBook {
  private readonly byName = new Map<string, Mutable<JobMetrics>>();

  constructor(names: Iterable<string>) {
    for (const name of names) {
      this.byName.set(name, { runs: 0, failures: 0, running: 0, lastDurationMs: null, lastError: null, lastRunAt: null });
    }
  }

  started(name: string) {
    this.byName.get(name)!.running++;
  }

  ended(name: string, at: Date, durationMs: number, error?: string) {
    const m = this.byName.get(name)!;
    m.running--;
    m.runs++;
    m.lastDurationMs = durationMs;
    m.lastRunAt = at;
    if (error !== undefined) {
      m.failures++;
      m.lastError = error;
    }
  }

  snapshot(): Record<string, JobMetrics> {
    const out: Record<string, JobMetrics> = {};
    for (const [name, m] of this.byName) out[name] = { ...m };
    return out;
  }
}

/** An error as one line for the job's row and the metrics (stack traces belong in the logs). */
export function errorText(err: unknown): string {
  const text = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
  return text.length > 2000 ? `${text.slice(0, 1997)}...` : text;
}
