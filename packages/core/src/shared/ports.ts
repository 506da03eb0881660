/** Wall-clock time; injected so that tests are deterministic. */
export interface Clock {
  now(): Date;
}

/** Opaque unique identifiers (uuids, token ids); injected so that tests are deterministic. */
export interface IdGenerator {
  uuid(): string;
}

/** Cryptographically strong random secrets (API tokens, refresh-token ids). */
export interface SecretGenerator {
  secret(bytes?: number): string;
}

/**
 * Runs work atomically. Repositories called inside `run` take part in the same transaction,
 * so a state change and the events or commands it causes are written together or not at all.
 */
export interface Transaction {
  run<T>(work: () => Promise<T>): Promise<T>;
  /**
   * Runs `callback` once the transaction open around the caller commits, never if it rolls back;
   * at once when none is open (the write before it is already committed). The callback must not
   * throw: it starts follow-up work (relaying the outbox), it cannot undo the commit.
   */
  afterCommit(callback: () => void): void;
  /**
   * Runs `work` in a unit of work of its own, apart from any transaction open around the caller:
   * follow-up work started after a commit (the outbox relay). On a one-connection database it is
   * background work, which a waiting request goes before.
   */
  runApart<T>(work: () => Promise<T>): Promise<T>;
}

/**
 * Shared, non-durable state between instances: throttling counters, idempotency keys, the
 * realtime replay window. Losing it must never lose business data. A key holds either a value
 * or a window, never both; TTLs are whole positive seconds.
 */
export interface Cache {
  get(key: string): Promise<string | null>;
  set(key: string, value: string, ttlSeconds: number): Promise<void>;
  /** Sets only when absent; true when this call set it (the first writer wins). */
  setIfAbsent(key: string, value: string, ttlSeconds: number): Promise<boolean>;
  delete(key: string): Promise<void>;
  /**
   * Adds `by` (1 unless given; negative to give back) to a counter, creating it from 0 with the TTL
   * when absent (later increments keep its expiry); returns the new value.
   */
  increment(key: string, ttlSeconds: number, by?: number): Promise<number>;
  /** Seconds until the key expires, or null when it does not exist. */
  ttl(key: string): Promise<number | null>;
  /** Appends an entry scored by `score` to a window capped at `maxEntries` (lowest scores dropped). */
  windowAppend(key: string, score: number, value: string, maxEntries: number, ttlSeconds: number): Promise<void>;
  /** Entries with a score strictly greater than `afterScore`, oldest first. */
  windowAfter(key: string, afterScore: number): Promise<Array<{ score: number; value: string }>>;
  /** The lowest score still held in the window, or null when empty. */
  windowLowest(key: string): Promise<number | null>;
}

export interface StoredBlob {
  readonly key: string;
  readonly size: number;
  readonly contentType: string;
}

/** File storage for uploads (logos, avatars, media). Keys are paths such as `company-1/logo.png`. */
export interface BlobStorage {
  put(key: string, data: Buffer, contentType: string): Promise<StoredBlob>;
  /**
   * Stores the content of a local file (an upload streamed to a temporary file) by streaming it,
   * never holding it whole in memory; the file itself is left in place for its owner to remove.
   */
  putFile(key: string, path: string, contentType: string): Promise<StoredBlob>;
  get(key: string): Promise<{ data: Buffer; contentType: string } | null>;
  delete(key: string): Promise<void>;
  /** Total bytes stored under a key prefix, for disk-usage reports. */
  usage(prefix: string): Promise<number>;
  /** The URL clients use to read a public blob. */
  publicUrl(key: string): string;
  /** The key behind a URL that `publicUrl` produced, or null for any other URL. */
  keyOfPublicUrl(url: string): string | null;
  /**
   * Where a client may read a public blob directly instead of through the backend (a CDN in front of
   * a company's bucket); null, or no such method, to have the backend serve it.
   */
  directUrl?(key: string): Promise<string | null>;
}

/** One-way password hashing with a vetted algorithm. */
export interface PasswordHasher {
  hash(plain: string): Promise<string>;
  verify(hash: string, plain: string): Promise<boolean>;
}

/**
 * A keyed one-way digest for secrets that must be looked up (API tokens): equal input, equal
 * digest, and without the server's key the digest reveals nothing.
 */
export interface SecretDigester {
  digest(secret: string): string;
  /** Constant-time check of a secret against a stored digest. */
  matches(secret: string, digest: string): boolean;
}

/**
 * Reversible encryption of secrets the server must send again (a speech-to-text provider's API
 * key): stored sealed, opened only to call the provider, never shown. `context` binds a sealed
 * value to where it belongs (its company), so a value copied to another company's row does not open.
 */
export interface SecretCipher {
  seal(plain: string, context: string): string;
  /** The secret, or null when it cannot be opened (sealed under another key or context, or altered). */
  open(sealed: string, context: string): string | null;
}
