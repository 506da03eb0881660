import { assertAdmin, type Actor } from '../shared/actor.js';
import type { RealtimeEvents } from '../realtime/ports.js';
import type { TicketEvent } from './ticket-events.js';
import type { Clock, Transaction } from '../shared/ports.js';
import { visibleConnection } from '../connections/connection-rules.js';
import type { Ticket } from './ticket.js';
import type { Connections } from '../connections/ports.js';
import type { Tickets } from './ports.js';
import type { TicketTracking } from './ticket-tracking.js';

const PAGE = 500;

/**
 * An admin clears the backlog a connection left behind (an import, an outage): every `pending`
 * ticket of the connection that nobody took is closed. The operators get one `ticket` event,
 * action `closeMany`, with the closed ids, rather than one frame per ticket, since a backlog can
 * run to thousands and would flush the realtime replay window.
 */
export class CloseImportedTickets {
  constructor(
    private readonly deps: {
      connections: Connections;
      tickets: Tickets;
      tracking: TicketTracking;
      tx: Transaction;
      clock: Clock;
      realtime: RealtimeEvents<TicketEvent>;
    },
  ) {}

  async execute(input: { readonly actor: Actor; readonly connectionId: number }): Promise<{ closed: number }> {
    const { connections, tickets, tx, clock, realtime } = this.deps;
    assertAdmin(input.actor);
    const connection = await visibleConnection(connections, input.actor, input.connectionId);
    const companyId = connection.companyId;
    const candidates = await this.pendingUnassigned(companyId, connection.id);
    const closed = await tx.run(async () => {
      const now = clock.now();
      const ids: number[] = [];
      for (const id of candidates) {
        // Read again: an operator may have taken the ticket since the scan.
        const ticket = await tickets.findById(companyId, id);
        if (!ticket || !isBacklog(ticket, connection.id)) continue;
        await tickets.update({ ...ticket, status: 'closed', closedAt: now, updatedAt: now });
        await this.deps.tracking.change(companyId, id, { queueId: ticket.queueId, userId: null, at: now, closed: true });
        ids.push(id);
      }
      return ids.sort((a, b) => a - b);
    });
    if (closed.length) {
      await realtime.publish(companyId, { entity: 'ticket', data: { action: 'closeMany', ticketIds: closed, chatappId: connection.id, status: 'closed' } });
    }
    return { closed: closed.length };
  }

  private async pendingUnassigned(companyId: number, connectionId: number): Promise<number[]> {
    const ids: number[] = [];
    for (let offset = 0; ; offset += PAGE) {
      const page = await this.deps.tickets.list({ companyId, status: 'pending', page: { offset, limit: PAGE } });
      for (const t of page.rows) if (isBacklog(t, connectionId)) ids.push(t.id);
      if (page.rows.length < PAGE || offset + PAGE >= page.count) return [...new Set(ids)];
    }
  }
}

function isBacklog(t: Ticket, connectionId: number): boolean {
  return t.status === 'pending' && t.userId === null && t.connectionId === connectionId;
}
