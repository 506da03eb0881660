import type { Cache } from '../shared/ports.js';

/** How long the generation counter lives; far longer than any cached answer. */
const GENERATION_TTL_SECONDS = 30 * 24 * 3600;

/** Object keys sorted at every level: equal parameters, one key, whatever order they came in. */
function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => a.localeCompare(b));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/**
 * Dashboard answers cached per company, route and normalised parameters (`dash:<companyId>:<generation>:…`).
 * Clearing a company's answers moves its generation on: every key of the old one is unreachable at
 * once and expires by itself, with no scan of the cache. The cache holds copies only: when it does
 * not answer, the figures are computed as if nothing were cached.
 */
export class DashboardCache {
  constructor(private readonly deps: { cache: Cache; ttlSeconds: number }) {}

  private generationKey(companyId: number) {
    return `dash:${companyId}:generation`;
  }

  /** The cached answer for these parameters, or `compute`'s, stored; `fresh` skips the lookup (and stores the new answer). */
  async remember<T>(companyId: number, route: string, params: unknown, fresh: boolean, compute: () => Promise<T>): Promise<T> {
    const { cache, ttlSeconds } = this.deps;
    if (ttlSeconds <= 0) return compute();
    let key: string | null = null;
    try {
      const generation = (await cache.get(this.generationKey(companyId))) ?? '0';
      key = `dash:${companyId}:${generation}:${route}:${stableJson(params)}`;
      const hit = fresh ? null : await cache.get(key);
      if (hit !== null) return JSON.parse(hit) as T;
    } catch {
      // The cache is a copy: without it, compute.
    }
    const value = await compute();
    if (key) await cache.set(key, JSON.stringify(value), ttlSeconds).catch(() => undefined);
    return value;
  }

  /** Drops every cached answer of the company (throws when the cache does not answer: nothing was dropped). */
  async clear(companyId: number): Promise<void> {
    await this.deps.cache.increment(this.generationKey(companyId), GENERATION_TTL_SECONDS);
  }
}
