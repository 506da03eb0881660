import type { Users } from '../identity/ports.js';
import { isAdmin, type Actor } from '../shared/actor.js';
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from '../shared/errors.js';
import type { Clock, IdGenerator, Transaction } from '../shared/ports.js';
import type { Connection } from '../connections/connection.js';
import type { Connections } from '../connections/ports.js';
import type { Contacts } from '../contacts/ports.js';
import type { Tickets } from './ports.js';
import type { TicketDetails, TicketPresenter } from './ticket-details.js';
import type { TicketJournal } from './ticket-journal.js';
import { findQueue } from '../queues/find-queue.js';
import type { Queues } from '../queues/ports.js';

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
      contacts: Contacts;
      connections: Connections;
      users: Users;
      journal: TicketJournal;
      presenter: TicketPresenter;
      tx: Transaction;
      clock: Clock;
      ids: IdGenerator;
      queues: Queues;
    },
  ) {}

  async execute(input: CreateTicketInput): Promise<TicketDetails> {
    const { tickets, contacts, users, journal, presenter, tx, clock, ids } = this.deps;
    const { actor } = input;
    const companyId = actor.companyId;
    const contact = await contacts.findById(companyId, input.contactId);
    if (!contact) throw new NotFoundError('ERR_NO_CONTACT_FOUND');
    const connection = await this.connectionOf(companyId, input.connectionId);
    const status = input.status ?? 'open';
    if (status === 'pending' && input.userId) throw new ValidationError('ERR_PENDING_TICKET_HAS_NO_USER');
    const userId = status === 'pending' ? null : (input.userId ?? actor.userId);
    if (userId !== null && userId !== actor.userId) {
      if (!isAdmin(actor)) throw new ForbiddenError('ERR_NO_PERMISSION');
      if (!(await users.findById(companyId, userId))) throw new NotFoundError('ERR_NO_USER_FOUND');
    }
    if (input.queueId != null) await findQueue(this.deps.queues, companyId, input.queueId);
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

  private async connectionOf(companyId: number, connectionId: number | undefined): Promise<Connection> {
    if (connectionId !== undefined) {
      const connection = await this.deps.connections.findById(companyId, connectionId);
      if (!connection) throw new NotFoundError('ERR_NO_CONNECTION_FOUND');
      return connection;
    }
    const fallback = (await this.deps.connections.list(companyId)).find((c) => c.isDefault);
    if (!fallback) throw new NotFoundError('ERR_NO_DEFAULT_CONNECTION');
    return fallback;
  }
}
