import type { MikroORM } from '@mikro-orm/core';
import type { Transaction } from '@servicedesk/core';

/**
 * Runs work in a database transaction. MikroORM keeps the transaction's EntityManager in an
 * async context, and every repository resolves its EntityManager from that context, so all
 * writes inside `run` share the transaction (which also matters on single-connection PGlite).
 */
export class MikroOrmTransaction implements Transaction {
  constructor(private readonly orm: MikroORM) {}

  run<T>(work: () => Promise<T>): Promise<T> {
    return this.orm.em.getContext().transactional(() => work());
  }
}
