import type { Connections } from '../connections/ports.js';
import type { Contacts } from '../contacts/ports.js';
import type { OutboundMessages } from '../messages/outbound.js';
import type { BlobStorage, Clock, IdGenerator, Transaction } from '../shared/ports.js';
import type { Tickets } from '../tickets/ports.js';
import { cycleOf, type TicketTracking } from '../tickets/ticket-tracking.js';
import type { ConversationAnnouncer } from '../tickets/conversation-announcer.js';
import type { CampaignConnections, CampaignSend, CampaignSender, CampaignSendResult } from '../campaigns/ports.js';

/**
 * The campaigns' way into the one send path: the contact (found or created by number), a ticket
 * (with `openTicket`, the campaign's status, owner and queue; otherwise the contact's active ticket
 * on the connection or a closed one, so no operator queue fills up), and the message with its send
 * command through `OutboundMessages` — all in the dispatcher's transaction, which also marks the
 * recipient sent: the message exists exactly when the recipient says it was sent. The frames go
 * out after the commit.
 */
export class OutboundCampaignSender implements CampaignSender {
  constructor(
    private readonly deps: {
      connections: Connections;
      contacts: Contacts;
      tickets: Tickets;
      outbound: OutboundMessages;
      blobs: BlobStorage;
      tx: Transaction;
      clock: Clock;
      ids: IdGenerator;
      /** Tells the operators of the message and the ticket's update. */
      announcer: ConversationAnnouncer;
      /** Attendance cycles: a ticket the campaign opens is one we started. */
      tracking?: TicketTracking;
    },
  ) {}

  async send(s: CampaignSend): Promise<CampaignSendResult> {
    const { connections, contacts, tickets, outbound, blobs, tx, clock, ids } = this.deps;
    const connection = await connections.findById(s.companyId, s.connectionId);
    if (!connection) return { ok: false, reason: 'ERR_NO_CONNECTION_FOUND', retryable: false };
    if (connection.status !== 'CONNECTED') return { ok: false, reason: 'ERR_SESSION_NOT_CONNECTED', retryable: true };
    const now = clock.now();
    const contact =
      (s.contactId !== null ? await contacts.findById(s.companyId, s.contactId) : null) ??
      (await contacts.getOrCreate({
        companyId: s.companyId,
        name: s.name.trim() || s.number,
        number: s.number,
        email: null,
        isGroup: false,
        profilePicUrl: null,
        createdAt: now,
        updatedAt: now,
      }));
    const { ticket, created } = await tickets.getOrCreateActive({
      uuid: ids.uuid(),
      companyId: s.companyId,
      contactId: contact.id,
      connectionId: connection.id,
      status: s.openTicket ? s.statusTicket : 'closed',
      userId: s.openTicket ? s.userId : null,
      queueId: s.openTicket ? s.queueId : null,
      unreadMessages: 0,
      lastMessage: '',
      isGroup: false,
      greetedAt: now,
      closedAt: s.openTicket && s.statusTicket !== 'closed' ? null : now,
      createdAt: now,
      updatedAt: now,
    });
    const media = s.media
      ? { key: s.media.path, url: blobs.publicUrl(s.media.path), contentType: s.media.contentType, filename: s.media.name, size: s.media.size }
      : null;
    const message = await outbound.enqueue({ connection, ticket, contact, body: s.body, media, userId: s.openTicket ? s.userId : null });
    ticket.lastMessage = s.body || s.media?.name || '';
    ticket.updatedAt = now;
    await tickets.update(ticket);
    if (created && ticket.status !== 'closed') await this.deps.tracking?.open(cycleOf(ticket, now, { outbound: true, reopened: false }));
    tx.afterCommit(() => {
      void (async () => {
        await this.deps.announcer.sent(ticket, {}, [message]);
      })().catch(() => undefined);
    });
    return { ok: true, messageId: message.id };
  }
}

/** Campaigns' view of a connection: its kind, and whether its session is connected now. */
export class ConnectionsForCampaigns implements CampaignConnections {
  constructor(private readonly connections: Connections) {}

  async find(companyId: number, connectionId: number) {
    const c = await this.connections.findById(companyId, connectionId);
    return c ? { id: c.id, companyId: c.companyId, kind: c.kind, connected: c.status === 'CONNECTED' } : null;
  }
}
