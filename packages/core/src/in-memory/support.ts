import { readFile } from 'node:fs/promises';
import type { RealtimeEvent } from '../events/realtime-event.js';
import type { RealtimeEvents } from '../realtime/ports.js';
import type { BlobStorage, Clock, IdGenerator, PasswordHasher, StoredBlob, Transaction } from '../shared/ports.js';

/** A clock that stands still until told to move. */
export class FixedClock implements Clock {
  constructor(private current = new Date('2026-01-01T12:00:00.000Z')) {}
  now() {
    return new Date(this.current.getTime());
  }
  advance(ms: number) {
    this.current = new Date(this.current.getTime() + ms);
  }
}

/** Predictable uuid-shaped ids for tests. */
export class SequentialIds implements IdGenerator {
  private n = 0;
  uuid() {
    return `00000000-0000-4000-8000-${String(++this.n).padStart(12, '0')}`;
  }
}

/**
 * Serializes units of work so that check-then-write sequences cannot interleave. It cannot
 * roll back; in-memory stores are for tests and embedding, the database adapter is the real one.
 */
export class SerialTransaction implements Transaction {
  private tail: Promise<unknown> = Promise.resolve();
  private depth = 0;
  private committed: Array<() => void> = [];
  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.depth > 0) return work();
    const result = this.tail.then(async () => {
      this.depth++;
      this.committed = [];
      try {
        const value = await work();
        const callbacks = this.committed;
        this.depth--;
        this.committed = [];
        for (const callback of callbacks) callback();
        return value;
      } catch (err) {
        this.depth--;
        this.committed = [];
        throw err;
      }
    });
    this.tail = result.catch(() => undefined);
    return result;
  }
  afterCommit(callback: () => void): void {
    if (this.depth > 0) {
      if (!this.committed.includes(callback)) this.committed.push(callback);
    } else callback();
  }
  /** One unit of work at a time here: the work runs as any other caller's. */
  runApart<T>(work: () => Promise<T>): Promise<T> {
    return work();
  }
}

/** Keeps every published event, typed, for assertions. */
export class RecordingRealtime implements RealtimeEvents<RealtimeEvent> {
  readonly events: Array<{ companyId: number } & RealtimeEvent> = [];
  async publish(companyId: number, event: RealtimeEvent) {
    this.events.push({ companyId, ...event });
  }
}

/** A fast, NON-secure hasher for unit tests only: production uses the argon2 adapter. */
export class InsecureTestPasswordHasher implements PasswordHasher {
  async hash(plain: string) {
    return `test-hash:${plain}`;
  }
  async verify(hash: string, plain: string) {
    return hash === `test-hash:${plain}`;
  }
}

export class InMemoryBlobStorage implements BlobStorage {
  readonly blobs = new Map<string, { data: Buffer; contentType: string }>();
  constructor(private readonly baseUrl = 'http://localhost/files') {}
  async put(key: string, data: Buffer, contentType: string): Promise<StoredBlob> {
    this.blobs.set(key, { data: Buffer.from(data), contentType });
    return { key, size: data.length, contentType };
  }
  /** Memory is where this adapter keeps blobs: the file is read whole. */
  async putFile(key: string, path: string, contentType: string): Promise<StoredBlob> {
    return this.put(key, await readFile(path), contentType);
  }
  async get(key: string) {
    return this.blobs.get(key) ?? null;
  }
  async delete(key: string) {
    this.blobs.delete(key);
  }
  async usage(prefix: string) {
    let total = 0;
    for (const [k, v] of this.blobs) if (k.startsWith(prefix)) total += v.data.length;
    return total;
  }
  publicUrl(key: string) {
    return `${this.baseUrl}/${key}`;
  }
  keyOfPublicUrl(url: string) {
    return url.startsWith(`${this.baseUrl}/`) ? url.slice(this.baseUrl.length + 1) : null;
  }
}
