import type { BackgroundJobs } from '../shared/background-jobs.js';

/** Runs each job on the next turn of the event loop, in this process; `idle()` waits for all of them. */
export class InlineBackgroundJobs implements BackgroundJobs {
  private readonly running = new Set<Promise<void>>();
  readonly failures: Array<{ name: string; error: unknown }> = [];

  start(name: string, work: () => Promise<void>): void {
    const job: Promise<void> = new Promise<void>((resolve) => setImmediate(resolve))
      .then(work)
      .catch((error: unknown) => {
        this.failures.push({ name, error });
      })
      .finally(() => {
        this.running.delete(job);
      });
    this.running.add(job);
  }

  runningCount(): number {
    return this.running.size;
  }

  /** Resolves once every job started so far (and any they started) has ended. */
  async idle(): Promise<void> {
    while (this.running.size) await Promise.all([...this.running]);
  }
}
