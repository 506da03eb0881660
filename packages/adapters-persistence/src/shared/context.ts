import type { EntityManager, MikroORM } from '@mikro-orm/core';
import type { SqlEntityManager } from '@mikro-orm/postgresql';

/**
 * The EntityManager of the current unit of work: the open transaction's, else the request's.
 * Reads skip the identity map and writes go straight to SQL, so that domain objects are plain
 * data and nothing is flushed behind a use case's back.
 */
export abstract class MikroOrmRepository {
  constructor(protected readonly orm: MikroORM) {}

  protected get em(): SqlEntityManager {
    return this.orm.em.getContext() as unknown as SqlEntityManager;
  }

  protected get base(): EntityManager {
    return this.orm.em.getContext();
  }
}

/** Escapes LIKE wildcards in user input. */
export function likeTerm(search: string): string {
  return `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
