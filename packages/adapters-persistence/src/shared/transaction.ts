import { AsyncLocalStorage } from 'node:async_hooks';
import { type MikroORM, RequestContext } from '@mikro-orm/core';
import type { Transaction } from '@servicedesk/core';
import type { SqlEntityManager } from '@mikro-orm/postgresql';
import { DeferredWrites } from './deferred-writes.js';
import { inBackground } from './priority-gate.js';

/** The callbacks waiting for the outermost transaction open in this async context (shared by every instance). */
const waiting = new AsyncLocalStorage<Array<() => void>>();

/**
 * Runs work in a database transaction. MikroORM keeps the transaction's EntityManager in an
 * async context, and every repository resolves its EntityManager from that context, so all
 * writes inside `run` share the transaction (which also matters on single-connection PGlite).
 * A transaction opened inside another joins it, and its after-commit callbacks wait for the outer one.
 * Writes whose answers nobody reads may wait for the transaction's next statement (DeferredWrites).
 */
export class MikroOrmTransaction implements Transaction {
  constructor(private readonly orm: MikroORM) {}

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (waiting.getStore()) {
      // The outer transaction's deferred writes go before the savepoint, so that its rollback cannot take them.
      await DeferredWrites.flush(this.orm.em.getContext() as unknown as SqlEntityManager);
      return this.orm.em.getContext().transactional(() => work());
    }
    const callbacks: Array<() => void> = [];
    const result = await waiting.run(callbacks, () =>
      DeferredWrites.run(() =>
        this.orm.em
          .getContext()
          .transactional(async (em) => {
            DeferredWrites.bind(em as unknown as SqlEntityManager);
            const value = await work();
            // What still waits for a next statement goes with the COMMIT.
            await DeferredWrites.beforeCommit(em as unknown as SqlEntityManager);
            return value;
          })
          .then((value) => {
            DeferredWrites.assertSent();
            return value;
          }),
      ),
    );
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

  /**
   * A fresh EntityManager context outside any transaction of the caller's async context, as
   * background work of the priority gate (on PGlite a waiting request goes first).
   */
  runApart<T>(work: () => Promise<T>): Promise<T> {
    return waiting.exit(() => inBackground(() => RequestContext.create(this.orm.em, work)));
  }
}
