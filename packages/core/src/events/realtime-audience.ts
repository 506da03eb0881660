import { isAdmin, isSuper } from '../shared/actor.js';
import type { Tickets } from '../tickets/ports.js';
import { maySee, ticketScope, type TicketAccess, type TicketScope } from '../tickets/ticket-access.js';
import type { RealtimeEvent } from './realtime-event.js';

/**
 * Who may receive a realtime event: the same rule as the HTTP route that reads what it carries.
 * The transport keeps it with the frame (fan-out and replay window) and applies it to each socket's
 * `TicketAccess`, so a socket receives exactly what its user could read over HTTP.
 */
export type RealtimeAudience =
  /** Every operator of the company (users, queues, settings, connections, contacts, tags…). */
  | { readonly kind: 'company' }
  /** Admins and super users only (queue integrations, contact lists: admin-only routes). */
  | { readonly kind: 'admins' }
  /** Those who see every ticket: admins, super users and users with `allTicket` (a deleted ticket). */
  | { readonly kind: 'seesAll' }
  /** Those who may read this ticket (`GET /tickets/:id`, `GET /messages/:ticketId`, private notes included). */
  | { readonly kind: 'ticket'; readonly ticket: TicketScope }
  /** A frame listing tickets (`ticketIds`): each socket gets it with the ids it may read, or not at all. */
  | { readonly kind: 'tickets'; readonly tickets: readonly TicketScope[] }
  /** Named users only (for internal chats: their members). */
  | { readonly kind: 'users'; readonly userIds: readonly number[] }
  /** One user and the admins (a personal template: its owner, and the admins who manage every template). */
  | { readonly kind: 'userAndAdmins'; readonly userId: number }
  /** Super users only (they follow every platform announcement, as their list shows them all). */
  | { readonly kind: 'supers' }
  /** Everyone but super users (an announcement as the company's users read it). */
  | { readonly kind: 'exceptSupers' };

const COMPANY: RealtimeAudience = { kind: 'company' };
const ADMINS: RealtimeAudience = { kind: 'admins' };
const SEES_ALL: RealtimeAudience = { kind: 'seesAll' };

/**
 * The audience of one event, read from its payload; where the payload does not carry the ticket
 * (a message update, a bulk close) the ticket is looked up. A new entity does not compile until it
 * is given an audience here.
 */
export async function audienceOf(deps: { tickets: Pick<Tickets, 'findById'> }, companyId: number, event: RealtimeEvent): Promise<RealtimeAudience> {
  switch (event.entity) {
    case 'user':
    case 'company':
    case 'settings':
    case 'queue':
    case 'chatapp':
    case 'chatappSession':
    case 'contact':
    case 'contactImport':
    case 'tag':
    // Every operator reads the company's schedules (`GET /schedules`), as the lineage's page does,
    // and its scheduled messages (`GET /schedules-message`).
    case 'schedule':
    case 'scheduledMessage':
    // Every operator reads the company's file lists (`GET /files`: queue and chatbot forms pick from them).
    case 'file':
    // Every user of the company reads and takes orders (`GET /orders`).
    case 'order':
    // Every user of the company reads the catalog (`GET /products`, `GET /categories`).
    case 'product':
    case 'category':
      return COMPANY;
    case 'queueIntegration':
    case 'ContactList':
    case 'ContactListItem':
    case 'contactListImport':
    case 'campaign':
    case 'campaignProgress':
    case 'campaignSettings':
    // Prompts are managed by admins only (their routes are admin-only).
    case 'prompt':
    // So are flows (every flow route is admin-only).
    case 'flow':
    // Object-store configs too (admin-only routes).
    case 'objstoreConfig':
    // Product imports are started and followed by admins only.
    case 'productImport':
    // Payments: admins pay the company's invoices (`POST /subscription`).
    case 'payment':
      return ADMINS;
    // Internal chats: the members the event names, never the whole company.
    case 'chat':
    case 'chat-user':
      return { kind: 'users', userIds: [...event.to] };
    // Templates: a global one every operator, a personal one its owner and the admins (their reads), the admins alone without an owner.
    case 'companyTemplate': {
      const { readers } = event;
      if (readers.kind === 'company') return COMPANY;
      return readers.userId === null ? ADMINS : { kind: 'userAndAdmins', userId: readers.userId };
    }
    // The platform's companies, plans and settings: their screens are the super users'.
    case 'platform':
      return { kind: 'supers' };
    // Platform announcements: the publisher says who in the company reads each frame.
    case 'announcement':
      return event.readers === 'company' ? COMPANY : { kind: event.readers };
    case 'ticket': {
      const data = event.data;
      if (data.action === 'create' || data.action === 'update' || data.action === 'updateUnread') return { kind: 'ticket', ticket: ticketScope(data.ticket) };
      // Leaving its lists: those who could see it where it was. Gone: only those who saw every ticket
      // are told (its state is no longer known).
      if (data.action === 'delete') return data.from ? { kind: 'ticket', ticket: { id: data.ticketId, ...data.from } } : SEES_ALL;
      const tickets: TicketScope[] = [];
      for (const id of data.ticketIds) {
        const found = await deps.tickets.findById(companyId, id);
        if (found) tickets.push(ticketScope(found));
      }
      return { kind: 'tickets', tickets };
    }
    case 'appMessage': {
      const data = event.data;
      if (data.action === 'create') return { kind: 'ticket', ticket: ticketScope(data.ticket) };
      // The view carries its ticket as read for it, moments ago: no second read of the same row.
      const carried = data.message.ticket;
      if (carried && carried.id === data.message.ticketId)
        return { kind: 'ticket', ticket: ticketScope({ ...carried, status: carried.status as TicketScope['status'] }) };
      const ticket = await deps.tickets.findById(companyId, data.message.ticketId);
      return ticket ? { kind: 'ticket', ticket: ticketScope(ticket) } : SEES_ALL;
    }
    // The contact's typing: those who may read the ticket of the conversation.
    case 'contactTyping':
      return { kind: 'ticket', ticket: event.scope };
    // A transcription job: those who may read its ticket (who asked for it, and who reads its messages).
    case 'transcription': {
      const ticket = await deps.tickets.findById(companyId, event.data.job.ticketId);
      return ticket ? { kind: 'ticket', ticket: ticketScope(ticket) } : SEES_ALL;
    }
    default: {
      const unknown: never = event;
      void unknown;
      return SEES_ALL;
    }
  }
}

/**
 * Whether a socket whose user has `access` receives a frame for `audience`: `true`, `false`, or,
 * for a `tickets` audience and a user who does not see every ticket, the ids it may read (the
 * frame's `ticketIds` are narrowed to them; none → `false`).
 */
export function admits(access: TicketAccess, audience: RealtimeAudience): boolean | number[] {
  switch (audience.kind) {
    case 'company':
      return true;
    case 'admins':
      return isAdmin(access.actor);
    case 'seesAll':
      return access.seesAll;
    case 'ticket':
      return maySee(access, audience.ticket);
    case 'users':
      return audience.userIds.includes(access.actor.userId);
    case 'userAndAdmins':
      return isAdmin(access.actor) || audience.userId === access.actor.userId;
    case 'supers':
      return isSuper(access.actor);
    case 'exceptSupers':
      return !isSuper(access.actor);
    case 'tickets': {
      if (access.seesAll) return true;
      const ids = audience.tickets.filter((t) => maySee(access, t)).map((t) => t.id);
      return ids.length === 0 ? false : ids;
    }
    default:
      return false;
  }
}
