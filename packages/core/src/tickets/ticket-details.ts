import type { Users } from '../identity/ports.js';
import type { RealtimeEvents } from '../realtime/ports.js';
import type { TicketEvent } from './ticket-events.js';
import type { Tags } from '../tags/ports.js';
import { toTagSummary, type TagSummary } from '../tags/tag.js';
import type { Ticket } from './ticket.js';
import { toTicketView, type TicketView } from './ticket-view.js';
import type { Connections } from '../connections/ports.js';
import type { Contacts } from '../contacts/ports.js';

export interface ContactSummary { readonly id: number; readonly name: string; readonly number: string; readonly profilePicUrl: string | null; }

/** A ticket as the panel shows it: with its contact, its connection's name, its operator and its tags. */
export interface TicketDetails extends TicketView {
  contact: ContactSummary | null;
  connection: { id: number; name: string } | null;
  user: { id: number; name: string } | null;
  tags: TagSummary[];
}

/**
 * Joins tickets with their contact, connection and user, reading each distinct one once, and
 * with their tags, read in one query for the whole page.
 */
export class TicketPresenter {
  constructor(private readonly deps: { contacts: Contacts; connections: Connections; users: Users; realtime: RealtimeEvents<TicketEvent>; tags: Tags }) {}

  async one(ticket: Ticket): Promise<TicketDetails> {
    return (await this.many(ticket.companyId, [ticket]))[0]!;
  }

  async many(companyId: number, tickets: readonly Ticket[]): Promise<TicketDetails[]> {
    const { contacts, connections, users, tags } = this.deps;
    // A page of tickets names up to its size of contacts: one read, not one per ticket.
    const contactOf = new Map((tickets.length ? await contacts.findByIds(companyId, tickets.map((t) => t.contactId)) : [])
      .map((c) => [c.id, { id: c.id, name: c.name, number: c.number, profilePicUrl: c.profilePicUrl }] as const));
    const connectionOf = await lookup(tickets.map((t) => t.connectionId), async (id) => {
      const c = await connections.findById(companyId, id);
      return c && { id: c.id, name: c.name };
    });
    const userOf = await lookup(tickets.flatMap((t) => (t.userId === null ? [] : [t.userId])), async (id) => {
      const u = await users.findById(companyId, id);
      return u && { id: u.id, name: u.name };
    });
    const tagsOf = tickets.length ? await tags.tagsOfTickets(companyId, tickets.map((t) => t.id)) : new Map<number, never[]>();
    return tickets.map((t) => ({
      ...toTicketView(t),
      contact: contactOf.get(t.contactId) ?? null,
      connection: connectionOf.get(t.connectionId) ?? null,
      user: t.userId === null ? null : userOf.get(t.userId) ?? null,
      tags: (tagsOf.get(t.id) ?? []).map(toTagSummary),
    }));
  }

  /** Tells the company's operators about the ticket (`ticket` event) and returns what it sent. */
  async publish(ticket: Ticket, action: 'create' | 'update'): Promise<TicketDetails> {
    const details = await this.one(ticket);
    await this.deps.realtime.publish(ticket.companyId, { entity: 'ticket', data: { action, ticket: details } });
    return details;
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
