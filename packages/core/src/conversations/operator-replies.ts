import type { Actor } from '../shared/actor.js';
import type { Clock, IdGenerator } from '../shared/ports.js';
import type { TemplateSend } from '../connections/channel-messages.js';
import type { Connection } from '../connections/connection.js';
import type { Contact } from '../contacts/contact.js';
import type { Message, MessageMedia } from '../messages/message.js';
import type { Messages } from '../messages/ports.js';
import type { OutboundMessages } from '../messages/outbound.js';
import type { Ticket } from '../tickets/ticket.js';
import type { Tickets } from '../tickets/ports.js';
import { assertMayChange } from '../tickets/ticket-access.js';
import { ticketState, type TicketJournal } from '../tickets/ticket-journal.js';

/** One message an operator writes: its text and its file, if any. */
export interface ReplyDraft {
  readonly body: string;
  readonly media: MessageMedia | null;
}

/**
 * What an operator's writing does in a conversation (the operators' send and the forward): notes
 * stored, messages sent through the outbox, the ticket written into (a forward's, found or opened),
 * and a reply's effect on it (read, taken when pending or unassigned, journaled).
 */
export class OperatorReplies {
  constructor(
    private readonly deps: {
      tickets: Tickets;
      messages: Messages;
      outbound: OutboundMessages;
      journal: TicketJournal;
      clock: Clock;
      ids: IdGenerator;
    },
  ) {}

  /**
   * The drafts in order, the first quoting `quoted`: as notes (stored as `sent`, never sent), or
   * as sends through the outbox.
   */
  async write(
    ticket: Ticket,
    drafts: readonly ReplyDraft[],
    to: { connection: Connection; contact: Contact; quoted: Message | null; userId: number; isPrivate: boolean; template?: TemplateSend },
  ): Promise<Message[]> {
    const sent: Message[] = [];
    for (const [i, d] of drafts.entries()) {
      const q = i === 0 ? to.quoted : null;
      sent.push(
        to.isPrivate
          ? await this.note(ticket, d.body, d.media, q, to.userId)
          : await this.deps.outbound.enqueue({
              connection: to.connection,
              ticket,
              contact: to.contact,
              body: d.body,
              media: d.media,
              userId: to.userId,
              quoted: q,
              template: to.template,
            }),
      );
    }
    return sent;
  }

  /**
   * The contact's active ticket on the connection for a forward: found (the actor must be free to
   * write in it), or opened for the actor and journaled as created from the forwarded message.
   */
  async ticketFor(actor: Actor, contact: Contact, connection: Connection, forwardedFrom: string, now: Date): Promise<{ ticket: Ticket; created: boolean }> {
    const got = await this.deps.tickets.getOrCreateActive({
      uuid: this.deps.ids.uuid(),
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
    if (got.created) await this.deps.journal.created(got.ticket, actor.userId, { status: 'open', userId: actor.userId, queueId: null, forwardedFrom });
    else assertMayChange(actor, got.ticket);
    return got;
  }

  /**
   * A reply was written: the response is journaled, the ticket shows it as its last message and,
   * pending or unassigned, becomes `open` and the actor's. A send reads the conversation
   * (`readsAll`); a forward does not. `at` is the change's time (now when not given).
   */
  async replied(ticket: Ticket, reply: { lastMessage: string; actor: Actor; via: 'message' | 'forward'; readsAll: boolean; at?: Date }): Promise<Ticket> {
    await this.deps.journal.responded(ticket);
    const { actor } = reply;
    const next: Ticket = {
      ...ticket,
      lastMessage: reply.lastMessage,
      ...(reply.readsAll ? { unreadMessages: 0 } : {}),
      updatedAt: reply.at ?? this.deps.clock.now(),
    };
    if (next.status === 'pending' || next.userId === null) {
      next.status = 'open';
      next.userId = actor.userId;
      await this.deps.journal.save(next, 'accept', actor.userId, { from: ticketState(ticket), to: ticketState(next), via: reply.via });
    } else {
      await this.deps.tickets.update(next);
    }
    return next;
  }

  private async note(ticket: Ticket, body: string, media: MessageMedia | null, quoted: Message | null, userId: number): Promise<Message> {
    const now = this.deps.clock.now();
    const note: Message = {
      id: this.deps.ids.uuid(),
      companyId: ticket.companyId,
      ticketId: ticket.id,
      contactId: ticket.contactId,
      connectionId: ticket.connectionId,
      providerMessageId: null,
      fromMe: true,
      body,
      media,
      status: 'sent',
      failureReason: null,
      quotedMessageId: quoted?.id ?? null,
      isPrivate: true,
      userId,
      createdAt: now,
      updatedAt: now,
      isDeleted: false,
      isEdited: false,
      editedAt: null,
      transcription: null,
    };
    await this.deps.messages.add(note);
    return note;
  }
}
