import { RequestContext, type MikroORM } from '@mikro-orm/core';
import type { BackgroundJobs } from '@servicedesk/core';

/**
 * Runs a job after the current turn, in a MikroORM request context of its own (one unit of work
 * per job, as a request has), so it never writes through the finished request's EntityManager.
 */
export class MikroOrmBackgroundJobs implements BackgroundJobs {
  private readonly running = new Set<Promise<void>>();

  constructor(
    private readonly orm: MikroORM,
    private readonly onError: (name: string, err: unknown) => void = (name, err) => {
      console.error(`background job ${name} failed`, err);
    },
  ) {}

  start(name: string, work: () => Promise<void>): void {
    const job: Promise<void> = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => RequestContext.create(this.orm.em, work))
      .catch((err: unknown) => this.onError(name, err))
      .finally(() => {
        this.running.delete(job);
      });
    this.running.add(job);
  }

  runningCount(): number {
    return this.running.size;
  }

  /** Resolves once every job started so far has ended (before closing the database). */
  async idle(): Promise<void> {
    while (this.running.size) await Promise.all([...this.running]);
  }
}
