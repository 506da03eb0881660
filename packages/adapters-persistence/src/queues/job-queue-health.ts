import type { MikroORM } from '@mikro-orm/core';
import { subjectCounts, type JobQueueHealth, type OutboxBacklog } from '@servicedesk/core';
import { MikroOrmRepository } from '../shared/context.js';

/** How the composition root tells whether the broker and the cache answer; absent: in process, always there. */
export interface DependencyChecks {
  readonly brokerConnected?: () => Promise<boolean>;
  readonly cacheConnected?: () => Promise<boolean>;
}

/**
 * The outbox backlog read from the table (counts by subject family, the oldest entry's age), and
 * the broker's and cache's connectivity as the composition root tells it.
 */
export class MikroOrmJobQueueHealth extends MikroOrmRepository implements JobQueueHealth {
  constructor(
    orm: MikroORM,
    private readonly checks: DependencyChecks = {},
  ) {
    super(orm);
  }

  async outboxBacklog(): Promise<OutboxBacklog> {
    const rows = await this.em.execute<Array<{ subject: string; n: string | number; oldest: Date | string }>>(
      'select subject, count(*) as n, min(created_at) as oldest from outbox where published_at is null group by subject',
    );
    const oldest = rows.reduce<Date | null>((min, r) => {
      const at = new Date(r.oldest);
      return !min || at < min ? at : min;
    }, null);
    return {
      pending: rows.reduce((sum, r) => sum + Number(r.n), 0),
      oldestCreatedAt: oldest,
      bySubject: subjectCounts(
        rows.map((r) => r.subject),
        rows.map((r) => Number(r.n)),
      ),
    };
  }

  async brokerConnected(): Promise<boolean> {
    return this.checks.brokerConnected ? this.checks.brokerConnected() : true;
  }

  async cacheConnected(): Promise<boolean> {
    return this.checks.cacheConnected ? this.checks.cacheConnected() : true;
  }
}
