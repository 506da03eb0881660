import type { Connections } from '../connections/ports.js';
import type { Contacts } from '../contacts/ports.js';
import { assertAdmin, type Actor } from '../shared/actor.js';
import { ConflictError, NotFoundError, ValidationError } from '../shared/errors.js';
import type { Clock, IdGenerator, Transaction } from '../shared/ports.js';
import type { Tickets } from '../tickets/ports.js';
import type { TicketPlace } from '../tickets/ticket-events.js';
import type { Ticket } from '../tickets/ticket.js';
import type { FlowRunner } from './flow-runner.js';
import { runMayTalk } from './flow-target.js';
import { toFlowRunView, type FlowRunView } from './flow-runs.js';
import { findFlow } from './manage-flows.js';
import type { Flows } from './ports.js';

export interface ExecuteFlowInput {
  readonly actor: Actor;
  readonly flowId: number;
  /** The ticket to run on; or a contact and a connection, whose active ticket is used (opened when there is none). */
  readonly ticketId?: number;
  readonly contactId?: number;
  readonly chatappId?: number;
}

/**
 * The manual/API trigger (`POST /flows/:flowId/execute`): starts a run of the flow's published
 * version now, on a ticket or on a contact's conversation on a connection, and answers the run as
 * its first step left it. 409 `ERR_FLOW_NOT_PUBLISHED` without a published version, 409
 * `ERR_FLOW_TICKET_TAKEN` when a person has the ticket (or it is closed or a group), 409
 * `ERR_FLOW_RUN_ACTIVE` when the ticket already has a run. Admins only.
 */
export class ExecuteFlow {
  constructor(
    private readonly deps: {
      readonly flows: Flows;
      readonly tickets: Tickets;
      readonly contacts: Pick<Contacts, 'findById'>;
      readonly connections: Pick<Connections, 'findById'>;
      readonly runner: FlowRunner;
      readonly tx: Transaction;
      readonly clock: Clock;
      readonly ids: IdGenerator;
    },
  ) {}

  async execute(input: ExecuteFlowInput): Promise<FlowRunView> {
    const { flows, tx, runner } = this.deps;
    assertAdmin(input.actor);
    const { companyId } = input.actor;
    const byTicket = input.ticketId !== undefined;
    if (
      byTicket === (input.contactId !== undefined || input.chatappId !== undefined) ||
      (!byTicket && (input.contactId === undefined || input.chatappId === undefined))
    ) {
      throw new ValidationError('ERR_FLOW_EXECUTE_TARGET');
    }
    const flow = await findFlow(flows, companyId, input.flowId);
    if (flow.publishedVersion === null) throw new ConflictError('ERR_FLOW_NOT_PUBLISHED');
    const done = await tx.run(async () => {
      const { ticket, created } = await this.ticketOf(companyId, input);
      const contact = await this.deps.contacts.findById(companyId, ticket.contactId);
      const connection = await this.deps.connections.findById(companyId, ticket.connectionId);
      if (!contact || !connection) throw new NotFoundError('ERR_NO_TICKET_FOUND');
      if (!runMayTalk(ticket) || ticket.isGroup) throw new ConflictError('ERR_FLOW_TICKET_TAKEN');
      const before: TicketPlace = { status: ticket.status, userId: ticket.userId, queueId: ticket.queueId };
      const { run, sent } = await runner.start(flow, 'manual', { connection, contact, ticket }, null);
      if (sent.length) ticket.lastMessage = sent[sent.length - 1]!.body;
      await this.deps.tickets.update({ ...ticket, updatedAt: this.deps.clock.now() });
      return { run, ticket, sent, before: created ? ('created' as const) : before };
    });
    await runner.announce(done.ticket, done.sent, done.before);
    return toFlowRunView(done.run);
  }

  private async ticketOf(companyId: number, input: ExecuteFlowInput): Promise<{ ticket: Ticket; created: boolean }> {
    const { tickets, contacts, connections, clock, ids } = this.deps;
    if (input.ticketId !== undefined) {
      const ticket = await tickets.findById(companyId, input.ticketId);
      if (!ticket) throw new NotFoundError('ERR_NO_TICKET_FOUND');
      return { ticket, created: false };
    }
    const contact = await contacts.findById(companyId, input.contactId!);
    if (!contact) throw new NotFoundError('ERR_NO_CONTACT_FOUND');
    const connection = await connections.findById(companyId, input.chatappId!);
    if (!connection || connection.companyId !== companyId) throw new NotFoundError('ERR_NO_CONNECTION_FOUND');
    const now = clock.now();
    return tickets.getOrCreateActive({
      uuid: ids.uuid(),
      companyId,
      contactId: contact.id,
      connectionId: connection.id,
      status: 'pending',
      userId: null,
      queueId: null,
      unreadMessages: 0,
      lastMessage: '',
      isGroup: contact.isGroup,
      greetedAt: now,
      closedAt: null,
      createdAt: now,
      updatedAt: now,
    });
  }
}
