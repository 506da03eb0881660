import type { Clock } from '../shared/ports.js';
import type { Connection } from './connection.js';
import type { Connections } from './ports.js';

/** How long a token lookup is reused. Another backend instance's change shows after at most this. */
export const TOKEN_LOOKUP_TTL_MS = 2000;
const MAX_ENTRIES = 10_000;

/**
 * Every official-API request looks its connection up by token digest: the same few rows, read
 * thousands of times a second. `tokenLookup` reuses such a lookup for a short time; only request
 * authentication uses it (uniqueness checks read the store). Changes made through `connections`
 * (add, update, remove) forget the affected entries at once; a change made by another instance
 * is seen within `TOKEN_LOOKUP_TTL_MS`. Unknown tokens are not remembered, so a new
 * connection's token works at once.
 */
export function memoizeTokenLookups(store: Connections, clock: Clock, ttlMs = TOKEN_LOOKUP_TTL_MS) {
  const memo = new Map<string, { connection: Connection; until: number }>();
  const forget = (id: number, digest?: string | null) => {
    if (digest) memo.delete(digest);
    for (const [key, e] of memo) if (e.connection.id === id) memo.delete(key);
  };
  const connections: Connections = {
    findById: (companyId, id) => store.findById(companyId, id),
    findByTokenDigest: (digest) => store.findByTokenDigest(digest),
    findByExternalId: (externalId) => store.findByExternalId(externalId),
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
      const now = clock.now().getTime();
      const hit = memo.get(digest);
      if (hit && hit.until > now) return structuredClone(hit.connection);
      memo.delete(digest);
      const found = await store.findByTokenDigest(digest);
      if (found) {
        if (memo.size >= MAX_ENTRIES) memo.delete(memo.keys().next().value!);
        memo.set(digest, { connection: structuredClone(found), until: now + ttlMs });
      }
      return found;
    },
  };
  return { connections, tokenLookup };
}
