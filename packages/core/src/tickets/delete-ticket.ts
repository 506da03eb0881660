import { assertAdmin, type Actor } from '../shared/actor.js';
import type { RealtimeEvents } from '../realtime/ports.js';
import type { TicketEvent } from './ticket-events.js';
import { NotFoundError } from '../shared/errors.js';
import type { Transaction } from '../shared/ports.js';
import type { Messages } from '../messages/ports.js';
import type { Tickets } from './ports.js';
import { ticketState, type TicketJournal } from './ticket-journal.js';

/**
 * An admin deletes a ticket and its messages. The `delete` entry of its log stays (the log
 * outlives the ticket); the operators get a `ticket` event, action `delete`, with the id.
 */
export class DeleteTicket {
  constructor(
    private readonly deps: { tickets: Tickets; messages: Messages; journal: TicketJournal; tx: Transaction; realtime: RealtimeEvents<TicketEvent> },
  ) {}

  async execute(input: { readonly actor: Actor; readonly ticketId: number }): Promise<void> {
    const { tickets, messages, journal, tx, realtime } = this.deps;
    const { actor } = input;
    assertAdmin(actor);
    await tx.run(async () => {
      const ticket = await tickets.findById(actor.companyId, input.ticketId);
      if (!ticket) throw new NotFoundError('ERR_NO_TICKET_FOUND');
      await journal.log(ticket, 'delete', actor.userId, { from: ticketState(ticket), contactId: ticket.contactId, connectionId: ticket.connectionId });
      await messages.removeByTicket(actor.companyId, ticket.id);
      await tickets.remove(actor.companyId, ticket.id);
    });
    await realtime.publish(actor.companyId, { entity: 'ticket', data: { action: 'delete', ticketId: input.ticketId } });
  }
}
