import { isAdmin, type Actor } from '../shared/actor.js';
import { ConflictError, ForbiddenError, ValidationError } from '../shared/errors.js';
import type { Clock, IdGenerator, Transaction } from '../shared/ports.js';
import type { Tickets } from './ports.js';
import type { TicketDetails, TicketPresenter } from './ticket-details.js';
import type { TicketJournal } from './ticket-journal.js';
import type { TicketParties } from './ticket-parties.js';
import type { TicketTargets } from './ticket-targets.js';

export interface CreateTicketInput {
  readonly actor: Actor;
  readonly contactId: number;
  /** The connection to talk on; the company's default connection when absent. */
  readonly connectionId?: number;
  /** `open` (default) is taken by `userId`, or by the actor; `pending` waits in the queue for anyone. */
  readonly status?: 'open' | 'pending';
  readonly userId?: number | null;
  readonly queueId?: number | null;
}

/**
 * An operator starts a conversation with a contact. A contact has at most one active ticket per
 * connection: `ERR_OTHER_OPEN_TICKET` (409) when one exists, decided in the end by the database.
 */
export class CreateTicket {
  constructor(
    private readonly deps: {
      tickets: Tickets;
      /** The contact and the connection the conversation is between. */
      parties: TicketParties;
      /** The user and queue it may be given to. */
      targets: TicketTargets;
      journal: TicketJournal;
      presenter: TicketPresenter;
      tx: Transaction;
      clock: Clock;
      ids: IdGenerator;
    },
  ) {}

  async execute(input: CreateTicketInput): Promise<TicketDetails> {
    const { tickets, targets, journal, presenter, tx, clock, ids } = this.deps;
    const { actor } = input;
    const companyId = actor.companyId;
    const { contact, connection } = await this.deps.parties.of(companyId, input.contactId, input.connectionId);
    const status = input.status ?? 'open';
    if (status === 'pending' && input.userId) throw new ValidationError('ERR_PENDING_TICKET_HAS_NO_USER');
    const userId = status === 'pending' ? null : (input.userId ?? actor.userId);
    if (userId !== null && userId !== actor.userId) {
      if (!isAdmin(actor)) throw new ForbiddenError('ERR_NO_PERMISSION');
      await targets.assertUser(companyId, userId);
    }
    if (input.queueId != null) await targets.assertQueue(companyId, input.queueId);
    if (await tickets.findActive(companyId, contact.id, connection.id)) throw new ConflictError('ERR_OTHER_OPEN_TICKET');
    const ticket = await tx.run(async () => {
      const now = clock.now();
      const got = await tickets.getOrCreateActive({
        uuid: ids.uuid(),
        companyId,
        contactId: contact.id,
        connectionId: connection.id,
        status,
        userId,
        queueId: input.queueId ?? null,
        unreadMessages: 0,
        lastMessage: '',
        isGroup: contact.isGroup,
        greetedAt: now,
        closedAt: null,
        createdAt: now,
        updatedAt: now,
      });
      // Another request created one between the check and the insert: the unique index said no.
      if (!got.created) throw new ConflictError('ERR_OTHER_OPEN_TICKET');
      await journal.created(got.ticket, actor.userId, { status, userId, queueId: got.ticket.queueId });
      return got.ticket;
    });
    return presenter.publish(ticket, 'create');
  }
}
