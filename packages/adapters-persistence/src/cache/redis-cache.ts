import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { ServiceUnavailableError, type Cache } from '@servicedesk/core';

/** Milliseconds for a TTL in seconds; fractional TTLs are honoured and anything positive lives at least 1 ms. */
function ttlMillis(ttlSeconds: number): number {
  if (!Number.isFinite(ttlSeconds)) throw new RangeError(`Invalid cache TTL: ${ttlSeconds}`);
  return Math.max(1, Math.ceil(ttlSeconds * 1000));
}

/** A score as Redis writes it in ZRANGEBYSCORE bounds. */
function scoreArg(score: number): string {
  if (Number.isNaN(score)) throw new RangeError('Invalid window score: NaN');
  if (score === Infinity) return '+inf';
  if (score === -Infinity) return '-inf';
  return String(score);
}

/** A score as Redis returns it (`%.17g`, or `inf` / `-inf`). */
function parseScore(raw: string): number {
  if (raw === 'inf' || raw === '+inf') return Infinity;
  if (raw === '-inf') return -Infinity;
  return Number(raw);
}

/** Length of the unique tag that prefixes each window member: 12 hex digits of sequence, 8 of randomness, then `:`. */
const TAG_LENGTH = 21;

/**
 * The Cache port on Redis, shared by every instance of the backend.
 *
 * - Plain values are strings written with `SET … PX`; `setIfAbsent` is `SET … NX PX`, so the first writer wins atomically.
 * - `increment` is `MULTI; SET key 0 PX ttl NX; INCRBY key by; EXEC`: the counter is created with the TTL in the same
 *   transaction that counts, and later increments keep the original expiry (INCRBY does not touch it).
 * - `ttl` uses PTTL rounded up to whole seconds (as InMemoryCache does). A key without an expiry (PTTL -1) also gives
 *   null: this adapter never writes one, and callers treat null as "no known expiry".
 * - Windows are sorted sets. Each member is `<tag>:<value>` with a unique tag, so equal values appended twice stay two
 *   entries, as in InMemoryCache. Entries with equal scores come back in tag order: insertion order for appends made
 *   through the same RedisCache, unspecified across instances.
 * - Plain values and windows share one key space in Redis: do not use the same key for both (Redis answers WRONGTYPE).
 */
export class RedisCache implements Cache {
  private sequence = 0;
  private readonly instanceTag = randomBytes(4).toString('hex');

  constructor(
    private readonly redis: Redis,
    private readonly prefix = 'sd:',
  ) {}

  private k(key: string) {
    return `${this.prefix}${key}`;
  }

  async get(key: string) {
    return this.redis.get(this.k(key));
  }

  async set(key: string, value: string, ttlSeconds: number) {
    await this.redis.set(this.k(key), value, 'PX', ttlMillis(ttlSeconds));
  }

  async setIfAbsent(key: string, value: string, ttlSeconds: number) {
    return (await this.redis.set(this.k(key), value, 'PX', ttlMillis(ttlSeconds), 'NX')) === 'OK';
  }

  async delete(key: string) {
    await this.redis.del(this.k(key));
  }

  async increment(key: string, ttlSeconds: number, by = 1) {
    const k = this.k(key);
    const results = await this.redis.multi().set(k, '0', 'PX', ttlMillis(ttlSeconds), 'NX').incrby(k, by).exec();
    return Number(this.execResult(results, 1));
  }

  async ttl(key: string) {
    const ms = await this.redis.pttl(this.k(key));
    return ms < 0 ? null : Math.ceil(ms / 1000);
  }

  async windowAppend(key: string, score: number, value: string, maxEntries: number, ttlSeconds: number) {
    if (Number.isNaN(score)) throw new RangeError('Invalid window score: NaN');
    const k = this.k(key);
    const keep = Math.max(0, Math.floor(maxEntries));
    const results = await this.redis
      .multi()
      .zadd(k, scoreArg(score), this.tag() + value)
      // Ranks ascend with the score: drop everything below the `keep` highest.
      .zremrangebyrank(k, 0, -keep - 1)
      .pexpire(k, ttlMillis(ttlSeconds))
      .exec();
    this.execResult(results, 2);
  }

  async windowAfter(key: string, afterScore: number) {
    if (Number.isNaN(afterScore)) return [];
    const raw = await this.redis.zrangebyscore(this.k(key), `(${scoreArg(afterScore)}`, '+inf', 'WITHSCORES');
    const entries: Array<{ score: number; value: string }> = [];
    for (let i = 0; i + 1 < raw.length; i += 2) entries.push({ score: parseScore(raw[i + 1]!), value: raw[i]!.slice(TAG_LENGTH) });
    return entries;
  }

  async windowLowest(key: string) {
    const raw = await this.redis.zrange(this.k(key), 0, 0, 'WITHSCORES');
    return raw[1] === undefined ? null : parseScore(raw[1]);
  }

  private tag() {
    this.sequence = (this.sequence + 1) % 0x1000000000000;
    return `${this.sequence.toString(16).padStart(12, '0')}${this.instanceTag}:`;
  }

  /** The reply of command `index` in an EXEC result, throwing when the transaction or that command failed. */
  private execResult(results: Array<[Error | null, unknown]> | null, index: number): unknown {
    if (!results) throw new Error('Redis transaction was aborted');
    for (const [error] of results) if (error) throw error;
    const entry = results[index];
    if (!entry) throw new Error('Redis transaction returned too few replies');
    return entry[1];
  }
}

/**
 * A RedisCache on its own connection, for the backend's composition root. ioredis is imported
 * here, not with the module, so that a backend without REDIS_URL never loads it.
 */
export async function createRedisCache(
  url: string,
  options: { onError?: (err: Error) => void; prefix?: string } = {},
): Promise<{ cache: Cache; connected(timeoutMs?: number): Promise<boolean>; close(): Promise<void> }> {
  const { Redis } = await import('ioredis');
  const redis = new Redis(url, {
    lazyConnect: false,
    // A command waits for one reconnection at most, and none while Redis is known to be down (below).
    maxRetriesPerRequest: 1,
    retryStrategy: (times) => Math.min(times * 100, 1000),
    commandTimeout: 2000,
  });
  // Handled here: without a listener, ioredis prints "Unhandled error event" at every reconnection attempt.
  let reported = false;
  redis.on('error', (err: Error) => {
    if (!reported) options.onError?.(err);
    reported = true;
  });
  redis.on('ready', () => {
    reported = false;
  });
  const down = () => redis.status === 'reconnecting' || redis.status === 'close' || redis.status === 'end';
  return {
    // Keys `<prefix>:sd:…` with a deployment's prefix (REDIS_PREFIX), `sd:…` without.
    cache: unavailableWhenDown(new RedisCache(redis, options.prefix ? `${options.prefix}:sd:` : 'sd:'), down),
    /** Whether Redis answers a PING within `timeoutMs` (for `GET /debug-queues`). */
    async connected(timeoutMs = 1000) {
      if (redis.status !== 'ready') return false;
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), timeoutMs);
      });
      try {
        return await Promise.race([
          redis.ping().then(
            () => true,
            () => false,
          ),
          late,
        ]);
      } finally {
        clearTimeout(timer);
      }
    },
    async close() {
      if (redis.status === 'ready') await redis.quit().catch(() => redis.disconnect());
      else redis.disconnect();
    },
  };
}

/**
 * The cache with every failure to reach Redis (refused, reconnecting, timed out) as a
 * ServiceUnavailableError `ERR_CACHE_UNAVAILABLE` — 503 through the error table, not 500 — and
 * without waiting while Redis is known to be down. Redis's own refusals (`ReplyError`, e.g.
 * WRONGTYPE) and invalid arguments (`RangeError`) are bugs and pass through unchanged.
 */
export function unavailableWhenDown(cache: Cache, down: () => boolean): Cache {
  const unavailable = (err: unknown) => {
    if (err instanceof RangeError || (err as Error | undefined)?.name === 'ReplyError') throw err;
    throw new ServiceUnavailableError('ERR_CACHE_UNAVAILABLE');
  };
  return new Proxy(cache, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        if (down()) return Promise.reject(new ServiceUnavailableError('ERR_CACHE_UNAVAILABLE'));
        return Promise.resolve()
          .then(() => (value as (...a: unknown[]) => Promise<unknown>).apply(target, args))
          .catch(unavailable);
      };
    },
  });
}
