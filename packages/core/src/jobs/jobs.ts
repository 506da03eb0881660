import { ValidationError } from '../shared/errors.js';
import { checkDefinitions, type JobDefinition } from './job.js';
import type { EnqueuedJob, JobStore } from './job-store.js';

export interface EnqueueJobInput<P = unknown> {
  readonly name: string;
  /** When it is due; a past moment means at once. */
  readonly at: Date;
  /** JSON-serializable; stored with the job and handed to its handler. */
  readonly payload?: P;
  /** Makes enqueueing idempotent per name: while a job with this name and key is pending, enqueueing it again keeps that one. */
  readonly key?: string;
}

export const MAX_JOB_KEY_LENGTH = 200;

/**
 * One-off jobs for a moment (a scheduled message, a campaign's batch): what use cases call. The
 * handler is the definition with the job's name. Called inside `Transaction.run`, the job is
 * enqueued only if the transaction commits. Runners find it at their next poll; nudge a runner
 * after the commit to have it sooner.
 */
export class Jobs {
  private known: ReadonlyMap<string, JobDefinition<any>> | undefined;

  /**
   * `definitions` may be given lazily: a composition root builds the handlers from use cases that
   * themselves enqueue through this object, so the list exists only after them.
   */
  constructor(
    private readonly deps: { readonly store: JobStore; readonly definitions: readonly JobDefinition<any>[] | (() => readonly JobDefinition<any>[]) },
  ) {
    // A list is checked at once; a lazy list when first needed.
    if (typeof deps.definitions !== 'function') this.known = checkDefinitions(deps.definitions);
  }

  private get definitions(): ReadonlyMap<string, JobDefinition<any>> {
    const { definitions } = this.deps;
    this.known ??= checkDefinitions(typeof definitions === 'function' ? definitions() : definitions);
    return this.known;
  }

  async enqueue<P>(input: EnqueueJobInput<P>): Promise<EnqueuedJob> {
    if (!this.definitions.has(input.name)) throw new ValidationError('ERR_UNKNOWN_JOB', { name: input.name });
    if (!(input.at instanceof Date) || Number.isNaN(input.at.getTime())) throw new ValidationError('ERR_INVALID_JOB_TIME');
    const key = input.key ?? null;
    if (key !== null && (typeof key !== 'string' || key.length === 0 || key.length > MAX_JOB_KEY_LENGTH)) {
      throw new ValidationError('ERR_INVALID_JOB_KEY');
    }
    return this.deps.store.enqueue({ name: input.name, runAt: new Date(input.at.getTime()), payload: jsonPayload(input.payload), key });
  }

  /** Removes the pending job of that name and key (a schedule deleted before its time); false when there is none. */
  async cancel(name: string, key: string): Promise<boolean> {
    return this.deps.store.cancel(name, key);
  }
}

/** The two job ports over one store: where jobs wait (`jobStore`), and the enqueue API (`jobQueue`) that knows `definitions`. */
export function jobPorts(store: JobStore, definitions: readonly JobDefinition<any>[] | (() => readonly JobDefinition<any>[]) = []) {
  return { jobStore: store, jobQueue: new Jobs({ store, definitions }) };
}

/** The payload as the handler will see it: what JSON keeps. Anything JSON cannot hold is refused now, not at run time. */
function jsonPayload(payload: unknown): unknown {
  if (payload === undefined) return null;
  let text: string | undefined;
  try {
    text = JSON.stringify(payload);
  } catch {
    throw new ValidationError('ERR_INVALID_JOB_PAYLOAD');
  }
  if (text === undefined) throw new ValidationError('ERR_INVALID_JOB_PAYLOAD');
  return JSON.parse(text) as unknown;
}
