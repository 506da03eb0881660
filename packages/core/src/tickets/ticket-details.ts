import type { Users } from '../identity/ports.js';
import type { RealtimeEvents } from '../realtime/ports.js';
import type { TicketEvent, TicketPlace } from './ticket-events.js';
import type { Tags } from '../tags/ports.js';
import { toTagSummary, type TagSummary } from '../tags/tag.js';
import type { Ticket } from './ticket.js';
import { toTicketView, type TicketView } from './ticket-view.js';
import type { Connections } from '../connections/ports.js';
import type { Connection, ConnectionKind } from '../connections/connection.js';
import type { Contacts } from '../contacts/ports.js';
import type { Contact } from '../contacts/contact.js';
import { toContactView, type ContactView } from '../contacts/contact-view.js';
import type { Queues } from '../queues/ports.js';

/** The contact a ticket is with, as the contacts' own views show it (`urlPicture`, `acceptAudioMessage`...), with its tags. */
export interface TicketContact extends ContactView {
  tags: TagSummary[];
}

/** What a ticket carries of its connection (the lineage's `whatsapp` object, `chatapp` under the naming rule). */
export interface TicketChatapp {
  id: number;
  name: string;
  /** The connection's kind: `chatapp`, `socialnet` or `bizchat`. */
  channel: ConnectionKind;
  status: string;
  isDefault: boolean;
}

/** A ticket as the panel shows it: with its contact, its connection, its queue, its operator and its tags. */
export interface TicketDetails extends TicketView {
  /** The kind of its connection (`chatapp`, `socialnet`, `bizchat`); null if the connection is gone. */
  channel: ConnectionKind | null;
  contact: TicketContact | null;
  chatapp: TicketChatapp | null;
  queue: { id: number; name: string; color: string } | null;
  user: { id: number; name: string } | null;
  tags: TagSummary[];
}

/**
 * What the caller of `one` already holds, so it is not read again: the ticket's contact and
 * connection as just read or written in its transaction, and whether the ticket was created there
 * (a new ticket has no tags yet).
 */
export interface KnownTicketParts {
  readonly contact?: Contact;
  readonly connection?: Connection;
  readonly ticketCreated?: boolean;
}

/**
 * Joins tickets with their contact, connection, queue and user, reading each distinct one once,
 * and with their tags and their contacts' tags, read in one query each for the whole page.
 */
export class TicketPresenter {
  constructor(
    private readonly deps: {
      contacts: Contacts;
      connections: Connections;
      users: Users;
      realtime: RealtimeEvents<TicketEvent>;
      tags: Tags;
      queues: Queues;
    },
  ) {}

  async one(ticket: Ticket, known: KnownTicketParts = {}): Promise<TicketDetails> {
    return (await this.many(ticket.companyId, [ticket], known))[0]!;
  }

  /** `known` only with one ticket: the parts of it the caller holds. */
  async many(companyId: number, tickets: readonly Ticket[], known: KnownTicketParts = {}): Promise<TicketDetails[]> {
    if (tickets.length === 0) return [];
    const { contacts, connections, users, tags, queues } = this.deps;
    const only = tickets.length === 1 ? tickets[0]! : null;
    const knownContact = only && known.contact?.id === only.contactId && known.contact.companyId === companyId ? known.contact : null;
    const knownConnection = only && known.connection?.id === only.connectionId && known.connection.companyId === companyId ? known.connection : null;
    // A page of tickets names up to its size of contacts: one read, not one per ticket.
    const contactIds = [...new Set(tickets.map((t) => t.contactId))];
    const contactTags = await tags.tagsOfContacts(companyId, contactIds);
    const contactOf = new Map(
      (knownContact ? [knownContact] : await contacts.findByIds(companyId, contactIds)).map(
        (c) => [c.id, { ...toContactView(c), tags: (contactTags.get(c.id) ?? []).map(toTagSummary) }] as const,
      ),
    );
    const connectionOf = await lookup(
      tickets.map((t) => t.connectionId),
      async (id) => {
        const c = knownConnection ?? (await connections.findById(companyId, id));
        return c && { id: c.id, name: c.name, channel: c.kind, status: c.status, isDefault: c.isDefault };
      },
    );
    const queueIds = [...new Set(tickets.flatMap((t) => (t.queueId === null ? [] : [t.queueId])))];
    const queueOf = new Map(
      (queueIds.length ? await queues.findByIds(companyId, queueIds) : []).map((q) => [q.id, { id: q.id, name: q.name, color: q.color }] as const),
    );
    const userOf = await lookup(
      tickets.flatMap((t) => (t.userId === null ? [] : [t.userId])),
      async (id) => {
        const u = await users.findById(companyId, id);
        return u && { id: u.id, name: u.name };
      },
    );
    const tagsOf =
      only && known.ticketCreated
        ? new Map()
        : await tags.tagsOfTickets(
            companyId,
            tickets.map((t) => t.id),
          );
    return tickets.map((t) => {
      const chatapp = connectionOf.get(t.connectionId) ?? null;
      return {
        ...toTicketView(t),
        channel: chatapp?.channel ?? null,
        contact: contactOf.get(t.contactId) ?? null,
        chatapp,
        queue: t.queueId === null ? null : (queueOf.get(t.queueId) ?? null),
        user: t.userId === null ? null : (userOf.get(t.userId) ?? null),
        tags: (tagsOf.get(t.id) ?? []).map(toTagSummary),
      };
    });
  }

  /**
   * Tells the company's operators about the ticket (`ticket` event) and returns what it sent.
   * Given where the ticket was listed before the change (`before`), a move to another status, user
   * or queue is first announced as `delete` with `from`, so lists drop it before the `update`.
   */
  async publish(ticket: Ticket, action: 'create' | 'update', before?: TicketPlace, known: KnownTicketParts = {}): Promise<TicketDetails> {
    const details = await this.one(ticket, known);
    await this.announce(details, action, before);
    return details;
  }

  /** As `publish`, with details already made (in the transaction that wrote the ticket, to be answered as they were). */
  async announce(details: TicketDetails, action: 'create' | 'update', before?: TicketPlace): Promise<void> {
    if (action === 'update' && before && (before.status !== details.status || before.userId !== details.userId || before.queueId !== details.queueId)) {
      const from: TicketPlace = { status: before.status, userId: before.userId, queueId: before.queueId };
      await this.deps.realtime.publish(details.companyId, { entity: 'ticket', data: { action: 'delete', ticketId: details.id, from } });
    }
    await this.deps.realtime.publish(details.companyId, { entity: 'ticket', data: { action, ticket: details } });
  }
}

async function lookup<T>(ids: readonly number[], find: (id: number) => Promise<T | null>): Promise<Map<number, T>> {
  const found = new Map<number, T>();
  for (const id of new Set(ids)) {
    const value = await find(id);
    if (value) found.set(id, value);
  }
  return found;
}
