/** Latency figures in milliseconds. */
export interface Latency {
  readonly samples: number;
  readonly p50: number;
  readonly p95: number;
  readonly p99: number;
  readonly max: number;
  readonly mean: number;
}

export const EMPTY: Latency = { samples: 0, p50: NaN, p95: NaN, p99: NaN, max: NaN, mean: NaN };

/** Nearest-rank percentiles of the samples (milliseconds). */
export function summarize(samples: readonly number[]): Latency {
  if (samples.length === 0) return EMPTY;
  const sorted = Float64Array.from(samples).sort();
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
  let sum = 0;
  for (const v of sorted) sum += v;
  return { samples: sorted.length, p50: at(0.5), p95: at(0.95), p99: at(0.99), max: sorted[sorted.length - 1]!, mean: sum / sorted.length };
}

export const round = (v: number, digits = 2) => (Number.isFinite(v) ? Number(v.toFixed(digits)) : v);

/** Milliseconds since an arbitrary origin, sub-millisecond. */
export const now = () => performance.now();
