import type { InboundFlows, RoutedMessage } from '../conversations/queue-router.js';
import type { Message } from '../messages/message.js';
import { foldForSearch } from '../shared/text.js';
import type { Tickets } from '../tickets/ports.js';
import type { Ticket } from '../tickets/ticket.js';
import type { TicketPlace } from '../tickets/ticket-events.js';
import type { Flow, FlowTrigger, FlowTriggerType } from './flow.js';
import type { FlowRunSteps } from './flow-run-steps.js';
import type { FlowRun, FlowRuns } from './flow-runs.js';
import { runMayTalk, type FlowTarget } from './flow-target.js';
import type { Flows } from './ports.js';

export interface FlowRunnerDeps {
  readonly flows: Pick<Flows, 'triggered'>;
  readonly runs: Pick<FlowRuns, 'activeOfTicket'>;
  readonly tickets: Pick<Tickets, 'findLatestClosed'>;
  readonly steps: FlowRunSteps;
  /** Tells the operators, after the commit, about a ticket changed outside the inbound path (from `before`; `created` a new one) and the messages sent. */
  readonly announce: (ticket: Ticket, sent: readonly Message[], before: TicketPlace | 'created') => Promise<void>;
}

/**
 * Runs published flows on tickets, on the step engine (`FlowRunSteps`): writes (messages through
 * the one send path, tags, transfer, close) happen in the transaction of the input that caused
 * them; calls (HTTP, model) and timers are jobs (`FlowRunJobs`), whose results come back as the
 * engine's next input. Nothing sleeps. This is the inbound path's and the manual trigger's way in.
 */
export class FlowRunner implements InboundFlows {
  constructor(private readonly deps: FlowRunnerDeps) {}

  /** The inbound path: the ticket's active run takes the message (once per message), unless the ticket was taken, which cancels it. */
  async resume(m: RoutedMessage): Promise<Message[] | null> {
    // A ticket created by this very message has no run yet.
    if (m.ticketCreated) return null;
    const run = await this.deps.runs.activeOfTicket(m.ticket.companyId, m.ticket.id);
    if (!run) return null;
    if (!runMayTalk(m.ticket)) {
      await this.deps.steps.finish(run, 'cancelled', 'cancel');
      return null;
    }
    if (run.lastMessageId === m.message.id) return [];
    return this.deps.steps.advance(run, { answer: m.message.body }, m, 0, m.message.id);
  }

  /**
   * The inbound path: a run starts when an active, published flow's trigger matches, by ascending
   * flow id — a keyword first, then, on a new conversation, `welcome` (the contact's first on this
   * connection) or `noMatch` (a returning contact).
   */
  async trigger(m: RoutedMessage): Promise<Message[] | null> {
    const { ticket, connection } = m;
    if (!runMayTalk(ticket)) return null;
    const flows = await this.deps.flows.triggered(ticket.companyId);
    if (!flows.length) return null;
    const on = (t: FlowTrigger) => t.chatappIds.length === 0 || t.chatappIds.includes(connection.id);
    const text = foldForSearch(m.message.body.trim());
    const said = (t: FlowTrigger) =>
      text !== '' && t.keywords.some((k) => (k.match === 'exact' ? foldForSearch(k.text) === text : text.includes(foldForSearch(k.text))));
    let type: FlowTriggerType = 'keyword';
    let flow = flows.find((f) => f.triggers.some((t) => t.type === 'keyword' && on(t) && said(t)));
    if (!flow && m.opening) {
      const returning = (await this.deps.tickets.findLatestClosed(ticket.companyId, m.contact.id, connection.id)) !== null;
      type = returning ? 'noMatch' : 'welcome';
      flow = flows.find((f) => f.triggers.some((t) => t.type === type && on(t)));
    }
    if (!flow) return null;
    return (await this.start(flow, type, m, m.message.id)).sent;
  }

  /**
   * Starts a run of the flow's published version on the ticket, in the caller's transaction (the
   * caller saves the ticket). ConflictError `ERR_FLOW_RUN_ACTIVE` when the ticket already has one.
   */
  async start(flow: Flow, trigger: FlowTriggerType, target: FlowTarget, messageId: string | null): Promise<{ run: FlowRun; sent: Message[] }> {
    return this.deps.steps.start(flow, trigger, target, messageId);
  }

  /** Tells the operators about a ticket changed outside the inbound path, after the commit (never throws). */
  async announce(ticket: Ticket, sent: readonly Message[], before: TicketPlace | 'created'): Promise<void> {
    await this.deps.announce(ticket, sent, before).catch(() => undefined);
  }
}
