import type { Transaction } from '../shared/ports.js';
import type { Outbox } from './ports.js';

/**
 * The outbox, relayed as soon as the transaction that wrote to it commits: every path that writes
 * an entry (sends, session commands, bot replies, integration deliveries, events taken from
 * providers) is relayed the same way, and nothing relays an entry that might still roll back. The
 * `outbox.relay` job is the safety net.
 */
export function relayAfterCommit(outbox: Outbox, tx: Transaction, relay: () => void): Outbox {
  return {
    async add(entry) {
      await outbox.add(entry);
      tx.afterCommit(relay);
    },
    async addOnce(entries) {
      await outbox.addOnce(entries);
      if (entries.length) tx.afterCommit(relay);
    },
    pending: (limit) => outbox.pending(limit),
    markPublished: (ids, at, options) => outbox.markPublished(ids, at, options),
    markHandled: (ids, at) => outbox.markHandled(ids, at),
    requeueUnhandled: (since) => outbox.requeueUnhandled(since),
  };
}
