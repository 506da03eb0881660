import { holdBlockedMessage } from './blocked-inbound.js';
import type { TicketPlace } from '../tickets/ticket-events.js';
import type { Clock, IdGenerator, Transaction } from '../shared/ports.js';
import type { InboundMessageEvent } from '../connections/channel-messages.js';
import type { Message } from '../messages/message.js';
import { inboundContent } from '../connections/shared-content.js';
import type { Ticket } from '../tickets/ticket.js';
import type { ConversationAnnouncer } from '../tickets/conversation-announcer.js';
import type { Connections } from '../connections/ports.js';
import type { Contacts } from '../contacts/ports.js';
import type { Messages } from '../messages/ports.js';
import type { Tickets } from '../tickets/ports.js';
import type { QueueRouter } from './queue-router.js';
import { changeOf, cycleOf, type TicketTracking } from '../tickets/ticket-tracking.js';
import { inboundMediaOf, type InboundMedia } from '../connections/inbound-media.js';
import { pendingMedia } from './fetch-inbound-media.js';
import type { RoutingReads } from './routing-reads.js';

export interface RouteInboundResult {
  readonly duplicate: boolean;
  readonly ticketId: number | null;
  readonly messageId: string | null;
  readonly greeted: boolean;
}

/**
 * A contact's message arrives: find or create the contact and its active ticket, store the
 * message, let the routing engine answer (greeting, menus, queues: `QueueRouter`) and save where
 * it moved the ticket, then tell the operators. Idempotent: the provider's message id is unique
 * per connection, so a redelivered or duplicated event stops before anything changes.
 */
export class RouteInbound {
  constructor(
    private readonly deps: {
      connections: Connections;
      contacts: Contacts;
      tickets: Tickets;
      messages: Messages;
      tx: Transaction;
      clock: Clock;
      ids: IdGenerator;
      router: QueueRouter;
      /** Tells the operators of the ticket and its new messages. */
      announcer: ConversationAnnouncer;
      tracking: TicketTracking;
      /**
       * Where a contact's file is handed to the job that fetches it (within the transaction that
       * stores its message). Without it the message keeps its caption and its file shows as failed
       * (`ERR_MEDIA_NOT_SUPPORTED`): nothing here could fetch it.
       */
      inboundMedia?: { enqueue(message: Message, media: InboundMedia, at: Date): Promise<unknown> };
      /** The routing's kept reads: checked once per message, before its transaction (see `RoutingReads`). */
      routing?: Pick<RoutingReads, 'check'>;
    },
  ) {}

  async execute(event: InboundMessageEvent): Promise<RouteInboundResult> {
    const { connections, contacts, tickets, messages, tx, clock, ids, router, announcer } = this.deps;
    const connection = await connections.findById(event.companyId, event.chatappId);
    if (!connection) return { duplicate: false, ticketId: null, messageId: null, greeted: false };
    await this.deps.routing?.check(connection.companyId);
    const outcome = await tx.run(async () => {
      const existing = await messages.findByProviderId(connection.id, event.providerMessageId);
      if (existing) return null;
      const now = clock.now();
      const at = new Date(event.at);
      const contact = await contacts.getOrCreate({
        companyId: connection.companyId,
        name: event.senderName || event.from,
        number: event.from,
        email: null,
        isGroup: event.isGroup,
        profilePicUrl: null,
        createdAt: now,
        updatedAt: now,
      });
      if (contact.blocked) return holdBlockedMessage({ tickets, messages, ids }, { connection, contact, event, now });
      const recent = await this.reopenable(connection.reopenWindowMinutes, contact.id, connection.id, now, connection.companyId);
      let ticket: Ticket;
      let ticketCreated = false;
      let before: TicketPlace | undefined;
      if (recent) {
        ({ ticket, before } = recent);
      } else {
        const got = await tickets.getOrCreateActive({
          uuid: ids.uuid(),
          companyId: connection.companyId,
          contactId: contact.id,
          connectionId: connection.id,
          status: 'pending',
          userId: null,
          queueId: null,
          unreadMessages: 0,
          lastMessage: '',
          isGroup: event.isGroup,
          greetedAt: null,
          closedAt: null,
          createdAt: now,
          updatedAt: now,
        });
        ticket = got.ticket;
        ticketCreated = got.created;
      }
      before ??= { status: ticket.status, userId: ticket.userId, queueId: ticket.queueId };
      // A shared location or contact cards are stored in the lineage's body shape, and named in words as the last message.
      const content = inboundContent(event);
      const id = ids.uuid();
      // A contact's file: stored at once as pending (its caption is the body), fetched by a job.
      const media = inboundMediaOf(event.media);
      const message: Message = {
        id,
        companyId: connection.companyId,
        ticketId: ticket.id,
        contactId: contact.id,
        connectionId: connection.id,
        providerMessageId: event.providerMessageId,
        fromMe: false,
        body: content.body,
        media: media ? this.mediaOf(media, id) : null,
        status: 'delivered',
        failureReason: null,
        quotedMessageId: null,
        isPrivate: false,
        userId: null,
        createdAt: Number.isNaN(at.getTime()) ? now : at,
        updatedAt: now,
        isDeleted: false,
        isEdited: false,
        editedAt: null,
        transcription: null,
        kind: content.kind,
      };
      if (!(await messages.addInbound(message))) return null;
      if (media && this.deps.inboundMedia) await this.deps.inboundMedia.enqueue(message, media, now);
      ticket.unreadMessages += 1;
      ticket.lastMessage = content.lastMessage;
      if (!ticket.lastMessage && message.media) ticket.lastMessage = `📎 ${message.media.filename}`;
      ticket.updatedAt = now;
      // The first message of a conversation opens it (greeting, menus) exactly once, whoever races;
      // a ticket this transaction created is seen by nobody else before it commits (saved below).
      const opening = !event.isGroup && ticket.greetedAt === null && (ticketCreated || (await tickets.markGreeted(ticket.id, now)));
      if (opening) ticket.greetedAt = now;
      const sent = await router.route({ connection, contact, ticket, message, opening, ticketCreated });
      await tickets.update(ticket);
      await this.track(ticket, before, ticketCreated, now);
      return { ticket, before, message, ticketCreated, sent, contact };
    });
    if (!outcome) return { duplicate: true, ticketId: null, messageId: null, greeted: false };
    if ('held' in outcome) return { duplicate: false, ticketId: outcome.ticketId, messageId: outcome.messageId, greeted: false };
    const { ticket, before, message, ticketCreated, sent } = outcome;
    await announcer.changedWith(ticket, ticketCreated ? 'create' : 'update', before, { contact: outcome.contact, connection, ticketCreated }, [
      message,
      ...sent,
    ]);
    return { duplicate: false, ticketId: ticket.id, messageId: message.id, greeted: sent.length > 0 };
  }

  /** A contact's file as its message stores it at once: pending while the job fetches it, failed when nothing here can. */
  private mediaOf(media: InboundMedia, messageId: string): Message['media'] {
    const pending = pendingMedia(media, messageId);
    return this.deps.inboundMedia ? pending : { ...pending, status: 'failed', error: 'ERR_MEDIA_NOT_SUPPORTED' };
  }

  /** The contact opened a conversation (a new ticket, or a closed one back) or the routing moved it: its attendance cycle follows. */
  private async track(ticket: Ticket, before: TicketPlace, created: boolean, now: Date): Promise<void> {
    const { tracking } = this.deps;
    if (created || before.status === 'closed') {
      await tracking.open(cycleOf(ticket, now, { outbound: false, reopened: !created }));
      return;
    }
    const change = changeOf(before, ticket, now);
    if (change) await tracking.change(ticket.companyId, ticket.id, change);
  }

  /** A ticket closed within the connection's reopen window comes back as pending. */
  private async reopenable(windowMinutes: number, contactId: number, connectionId: number, now: Date, companyId: number) {
    // Without a window, getOrCreateActive alone finds the active ticket or opens one.
    if (windowMinutes <= 0) return null;
    const active = await this.deps.tickets.findActive(companyId, contactId, connectionId);
    if (active) return { ticket: active, before: undefined };
    const closed = await this.deps.tickets.findLatestClosed(companyId, contactId, connectionId);
    if (!closed?.closedAt || now.getTime() - closed.closedAt.getTime() > windowMinutes * 60_000) return null;
    const before: TicketPlace = { status: closed.status, userId: closed.userId, queueId: closed.queueId };
    return { ticket: { ...closed, status: 'pending' as const, closedAt: null }, before };
  }
}
