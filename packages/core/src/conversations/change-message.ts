import type { Actor } from '../shared/actor.js';
import { ConflictError, NotFoundError, ValidationError } from '../shared/errors.js';
import type { Clock, IdGenerator, Transaction } from '../shared/ports.js';
import { SUBJECTS } from '../outbox/broker.js';
import type { SessionEditMessage, SessionRevokeMessage } from '../connections/channel-messages.js';
import type { Connection } from '../connections/connection.js';
import type { Message } from '../messages/message.js';
import type { MessageView } from '../messages/message-view.js';
import type { Messages } from '../messages/ports.js';
import type { Outbox } from '../outbox/ports.js';
import { MAX_MESSAGE_LENGTH } from './send-ticket-message.js';
import type { ConversationLookup } from './conversation-lookup.js';
import type { MessageUpdates } from './message-updates.js';

interface Deps {
  messages: Messages;
  /** The message changed (the actor's own, in a ticket they see) and the session it was sent on, loaded and checked. */
  conversations: ConversationLookup;
  outbox: Outbox;
  tx: Transaction;
  clock: Clock;
  ids: IdGenerator;
  /** Tells the operators of the changed message. */
  updates: MessageUpdates;
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
    const { message } = await this.deps.conversations.ownMessage(input.actor, input.messageId);
    if (message.isDeleted) throw new ConflictError('ERR_MESSAGE_DELETED');
    let channel: { connection: Connection; to: string } | null = null;
    if (!message.isPrivate) {
      channel = await this.deps.conversations.sessionChannel(message, 'ERR_EDIT_NOT_SUPPORTED');
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
    return this.deps.updates.updated(next);
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
    const { message } = await this.deps.conversations.ownMessage(input.actor, input.messageId);
    if (message.isDeleted) return (await this.deps.updates.views(message.companyId, [message]))[0]!;
    const reachedContact = !message.isPrivate && message.status !== 'failed';
    if (reachedContact && !message.providerMessageId) throw new ConflictError('ERR_MESSAGE_NOT_SENT');
    const channel = reachedContact ? await this.deps.conversations.sessionChannel(message, 'ERR_REVOKE_NOT_SUPPORTED') : null;
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
    return next ? this.deps.updates.updated(next) : (await this.deps.updates.views(message.companyId, [{ ...message, isDeleted: true }]))[0]!;
  }
}
