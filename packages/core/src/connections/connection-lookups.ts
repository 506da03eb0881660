import type { Clock } from '../shared/ports.js';
import type { Connection } from './connection.js';
import type { Connections } from './ports.js';

/** How long a lookup is reused. Another backend instance's change shows after at most this. */
export const CONNECTION_LOOKUP_TTL_MS = 2000;
const MAX_ENTRIES = 10_000;

/** A small map of lookups that lapse, oldest dropped first when full. */
class Lapsing<K> {
  private readonly entries = new Map<K, { value: Connection; until: number }>();
  constructor(
    private readonly clock: Clock,
    private readonly ttlMs: number,
  ) {}
  get(key: K): Connection | null {
    const hit = this.entries.get(key);
    if (hit && hit.until > this.clock.now().getTime()) return structuredClone(hit.value);
    this.entries.delete(key);
    return null;
  }
  set(key: K, value: Connection) {
    if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, { value: structuredClone(value), until: this.clock.now().getTime() + this.ttlMs });
  }
  forget(match: (key: K, value: Connection) => boolean) {
    for (const [key, e] of this.entries) if (match(key, e.value)) this.entries.delete(key);
  }
}

/**
 * Two reads repeat on every message: the official API looks its connection up by token digest,
 * and every inbound message reads its connection by id. `tokenLookup` and `recentLookup` reuse
 * such a lookup for a short time; only those two paths use them (uniqueness checks and screens
 * read the store). Changes made through `connections` (add, update, remove) forget the affected
 * entries at once; a change made by another instance is seen within `CONNECTION_LOOKUP_TTL_MS`.
 * Misses are not remembered, so a new connection works at once.
 */
export function memoizeConnectionLookups(store: Connections, clock: Clock, ttlMs = CONNECTION_LOOKUP_TTL_MS) {
  const byDigest = new Lapsing<string>(clock, ttlMs);
  const byId = new Lapsing<string>(clock, ttlMs);
  const forget = (id: number, digest?: string | null) => {
    byDigest.forget((key, c) => c.id === id || key === digest);
    byId.forget((_key, c) => c.id === id);
  };
  const connections: Connections = {
    findById: (companyId, id) => store.findById(companyId, id),
    findByTokenDigest: (digest) => store.findByTokenDigest(digest),
    findByExternalId: (externalId, kind) => store.findByExternalId(externalId, kind),
    list: (companyId) => store.list(companyId),
    countByCompany: (companyId) => store.countByCompany(companyId),
    async add(draft) {
      const added = await store.add(draft);
      forget(added.id, draft.tokenDigest);
      return added;
    },
    async update(connection) {
      forget(connection.id, connection.tokenDigest);
      await store.update(connection);
      forget(connection.id, connection.tokenDigest);
    },
    async remove(companyId, id) {
      forget(id);
      await store.remove(companyId, id);
      forget(id);
    },
  };
  const tokenLookup = {
    async findByTokenDigest(digest: string): Promise<Connection | null> {
      const hit = byDigest.get(digest);
      if (hit) return hit;
      const found = await store.findByTokenDigest(digest);
      if (found) byDigest.set(digest, found);
      return found;
    },
  };
  const recentLookup = {
    async findById(companyId: number | null, id: number): Promise<Connection | null> {
      const key = `${companyId ?? '*'}:${id}`;
      const hit = byId.get(key);
      if (hit) return hit;
      const found = await store.findById(companyId, id);
      if (found) byId.set(key, found);
      return found;
    },
  };
  return { connections, tokenLookup, recentLookup };
}
