import { ConflictError, ValidationError } from '../shared/errors.js';
import type { Cache } from '../shared/ports.js';
import type { IdempotencyKeys, IdempotencyRecord } from './idempotency-keys.js';

/** How long the cache marks a key as being processed (the stored answer lives in the database). */
const IDEMPOTENCY_IN_PROGRESS_TTL = 120;

/** A request's `Idempotency-Key` and the fingerprint of what it asks. */
export interface Idempotency {
  readonly key: string;
  readonly fingerprint: string;
}

/**
 * A send done once per `Idempotency-Key`: a retry answers what the first request got, a concurrent
 * one is refused while the first runs (and answered as it was once the first committed). The key
 * and its answer are written with the send, in its transaction (see `keep`), the cache only marks
 * a key in progress.
 */
export class IdempotentSends {
  constructor(private readonly deps: { cache: Cache; idempotencyKeys: IdempotencyKeys }) {}

  /** Runs `send` unless the key already answered; `scope` tells the cache's marks of different sends apart. */
  async once<T>(scope: string, connectionId: number, idem: Idempotency, send: () => Promise<T>): Promise<T> {
    const first = await this.firstAnswer<T>(connectionId, idem);
    if (first) return first;
    const { cache } = this.deps;
    const marker = `idem:${scope}:${connectionId}:${idem.key}`;
    if (!(await cache.setIfAbsent(marker, 'pending', IDEMPOTENCY_IN_PROGRESS_TTL))) throw new ConflictError('ERR_IDEMPOTENT_REQUEST_IN_PROGRESS');
    try {
      return await send();
    } catch (err) {
      // Another instance committed the same key first: answer as it did.
      const answer = err instanceof ConflictError && err.code === 'ERR_IDEMPOTENT_REQUEST_IN_PROGRESS' ? await this.firstAnswer<T>(connectionId, idem) : null;
      if (answer) return answer;
      throw err;
    } finally {
      await cache.delete(marker).catch(() => undefined);
    }
  }

  /** The stored answer of a key, or null; the same key with another request is refused. */
  async firstAnswer<T>(connectionId: number, idem: Idempotency): Promise<T | null> {
    const row = await this.deps.idempotencyKeys.find(connectionId, idem.key);
    if (!row) return null;
    if (row.fingerprint !== idem.fingerprint) throw new ValidationError('ERR_IDEMPOTENCY_KEY_REUSED');
    // Stored as JSON: the answer is the body the first request got.
    return row.answer as T;
  }

  /** Stores the key with its answer, inside the send's transaction; a key another request committed first is a conflict. */
  async keep(record: IdempotencyRecord): Promise<void> {
    if (!(await this.deps.idempotencyKeys.add(record))) throw new ConflictError('ERR_IDEMPOTENT_REQUEST_IN_PROGRESS');
  }
}
