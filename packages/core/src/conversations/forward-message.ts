import type { Actor } from '../shared/actor.js';
import { ConflictError, ValidationError } from '../shared/errors.js';
import type { Clock, Transaction } from '../shared/ports.js';
import type { MessageView } from '../messages/message-view.js';
import type { ConversationAnnouncer } from '../tickets/conversation-announcer.js';
import { hasStoredMedia } from '../messages/message.js';
import { forwardedText } from '../connections/shared-content.js';
import type { TicketDetails } from '../tickets/ticket-details.js';
import type { ConversationLookup } from './conversation-lookup.js';
import type { OperatorReplies } from './operator-replies.js';
import type { SendingRules } from './sending-rules.js';

/**
 * Forwards a message's text and file to another contact of the company, on the same connection:
 * into the contact's active ticket there, or a new one opened for the actor. The copy is a new
 * send through the outbox; the file is the same stored media.
 */
export class ForwardMessage {
  constructor(
    private readonly deps: {
      /** The message forwarded, its ticket as the actor sees it, the target contact and connection, loaded and checked. */
      conversations: ConversationLookup;
      /** The ticket the copy goes into, the send and the reply's effect on the ticket. */
      replies: OperatorReplies;
      /** Tells the operators of the ticket and the forwarded message. */
      announcer: ConversationAnnouncer;
      tx: Transaction;
      clock: Clock;
      /** The company's suspension. */
      rules: SendingRules;
    },
  ) {}

  async execute(input: {
    readonly actor: Actor;
    readonly messageId: string;
    readonly contactId: number;
  }): Promise<{ ticket: TicketDetails; message: MessageView }> {
    const { conversations, replies, announcer, tx, clock } = this.deps;
    const { actor } = input;
    const source = await conversations.message(actor.companyId, input.messageId);
    await conversations.visibleTicket(actor, source.ticketId);
    if (source.isDeleted) throw new ConflictError('ERR_MESSAGE_DELETED');
    if (source.isPrivate) throw new ValidationError('ERR_CANNOT_FORWARD_PRIVATE');
    // A contact's file not yet stored (or never) is not forwarded: only its caption is, if any.
    const media = hasStoredMedia(source) ? source.media : null;
    if (!source.body.trim() && !media) throw new ValidationError('ERR_EMPTY_MESSAGE');
    await this.deps.rules.companyMaySend(actor.companyId);
    const contact = await conversations.contact(actor.companyId, input.contactId);
    const connection = await conversations.connection(actor.companyId, source.connectionId);
    await conversations.activeTicketFor(actor, contact.id, connection.id);
    const outcome = await tx.run(async () => {
      const now = clock.now();
      const got = await replies.ticketFor(actor, contact, connection, source.id, now);
      // A shared location or contact cards go out as words (the lineage's body shape is for the desk, not the contact).
      const body = forwardedText(source);
      const [message] = await replies.write(got.ticket, [{ body, media }], { connection, contact, quoted: null, userId: actor.userId, isPrivate: false });
      const next = await replies.replied(got.ticket, { lastMessage: body || media?.filename || '', actor, via: 'forward', readsAll: false, at: now });
      return { ticket: next, message: message!, created: got.created };
    });
    const announced = await announcer.changedWith(outcome.ticket, outcome.created ? 'create' : 'update', undefined, {}, [outcome.message]);
    return { ticket: announced.ticket, message: announced.messages[0]! };
  }
}
