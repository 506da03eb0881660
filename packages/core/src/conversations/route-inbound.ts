import type { Clock, Transaction } from '../shared/ports.js';
import type { InboundMessageEvent } from '../connections/channel-messages.js';
import type { ConversationAnnouncer } from '../tickets/conversation-announcer.js';
import type { Connections } from '../connections/ports.js';
import type { QueueRouter } from './queue-router.js';
import type { RoutingReads } from './routing-reads.js';
import type { InboundConversations } from './inbound-conversations.js';
import type { InboundMessageStore } from './inbound-message-store.js';

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
      tx: Transaction;
      clock: Clock;
      /** The contact, its ticket (found, reopened or opened), the opening, the ticket saved with its cycle. */
      conversations: InboundConversations;
      /** The message stored once (a blocked contact's held aside), its file handed to the fetch job. */
      store: InboundMessageStore;
      router: QueueRouter;
      /** Tells the operators of the ticket and its new messages. */
      announcer: ConversationAnnouncer;
      /** The routing's kept reads: checked once per message, before its transaction (see `RoutingReads`). */
      routing?: Pick<RoutingReads, 'check'>;
    },
  ) {}

  async execute(event: InboundMessageEvent): Promise<RouteInboundResult> {
    const { connections, tx, clock, conversations, store, router, announcer } = this.deps;
    const connection = await connections.findById(event.companyId, event.chatappId);
    if (!connection) return { duplicate: false, ticketId: null, messageId: null, greeted: false };
    await this.deps.routing?.check(connection.companyId);
    const outcome = await tx.run(async () => {
      if (await store.stored(connection.id, event.providerMessageId)) return null;
      const now = clock.now();
      const contact = await conversations.contact(connection, event, now);
      if (contact.blocked) return store.hold({ connection, contact, event, now });
      const { ticket, created: ticketCreated, before } = await conversations.ticket(connection, contact, event, now);
      // A contact's file: stored at once as pending (its caption is the body), fetched by a job.
      const added = await store.add({ connection, contact, ticket, event, now });
      if (!added) return null;
      const { message } = added;
      ticket.unreadMessages += 1;
      ticket.lastMessage = added.lastMessage;
      if (!ticket.lastMessage && message.media) ticket.lastMessage = `📎 ${message.media.filename}`;
      ticket.updatedAt = now;
      // The first message of a conversation opens it (greeting, menus) exactly once, whoever races;
      // a ticket this transaction created is seen by nobody else before it commits (saved below).
      const opening = await conversations.opens(ticket, ticketCreated, event, now);
      if (opening) ticket.greetedAt = now;
      const sent = await router.route({ connection, contact, ticket, message, opening, ticketCreated });
      await conversations.save(ticket, before, ticketCreated, now);
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
}
