import { enqueueIntegrationDelivery } from '../conversations/deliver-integration-event.js';
import type { Jobs } from '../jobs/jobs.js';
import type { Message } from '../messages/message.js';
import type { Outbox } from '../outbox/ports.js';
import type { Clock, IdGenerator } from '../shared/ports.js';
import { FLOW_CALL_JOB, FLOW_TIMER_JOB, type FlowCallPayload, type FlowTimerPayload } from './flow-jobs.js';
import type { FlowAction } from './flow-run.js';
import type { FlowRun } from './flow-runs.js';
import type { FlowSender } from './flow-sender.js';
import type { FlowTarget } from './flow-target.js';
import type { FlowTicketMoves } from './flow-ticket-moves.js';

/**
 * The engine's actions performed on a run's target, in the transaction of the input that caused
 * them: messages and ticket changes now, calls (HTTP, model) and timers as jobs carrying the run's
 * new `seq`, an integration's hand-over through the outbox.
 */
export class FlowActions {
  constructor(
    private readonly deps: {
      readonly sender: FlowSender;
      readonly moves: FlowTicketMoves;
      readonly jobQueue: Pick<Jobs, 'enqueue'>;
      readonly outbox: Outbox;
      readonly ids: IdGenerator;
      readonly clock: Clock;
    },
  ) {}

  /** One action; the messages it sent. */
  async perform(run: FlowRun, a: FlowAction, target: FlowTarget): Promise<Message[]> {
    const { sender, moves, jobQueue, clock } = this.deps;
    const { ticket, contact, connection } = target;
    const job = { companyId: run.companyId, runId: run.id, seq: run.seq };
    const key = `flow-run-${run.id}-${run.seq}`;
    switch (a.type) {
      case 'sendText':
        return sender.text(target, a.text);
      case 'sendMedia':
        return sender.media(target, a.fileListId, a.fileOptionId);
      case 'setTags':
        await moves.setTags(ticket, a.add, a.remove);
        return [];
      case 'transfer':
        await moves.transfer(ticket, a.queueId, a.userId);
        return [];
      case 'close':
        moves.close(ticket);
        return [];
      case 'wait':
        if (a.until) {
          const input = a.kind === 'interval' ? 'intervalDone' : 'timeout';
          await jobQueue.enqueue<FlowTimerPayload>({ name: FLOW_TIMER_JOB, at: new Date(a.until), payload: { ...job, input }, key });
        }
        return [];
      case 'callHttp':
        await jobQueue.enqueue<FlowCallPayload>({ name: FLOW_CALL_JOB, at: clock.now(), payload: { ...job, kind: 'http', request: a.request }, key });
        return [];
      case 'callAi':
        await jobQueue.enqueue<FlowCallPayload>({
          name: FLOW_CALL_JOB,
          at: clock.now(),
          payload: { ...job, kind: 'ai', promptId: a.promptId, model: a.model, messages: a.messages },
          key,
        });
        return [];
      case 'startIntegration':
        if (target.message)
          await enqueueIntegrationDelivery(this.deps, { integrationId: a.integrationId, connection, contact, ticket, message: target.message });
        return [];
      case 'goToFlow':
      case 'end':
        return [];
      default: {
        const unknown: never = a;
        return unknown;
      }
    }
  }
}
