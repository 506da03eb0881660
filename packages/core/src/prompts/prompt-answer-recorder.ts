import type { Connections } from '../connections/ports.js';
import type { Contact } from '../contacts/contact.js';
import type { Message } from '../messages/message.js';
import type { OutboundMessages } from '../messages/outbound.js';
import type { Clock, Transaction } from '../shared/ports.js';
import type { Tickets } from '../tickets/ports.js';
import type { Ticket } from '../tickets/ticket.js';
import type { Prompts } from './ports.js';
import type { Prompt } from './prompt.js';
import type { PromptAnswer, PromptAnswers, PromptOutcome } from './prompt-answer.js';
import type { PromptDecision } from './prompt-decider.js';

/** A ticket an assistant may talk on: waiting, nobody's, the bot still on, not a group. */
export function assistantMayAnswer(ticket: Pick<Ticket, 'status' | 'userId' | 'botActive' | 'isGroup'>): boolean {
  return ticket.status === 'pending' && ticket.userId === null && ticket.botActive && !ticket.isGroup;
}

export interface PromptAnswerResult {
  readonly outcome: PromptOutcome | 'duplicate';
  /** Why it was handed over or skipped. */
  readonly reason?: string;
}

/**
 * Writes an assistant's decision in one transaction: the record of the message (the second
 * delivery of a command stops here, so a message is answered once), the tokens counted on the
 * prompt, the answer through the one send path, and on a hand-over the ticket moved to the
 * prompt's queue with the bot off. The operators are told after the commit.
 */
export class PromptAnswerRecorder {
  constructor(
    private readonly deps: {
      answers: PromptAnswers;
      prompts: Pick<Prompts, 'addUsage'>;
      tickets: Tickets;
      connections: Connections;
      outbound: OutboundMessages;
      tx: Transaction;
      clock: Clock;
      /** Tells the operators, after the commit, about the ticket and the messages sent. */
      announce: (ticket: Ticket, sent: readonly Message[]) => Promise<void>;
    },
  ) {}

  async record(command: PromptAnswer, prompt: Prompt, contact: Contact, decision: PromptDecision): Promise<PromptAnswerResult> {
    const { answers, tickets, prompts, connections, outbound, tx, clock } = this.deps;
    const { companyId } = command;
    const done = await tx.run(async () => {
      const now = clock.now();
      const ticket = await tickets.findById(companyId, command.ticketId);
      // A person took the ticket while the model was thinking: nothing goes out.
      const outcome: PromptOutcome = ticket && assistantMayAnswer(ticket) ? decision.outcome : 'skipped';
      const reason = outcome === 'skipped' ? 'ERR_PROMPT_TICKET_TAKEN' : decision.reason;
      const claimed = await answers.claim({
        companyId,
        messageId: command.messageId,
        ticketId: command.ticketId,
        promptId: prompt.id,
        outcome,
        reason,
        at: now,
      });
      if (!claimed) return null;
      if (decision.usage) await prompts.addUsage(companyId, prompt.id, decision.usage);
      if (!ticket || outcome === 'skipped') return { outcome, reason, ticket: null, sent: [] };
      const connection = await connections.findById(companyId, ticket.connectionId);
      const sent = decision.reply && connection ? [await outbound.enqueue({ connection, ticket, contact, body: decision.reply })] : [];
      const handedOver = outcome === 'handed-over';
      if (!sent.length && !handedOver) return { outcome, reason, ticket: null, sent };
      const next: Ticket = {
        ...ticket,
        updatedAt: now,
        ...(sent.length ? { lastMessage: decision.reply! } : {}),
        ...(handedOver ? { queueId: prompt.queueId ?? ticket.queueId, queueOptionId: null, botActive: false } : {}),
      };
      await tickets.update(next);
      return { outcome, reason, ticket: next, sent };
    });
    if (!done) return { outcome: 'duplicate' };
    const { ticket, sent } = done;
    if (ticket) await this.deps.announce(ticket, sent).catch(() => undefined);
    return done.reason ? { outcome: done.outcome, reason: done.reason } : { outcome: done.outcome };
  }
}
