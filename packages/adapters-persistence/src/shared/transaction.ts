import { AsyncLocalStorage } from 'node:async_hooks';
import type { MikroORM } from '@mikro-orm/core';
import type { Transaction } from '@servicedesk/core';

/** The callbacks waiting for the outermost transaction open in this async context (shared by every instance). */
const waiting = new AsyncLocalStorage<Array<() => void>>();

/**
 * Runs work in a database transaction. MikroORM keeps the transaction's EntityManager in an
 * async context, and every repository resolves its EntityManager from that context, so all
 * writes inside `run` share the transaction (which also matters on single-connection PGlite).
 * A transaction opened inside another joins it, and its after-commit callbacks wait for the outer one.
 */
export class MikroOrmTransaction implements Transaction {
  constructor(private readonly orm: MikroORM) {}

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (waiting.getStore()) return this.orm.em.getContext().transactional(() => work());
    const callbacks: Array<() => void> = [];
    const result = await waiting.run(callbacks, () => this.orm.em.getContext().transactional(() => work()));
    // Outside the transaction's async context: follow-up work opens units of work of its own.
    for (const callback of callbacks) callback();
    return result;
  }

  afterCommit(callback: () => void): void {
    const callbacks = waiting.getStore();
    if (callbacks) {
      if (!callbacks.includes(callback)) callbacks.push(callback);
    } else {
      callback();
    }
  }
}
