import type { Connections } from '../connections/ports.js';
import type { Contacts } from '../contacts/ports.js';
import type { OutboundMessages } from '../messages/outbound.js';
import type { ScheduleSend, ScheduleSender } from '../schedules/ports.js';
import type { Clock } from '../shared/ports.js';
import type { ScheduleContent } from './schedule-content.js';
import type { ScheduleTicket } from './schedule-ticket.js';

/**
 * The schedules' way into the one send path: the message goes on the ticket `ScheduleTicket`
 * picks, with what `ScheduleContent` makes of the text and the attachment; it and its send command
 * go through `OutboundMessages` in the caller's transaction (the occurrence's run), and the frames
 * go out after the commit.
 */
export class OutboundScheduleSender implements ScheduleSender {
  constructor(
    private readonly deps: {
      connections: Connections;
      contacts: Contacts;
      outbound: OutboundMessages;
      clock: Clock;
      /** The ticket the message goes on, and its update once the message is queued. */
      ticket: ScheduleTicket;
      /** The text as sent and the attachment. */
      content: ScheduleContent;
    },
  ) {}

  async connection(companyId: number, connectionId: number | null) {
    const { connections } = this.deps;
    const connection =
      connectionId !== null ? await connections.findById(companyId, connectionId) : ((await connections.list(companyId)).find((c) => c.isDefault) ?? null);
    if (!connection)
      return {
        ok: false as const,
        reason: connectionId !== null ? ('ERR_NO_CONNECTION_FOUND' as const) : ('ERR_NO_DEFAULT_CONNECTION' as const),
        retryable: false,
      };
    if (connection.status !== 'CONNECTED') return { ok: false as const, reason: 'ERR_SESSION_NOT_CONNECTED' as const, retryable: true };
    return { ok: true as const, connectionId: connection.id };
  }

  async send(s: ScheduleSend) {
    const { connections, contacts, outbound, clock } = this.deps;
    const connection = await connections.findById(s.companyId, s.connectionId);
    if (!connection) return { ok: false as const, reason: 'ERR_NO_CONNECTION_FOUND' as const, retryable: false };
    const contact = await contacts.findById(s.companyId, s.contactId);
    if (!contact) return { ok: false as const, reason: 'ERR_NO_CONTACT_FOUND' as const, retryable: false };
    const ticket = await this.deps.ticket.for(s, contact.id, connection.id);
    const now = clock.now();
    const { body, media } = await this.deps.content.of(s, { contact, ticket, connection }, now);
    const message = await outbound.enqueue({ connection, ticket, contact, body, media, userId: s.openTicket ? s.ticketUserId : null });
    await this.deps.ticket.sent(ticket, body || s.media?.name || '', message, now);
    return { ok: true as const, messageId: message.id, ticketId: ticket.id };
  }
}
