import type { Message } from '../messages/message.js';
import type { Clock, Transaction } from '../shared/ports.js';
import type { Tickets } from '../tickets/ports.js';
import type { Ticket } from '../tickets/ticket.js';
import type { TicketPlace } from '../tickets/ticket-events.js';
import type { FlowCalls } from './flow-calls.js';
import type { FlowCallPayload, FlowTimerPayload } from './flow-jobs.js';
import type { FlowInput } from './flow-run.js';
import type { FlowRunSteps } from './flow-run-steps.js';
import { ACTIVE_RUN_STATUSES, type FlowRun, type FlowRuns } from './flow-runs.js';
import type { FlowTargets } from './flow-target.js';

const isActive = (r: FlowRun) => ACTIVE_RUN_STATUSES.includes(r.status);

/**
 * The runs' jobs: a timer's end and a call's result fed to the run that still waits for them, in a
 * transaction of their own (the ticket saved when the step changed it, the operators told after
 * the commit). A run whose ticket was taken meanwhile is cancelled.
 */
export class FlowRunJobs {
  constructor(
    private readonly deps: {
      readonly runs: Pick<FlowRuns, 'findById'>;
      readonly tickets: Pick<Tickets, 'update'>;
      readonly targets: FlowTargets;
      readonly steps: FlowRunSteps;
      readonly calls: FlowCalls;
      readonly tx: Transaction;
      readonly clock: Clock;
      /** Tells the operators, after the commit, about a ticket changed outside the inbound path (from `before`) and the messages sent. */
      readonly announce: (ticket: Ticket, sent: readonly Message[], before: TicketPlace | 'created') => Promise<void>;
    },
  ) {}

  /** A timer's job: the interval ended or the question timed out, unless the run moved on or the ticket was taken. */
  async onTimer(p: FlowTimerPayload): Promise<void> {
    await this.fromJob(p, { [p.input]: true } as FlowInput);
  }

  /** A call's job: the call is made outside any transaction, its result fed to the run if it still waits for it. */
  async onCall(p: FlowCallPayload): Promise<void> {
    const run = await this.deps.runs.findById(p.companyId, p.runId);
    if (!run || run.seq !== p.seq || !isActive(run)) return;
    await this.fromJob(p, await this.deps.calls.make(run, p));
  }

  private async fromJob(p: { companyId: number; runId: number; seq: number }, input: FlowInput): Promise<void> {
    const { runs, tickets, targets, steps, tx } = this.deps;
    const done = await tx.run(async () => {
      const run = await runs.findById(p.companyId, p.runId);
      if (!run || run.seq !== p.seq || !isActive(run)) return null;
      const target = await targets.of(run);
      if (!target) {
        await steps.finish(run, 'cancelled', 'cancel');
        return null;
      }
      const { ticket } = target;
      const place: TicketPlace = { status: ticket.status, userId: ticket.userId, queueId: ticket.queueId };
      const before = JSON.stringify(ticket);
      const sent = await steps.advance(run, input, target, 0, null);
      if (sent.length) Object.assign(ticket, { lastMessage: sent[sent.length - 1]!.body });
      const changed = JSON.stringify(ticket) !== before;
      if (changed) await tickets.update({ ...ticket, updatedAt: this.deps.clock.now() });
      return changed ? { ticket, sent, place } : null;
    });
    if (done) await this.deps.announce(done.ticket, done.sent, done.place).catch(() => undefined);
  }
}
