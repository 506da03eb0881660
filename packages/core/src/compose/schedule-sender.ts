import type { Connections } from '../connections/ports.js';
import type { Contacts } from '../contacts/ports.js';
import type { Users } from '../identity/ports.js';
import type { OutboundMessages } from '../messages/outbound.js';
import type { Queues } from '../queues/ports.js';
import type { BlobStorage, Clock, IdGenerator, Transaction } from '../shared/ports.js';
import type { Companies } from '../tenancy/ports.js';
import type { Tickets } from '../tickets/ports.js';
import type { ConversationAnnouncer } from '../tickets/conversation-announcer.js';
import type { Ticket } from '../tickets/ticket.js';
import { cycleOf, type TicketTracking } from '../tickets/ticket-tracking.js';
import { renderMessage } from '../schedules/message-variables.js';
import type { ScheduleSend, ScheduleSender } from '../schedules/ports.js';

/**
 * The schedules' way into the one send path. The ticket: with `openTicket`, the contact's active
 * ticket on the connection, or a new one with the schedule's status, user and queue; otherwise the
 * active ticket, or the latest closed one (a recurring schedule does not leave a closed ticket per
 * send), or a new closed one. The text gets its `{{…}}` variables and, when signed, `*<name>:*` on
 * its first line; the message and its send command go through `OutboundMessages` in the caller's
 * transaction (the occurrence's run), and the frames go out after the commit.
 */
export class OutboundScheduleSender implements ScheduleSender {
  constructor(
    private readonly deps: {
      connections: Connections;
      contacts: Contacts;
      tickets: Tickets;
      users: Users;
      queues: Queues;
      companies: Companies;
      outbound: OutboundMessages;
      blobs: BlobStorage;
      tx: Transaction;
      clock: Clock;
      ids: IdGenerator;
      /** Tells the operators of the message and the ticket's update. */
      announcer: ConversationAnnouncer;
      timeZone: (companyId: number) => Promise<string>;
      /** Attendance cycles: a ticket the schedule opens is one we started. */
      tracking?: TicketTracking;
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

  private async ticketFor(s: ScheduleSend, contactId: number, connectionId: number): Promise<Ticket> {
    const { tickets, ids, clock } = this.deps;
    if (!s.openTicket) {
      const existing =
        (await tickets.findActive(s.companyId, contactId, connectionId)) ?? (await tickets.findLatestClosed(s.companyId, contactId, connectionId));
      if (existing) return existing;
    }
    const now = clock.now();
    const open = s.openTicket && s.statusTicket !== 'closed';
    const { ticket, created } = await tickets.getOrCreateActive({
      uuid: ids.uuid(),
      companyId: s.companyId,
      contactId,
      connectionId,
      status: s.openTicket ? s.statusTicket : 'closed',
      userId: s.openTicket ? s.ticketUserId : null,
      queueId: s.openTicket ? s.queueId : null,
      unreadMessages: 0,
      lastMessage: '',
      isGroup: false,
      greetedAt: now,
      closedAt: open ? null : now,
      createdAt: now,
      updatedAt: now,
    });
    if (created && open) await this.deps.tracking?.open(cycleOf(ticket, now, { outbound: true, reopened: false }));
    return ticket;
  }

  async send(s: ScheduleSend) {
    const { connections, contacts, tickets, users, queues, companies, outbound, blobs, tx, clock } = this.deps;
    const connection = await connections.findById(s.companyId, s.connectionId);
    if (!connection) return { ok: false as const, reason: 'ERR_NO_CONNECTION_FOUND' as const, retryable: false };
    const contact = await contacts.findById(s.companyId, s.contactId);
    if (!contact) return { ok: false as const, reason: 'ERR_NO_CONTACT_FOUND' as const, retryable: false };
    const ticket = await this.ticketFor(s, contact.id, connection.id);
    const now = clock.now();
    const user = s.userId !== null ? await users.findById(s.companyId, s.userId) : null;
    const queue = ticket.queueId !== null ? await queues.findById(s.companyId, ticket.queueId) : null;
    const text = renderMessage(s.body, {
      contactName: contact.name,
      userName: user?.name ?? '',
      ticketId: ticket.id,
      queueName: queue?.name ?? '',
      connectionName: connection.name,
      companyName: (await companies.findById(s.companyId))?.name ?? '',
      at: now,
      timeZone: await this.deps.timeZone(s.companyId),
    });
    const body = s.sign && user ? `*${user.name}:*\n${text}` : text;
    const media = s.media
      ? { key: s.media.path, url: blobs.publicUrl(s.media.path), contentType: s.media.contentType, filename: s.media.name, size: s.media.size }
      : null;
    const message = await outbound.enqueue({ connection, ticket, contact, body, media, userId: s.openTicket ? s.ticketUserId : null });
    await tickets.update({ ...ticket, lastMessage: body || s.media?.name || '', updatedAt: now });
    tx.afterCommit(() => {
      void (async () => {
        await this.deps.announcer.sent({ ...ticket, lastMessage: body || s.media?.name || '', updatedAt: now }, {}, [message]);
      })().catch(() => undefined);
    });
    return { ok: true as const, messageId: message.id, ticketId: ticket.id };
  }
}
