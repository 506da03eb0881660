import type { Users } from '../identity/ports.js';
import { isAdmin, type Actor } from '../shared/actor.js';
import type { RealtimeEvents } from '../realtime/ports.js';
import type { MessageUpdateEvent } from '../messages/message-events.js';
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from '../shared/errors.js';
import type { Clock, IdGenerator, Transaction } from '../shared/ports.js';
import { SUBJECTS } from '../outbox/broker.js';
import type { SessionEditMessage, SessionRevokeMessage } from '../connections/channel-messages.js';
import type { Connection } from '../connections/connection.js';
import type { Message } from '../messages/message.js';
import type { Ticket } from '../tickets/ticket.js';
import { publishMessageUpdate, toMessageViews, type MessageContexts, type MessageView } from '../messages/message-view.js';
import type { Connections } from '../connections/ports.js';
import type { Contacts } from '../contacts/ports.js';
import type { Messages } from '../messages/ports.js';
import type { Outbox } from '../outbox/ports.js';
import type { Tickets } from '../tickets/ports.js';
import { MAX_MESSAGE_LENGTH } from './send-ticket-message.js';
import { visibleTicket } from '../tickets/ticket-access.js';

interface Deps {
  tickets: Tickets;
  messages: Messages;
  contacts: Contacts;
  connections: Connections;
  users: Users;
  outbox: Outbox;
  tx: Transaction;
  clock: Clock;
  ids: IdGenerator;
  realtime: RealtimeEvents<MessageUpdateEvent>;
  contexts?: MessageContexts;
}

/** A message the actor may change: sent by the operators (users: by themselves) in a ticket they see. */
async function ownMessage(deps: Deps, actor: Actor, messageId: string): Promise<{ message: Message; ticket: Ticket }> {
  const message = await deps.messages.findById(actor.companyId, messageId);
  if (!message) throw new NotFoundError('ERR_NO_MESSAGE_FOUND');
  const ticket = await visibleTicket(deps, actor, message.ticketId);
  if (!message.fromMe || (!isAdmin(actor) && message.userId !== actor.userId)) throw new ForbiddenError('ERR_NOT_OWN_MESSAGE');
  return { message, ticket };
}

/** The session connection and contact a command about a sent message goes to. */
async function channelOf(
  deps: Deps,
  message: Message,
  unsupported: 'ERR_EDIT_NOT_SUPPORTED' | 'ERR_REVOKE_NOT_SUPPORTED',
): Promise<{ connection: Connection; to: string }> {
  const connection = await deps.connections.findById(message.companyId, message.connectionId);
  if (!connection) throw new NotFoundError('ERR_NO_CONNECTION_FOUND');
  if (connection.kind !== 'chatapp') throw new ValidationError(unsupported);
  const contact = await deps.contacts.findById(message.companyId, message.contactId);
  if (!contact) throw new NotFoundError('ERR_NO_CONTACT_FOUND');
  return { connection, to: contact.number };
}

/**
 * Changes the text of a message the operators sent. A note changes in place; a sent message
 * also gets a `SessionEditMessage` command (session connections only: `ERR_EDIT_NOT_SUPPORTED`
 * elsewhere), committed with the change. The provider's own edit window applies at the provider.
 */
export class EditMessage {
  constructor(private readonly deps: Deps) {}

  async execute(input: { readonly actor: Actor; readonly messageId: string; readonly body: string }): Promise<MessageView> {
    const { messages, outbox, tx, clock, ids } = this.deps;
    if (!input.body.trim()) throw new ValidationError('ERR_EMPTY_MESSAGE');
    if (input.body.length > MAX_MESSAGE_LENGTH) throw new ValidationError('ERR_MESSAGE_TOO_LONG');
    const { message } = await ownMessage(this.deps, input.actor, input.messageId);
    if (message.isDeleted) throw new ConflictError('ERR_MESSAGE_DELETED');
    let channel: { connection: Connection; to: string } | null = null;
    if (!message.isPrivate) {
      channel = await channelOf(this.deps, message, 'ERR_EDIT_NOT_SUPPORTED');
      if (!message.providerMessageId || message.status === 'failed') throw new ConflictError('ERR_MESSAGE_NOT_SENT');
    }
    const next = await tx.run(async () => {
      const current = await messages.findById(message.companyId, message.id);
      if (!current) throw new NotFoundError('ERR_NO_MESSAGE_FOUND');
      if (current.isDeleted) throw new ConflictError('ERR_MESSAGE_DELETED');
      const now = clock.now();
      const edited: Message = { ...current, body: input.body, isEdited: true, editedAt: now, updatedAt: now };
      await messages.update(edited);
      if (channel && current.providerMessageId) {
        const command: SessionEditMessage = {
          type: 'SessionEditMessage',
          messageId: current.id,
          companyId: current.companyId,
          chatappId: channel.connection.id,
          ticketId: current.ticketId,
          to: channel.to,
          providerMessageId: current.providerMessageId,
          body: input.body,
        };
        await outbox.add({ id: ids.uuid(), subject: SUBJECTS.sessionEdit(channel.connection.id), payload: command, createdAt: now });
      }
      return edited;
    });
    return publishMessageUpdate(this.deps.realtime, next, this.deps.contexts);
  }
}

/**
 * Deletes a message the operators sent, for everyone: it stays in our store flagged
 * `isDeleted` (operators still see what it said) and a `SessionRevokeMessage` command removes it
 * at the provider. Notes and failed sends never reached the contact, so they are only flagged;
 * a send still on its way is refused (`ERR_MESSAGE_NOT_SENT`). Deleting twice changes nothing.
 */
export class RevokeMessage {
  constructor(private readonly deps: Deps) {}

  async execute(input: { readonly actor: Actor; readonly messageId: string }): Promise<MessageView> {
    const { messages, outbox, tx, clock, ids } = this.deps;
    const { message } = await ownMessage(this.deps, input.actor, input.messageId);
    if (message.isDeleted) return (await toMessageViews(this.deps.contexts, message.companyId, [message]))[0]!;
    const reachedContact = !message.isPrivate && message.status !== 'failed';
    if (reachedContact && !message.providerMessageId) throw new ConflictError('ERR_MESSAGE_NOT_SENT');
    const channel = reachedContact ? await channelOf(this.deps, message, 'ERR_REVOKE_NOT_SUPPORTED') : null;
    const next = await tx.run(async () => {
      const current = await messages.findById(message.companyId, message.id);
      if (!current) throw new NotFoundError('ERR_NO_MESSAGE_FOUND');
      if (current.isDeleted) return null;
      const now = clock.now();
      const deleted: Message = { ...current, isDeleted: true, updatedAt: now };
      await messages.update(deleted);
      if (channel && current.providerMessageId) {
        const command: SessionRevokeMessage = {
          type: 'SessionRevokeMessage',
          messageId: current.id,
          companyId: current.companyId,
          chatappId: channel.connection.id,
          ticketId: current.ticketId,
          to: channel.to,
          providerMessageId: current.providerMessageId,
        };
        await outbox.add({ id: ids.uuid(), subject: SUBJECTS.sessionRevoke(channel.connection.id), payload: command, createdAt: now });
      }
      return deleted;
    });
    return next
      ? publishMessageUpdate(this.deps.realtime, next, this.deps.contexts)
      : (await toMessageViews(this.deps.contexts, message.companyId, [{ ...message, isDeleted: true }]))[0]!;
  }
}
