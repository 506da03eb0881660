import type { RealtimeEvents } from '../realtime/ports.js';
import type { MessageUpdateEvent } from './message-events.js';
import type { Clock } from '../shared/ports.js';
import { publishMessageUpdate, type MessageContexts } from './message-view.js';
import type { Messages } from './ports.js';

export const SEND_DEADLINE_REASON = 'ERR_SEND_DEADLINE_EXCEEDED';
const BATCH = 500;

/**
 * A send waits in the broker until a channel runtime holds its session; a runtime never sends
 * one past the deadline. When no runtime takes it at all (none running, or none that can serve
 * the connection), this sweep fails it with a clear reason, so operators see it did not go out.
 * `olderThanMs` should be the deadline plus a margin for a send in flight at the deadline.
 */
export class ExpireStaleSends {
  constructor(private readonly deps: { messages: Messages; clock: Clock; realtime: RealtimeEvents<MessageUpdateEvent>; contexts?: MessageContexts }) {}

  async execute(olderThanMs: number): Promise<number> {
    const now = this.deps.clock.now();
    const before = new Date(now.getTime() - olderThanMs);
    let total = 0;
    for (;;) {
      const failed = await this.deps.messages.failStaleSends(before, SEND_DEADLINE_REASON, now, BATCH);
      for (const m of failed) await publishMessageUpdate(this.deps.realtime, m, this.deps.contexts);
      total += failed.length;
      if (failed.length < BATCH) return total;
    }
  }
}
