import { createHash } from 'node:crypto';
import type { Clock } from '../shared/ports.js';

/**
 * An `Idempotency-Key` as stored, of the message API's sends or the operators' (whose connection is
 * the ticket's; the fingerprints tell the two apart): written in the transaction of the send it
 * answers for, so a retry after any crash finds it exactly when the send was committed.
 */
export interface IdempotencyRecord {
  readonly companyId: number;
  readonly connectionId: number;
  readonly key: string;
  /** A hash of the normalized request: the same key with another request is refused. */
  readonly fingerprint: string;
  /** The answer the first request got. */
  readonly answer: unknown;
  readonly createdAt: Date;
}

/** Idempotency keys, one per connection and key (unique in the database). */
export interface IdempotencyKeys {
  find(connectionId: number, key: string): Promise<IdempotencyRecord | null>;
  /** Answers false, writing nothing, when the key is already stored (a concurrent request committed it first). */
  add(record: IdempotencyRecord): Promise<boolean>;
  /** Removes the keys stored before `before`; answers how many. */
  removeOlderThan(before: Date): Promise<number>;
}

/** How long a key answers its first result. */
export const IDEMPOTENCY_KEY_TTL_MS = 24 * 3600_000;

/** JSON with object keys sorted, so that equal requests hash alike whatever the key order. */
function canonical(value: unknown): string {
  if (value === undefined) return 'null';
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
}

/** The fingerprint of a normalized request (sha256, hex). */
export function requestFingerprint(request: unknown): string {
  return createHash('sha256').update(canonical(request)).digest('hex');
}

/** The recurring job's use case: forgets keys older than their time to live. */
export class ExpireIdempotencyKeys {
  constructor(private readonly deps: { idempotencyKeys: IdempotencyKeys; clock: Clock }) {}

  execute(ttlMs: number = IDEMPOTENCY_KEY_TTL_MS): Promise<number> {
    return this.deps.idempotencyKeys.removeOlderThan(new Date(this.deps.clock.now().getTime() - ttlMs));
  }
}
