import type { Connection } from '../connections/connection.js';
import type { Connections } from '../connections/ports.js';
import type { Contact } from '../contacts/contact.js';
import type { Contacts } from '../contacts/ports.js';
import type { OutboundMessages } from '../messages/outbound.js';
import type { BlobStorage, Clock, IdGenerator, Transaction } from '../shared/ports.js';
import type { Tickets } from '../tickets/ports.js';
import type { Ticket } from '../tickets/ticket.js';
import { cycleOf, type TicketTracking } from '../tickets/ticket-tracking.js';
import type { ConversationAnnouncer } from '../tickets/conversation-announcer.js';
import type { CampaignConnections, CampaignSend, CampaignSender, CampaignSendResult } from '../campaigns/ports.js';

/**
 * A campaign recipient's conversation: the contact (found or created by number) and a ticket (with
 * `openTicket`, the campaign's status, owner and queue; otherwise the contact's active ticket on the
 * connection or a closed one, so no operator queue fills up), then the ticket touched by the message
 * sent (and a cycle of ours when the campaign opened it).
 */
export class CampaignConversations {
  constructor(
    private readonly deps: {
      contacts: Contacts;
      tickets: Tickets;
      ids: IdGenerator;
      /** Attendance cycles: a ticket the campaign opens is one we started. */
      tracking?: TicketTracking;
    },
  ) {}

  /** The recipient's contact and ticket on `connection` (`created`: the ticket is new). */
  async open(s: CampaignSend, connection: Connection, now: Date): Promise<{ contact: Contact; ticket: Ticket; created: boolean }> {
    const { contacts, tickets, ids } = this.deps;
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
    return { contact, ticket, created };
  }

  /** The send's text (or file name) as the ticket's last message; a ticket the campaign opened starts a cycle of ours. */
  async sent(ticket: Ticket, created: boolean, s: CampaignSend, now: Date): Promise<void> {
    ticket.lastMessage = s.body || s.media?.name || '';
    ticket.updatedAt = now;
    await this.deps.tickets.update(ticket);
    if (created && ticket.status !== 'closed') await this.deps.tracking?.open(cycleOf(ticket, now, { outbound: true, reopened: false }));
  }
}

/**
 * The campaigns' way into the one send path: the recipient's conversation (contact and ticket),
 * and the message with its send command through `OutboundMessages` — all in the dispatcher's
 * transaction, which also marks the recipient sent: the message exists exactly when the recipient
 * says it was sent. The frames go out after the commit.
 */
export class OutboundCampaignSender implements CampaignSender {
  constructor(
    private readonly deps: {
      connections: Connections;
      conversations: CampaignConversations;
      outbound: OutboundMessages;
      blobs: BlobStorage;
      tx: Transaction;
      clock: Clock;
      /** Tells the operators of the message and the ticket's update. */
      announcer: ConversationAnnouncer;
    },
  ) {}

  async send(s: CampaignSend): Promise<CampaignSendResult> {
    const { connections, conversations, outbound, blobs, tx, clock } = this.deps;
    const connection = await connections.findById(s.companyId, s.connectionId);
    if (!connection) return { ok: false, reason: 'ERR_NO_CONNECTION_FOUND', retryable: false };
    if (connection.status !== 'CONNECTED') return { ok: false, reason: 'ERR_SESSION_NOT_CONNECTED', retryable: true };
    const now = clock.now();
    const { contact, ticket, created } = await conversations.open(s, connection, now);
    const media = s.media
      ? { key: s.media.path, url: blobs.publicUrl(s.media.path), contentType: s.media.contentType, filename: s.media.name, size: s.media.size }
      : null;
    const message = await outbound.enqueue({ connection, ticket, contact, body: s.body, media, userId: s.openTicket ? s.userId : null });
    await conversations.sent(ticket, created, s, now);
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
