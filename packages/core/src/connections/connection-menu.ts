import { assertQueues, checkPrompt, type PromptLookup } from '../queues/manage-queues.js';
import type { Queues } from '../queues/ports.js';
import type { ConnectionView } from './connection.js';
import { withConnectionQueues, type ConnectionWithQueues } from './connection-queues.js';

/** What answers a connection's contacts besides its operators: the queues its menu offers, its AI assistant. */
export class ConnectionMenu {
  constructor(private readonly deps: { readonly queues: Queues; readonly prompts?: PromptLookup }) {}

  /** The prompt, one of the company's (404 `ERR_NO_PROMPT_FOUND`), or null. */
  prompt(companyId: number, promptId: number | null): Promise<number | null> {
    return checkPrompt(this.deps.prompts, companyId, promptId);
  }

  /** The queues, each one of the company's (404 `ERR_QUEUE_NOT_FOUND`), duplicates collapsed. */
  queueIds(companyId: number, queueIds: readonly number[]): Promise<number[]> {
    return assertQueues(this.deps.queues, companyId, queueIds);
  }

  /** Replaces the queues the connection's menu offers. */
  setQueues(companyId: number, connectionId: number, queueIds: readonly number[]): Promise<void> {
    return this.deps.queues.setConnectionQueues(companyId, connectionId, queueIds);
  }

  /** The connections as their routes answer them, with their queues. */
  withQueues(companyId: number, views: readonly ConnectionView[]): Promise<ConnectionWithQueues[]> {
    return withConnectionQueues(this.deps.queues, companyId, views);
  }
}
