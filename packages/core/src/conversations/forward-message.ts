import type { Users } from '../identity/ports.js';
import type { Actor } from '../shared/actor.js';
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from '../shared/errors.js';
import type { Clock, IdGenerator, Transaction } from '../shared/ports.js';
import type { Ticket } from '../tickets/ticket.js';
import type { MessageView } from '../messages/message-view.js';
import type { ConversationAnnouncer } from '../tickets/conversation-announcer.js';
import type { OutboundMessages } from '../messages/outbound.js';
import { hasStoredMedia } from '../messages/message.js';
import { forwardedText } from '../connections/shared-content.js';
import type { Connections } from '../connections/ports.js';
import type { Contacts } from '../contacts/ports.js';
import type { Messages } from '../messages/ports.js';
import type { Tickets } from '../tickets/ports.js';
import { assertMayChange, maySee, ticketAccess, visibleTicket } from '../tickets/ticket-access.js';
import type { TicketDetails } from '../tickets/ticket-details.js';
import { ticketState, type TicketJournal } from '../tickets/ticket-journal.js';
import { assertMaySend } from '../tenancy/company-suspension.js';
import type { CompanySuspensions } from '../tenancy/ports.js';

/**
 * Forwards a message's text and file to another contact of the company, on the same connection:
 * into the contact's active ticket there, or a new one opened for the actor. The copy is a new
 * send through the outbox; the file is the same stored media.
 */
export class ForwardMessage {
  constructor(
    private readonly deps: {
      tickets: Tickets;
      messages: Messages;
      contacts: Contacts;
      connections: Connections;
      users: Users;
      outbound: OutboundMessages;
      journal: TicketJournal;
      /** Tells the operators of the ticket and the forwarded message. */
      announcer: ConversationAnnouncer;
      tx: Transaction;
      clock: Clock;
      ids: IdGenerator;
      suspensions?: CompanySuspensions;
    },
  ) {}

  async execute(input: {
    readonly actor: Actor;
    readonly messageId: string;
    readonly contactId: number;
  }): Promise<{ ticket: TicketDetails; message: MessageView }> {
    const { tickets, messages, contacts, connections, users, outbound, journal, announcer, tx, clock, ids } = this.deps;
    const { actor } = input;
    const source = await messages.findById(actor.companyId, input.messageId);
    if (!source) throw new NotFoundError('ERR_NO_MESSAGE_FOUND');
    await visibleTicket(this.deps, actor, source.ticketId);
    if (source.isDeleted) throw new ConflictError('ERR_MESSAGE_DELETED');
    if (source.isPrivate) throw new ValidationError('ERR_CANNOT_FORWARD_PRIVATE');
    // A contact's file not yet stored (or never) is not forwarded: only its caption is, if any.
    const media = hasStoredMedia(source) ? source.media : null;
    if (!source.body.trim() && !media) throw new ValidationError('ERR_EMPTY_MESSAGE');
    await assertMaySend(this.deps.suspensions, actor.companyId);
    const contact = await contacts.findById(actor.companyId, input.contactId);
    if (!contact) throw new NotFoundError('ERR_NO_CONTACT_FOUND');
    const connection = await connections.findById(actor.companyId, source.connectionId);
    if (!connection) throw new NotFoundError('ERR_NO_CONNECTION_FOUND');
    const existing = await tickets.findActive(actor.companyId, contact.id, connection.id);
    if (existing) {
      if (!maySee(await ticketAccess(users, actor), existing)) throw new ForbiddenError('ERR_NO_PERMISSION');
      assertMayChange(actor, existing);
    }
    const outcome = await tx.run(async () => {
      const now = clock.now();
      const got = await tickets.getOrCreateActive({
        uuid: ids.uuid(),
        companyId: actor.companyId,
        contactId: contact.id,
        connectionId: connection.id,
        status: 'open',
        userId: actor.userId,
        queueId: null,
        unreadMessages: 0,
        lastMessage: '',
        isGroup: contact.isGroup,
        greetedAt: now,
        closedAt: null,
        createdAt: now,
        updatedAt: now,
      });
      if (got.created) await journal.created(got.ticket, actor.userId, { status: 'open', userId: actor.userId, queueId: null, forwardedFrom: source.id });
      else assertMayChange(actor, got.ticket);
      // A shared location or contact cards go out as words (the lineage's body shape is for the desk, not the contact).
      const body = forwardedText(source);
      const message = await outbound.enqueue({ connection, ticket: got.ticket, contact, body, media, userId: actor.userId });
      await journal.responded(got.ticket);
      const next: Ticket = { ...got.ticket, lastMessage: body || media?.filename || '', updatedAt: now };
      if (next.status === 'pending' || next.userId === null) {
        next.status = 'open';
        next.userId = actor.userId;
        await journal.save(next, 'accept', actor.userId, { from: ticketState(got.ticket), to: ticketState(next), via: 'forward' });
      } else {
        await tickets.update(next);
      }
      return { ticket: next, message, created: got.created };
    });
    const announced = await announcer.changedWith(outcome.ticket, outcome.created ? 'create' : 'update', undefined, {}, [outcome.message]);
    return { ticket: announced.ticket, message: announced.messages[0]! };
  }
}
