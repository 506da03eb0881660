import type { Transaction } from './ports.js';

/**
 * Starts `work` as the transaction open around the caller commits, before the after-commit
 * callbacks registered later (they run in the order they were registered), and answers its
 * result. Realtime frames announcing a change use it when the same transaction also writes a
 * command to the outbox: registered before the command, the frame starts before the command is
 * relayed, so the answer the command brings back (a QR or pairing code, `CONNECTED`) is published
 * after it and never undone by it on the screens. Never settles if the transaction rolls back.
 */
export function atCommit<T>(tx: Transaction, work: () => Promise<T>): Promise<T> {
  return new Promise((resolve, reject) => tx.afterCommit(() => work().then(resolve, reject)));
}
