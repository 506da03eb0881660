/**
 * Work that outlives the request that started it (a large import). The adapter runs it after
 * the caller returns, in a unit of work of its own; the work reports its own failures (the
 * adapter only logs what escapes). Start jobs outside `Transaction.run`: a job must not
 * inherit its caller's transaction.
 */
export interface BackgroundJobs {
  start(name: string, work: () => Promise<void>): void;
  /** How many jobs are running now (a count for health reports). */
  runningCount(): number;
}
