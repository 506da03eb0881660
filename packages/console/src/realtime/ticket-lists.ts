import type { InfiniteData, QueryClient } from '@tanstack/react-query';
import type { Schema } from '../api/client.js';

type Ticket = Schema<'TicketDetails'>;
type TicketPage = { tickets: Ticket[]; count: number; hasMore: boolean };

/** The filters of a list the console can judge by itself; a list with any other (a search) waits for its refetch. */
const JUDGED = new Set(['status', 'queueIds', 'users', 'showAll']);

/**
 * Whether `ticket` belongs in the list fetched with `query`, or `undefined` when the console cannot
 * tell (a search text, a filter it does not evaluate). The server only sends a user the frames of
 * tickets it may see, so visibility is already settled; what is left are the list's own filters.
 */
export function belongsIn(query: Record<string, unknown>, ticket: Ticket): boolean | undefined {
  for (const [key, value] of Object.entries(query)) if (value !== undefined && !JUDGED.has(key)) return undefined;
  if (query.status !== undefined && query.status !== ticket.status) return false;
  const queueIds = query.queueIds as number[] | undefined;
  if (queueIds?.length && !queueIds.includes(ticket.queueId as number)) return false;
  const users = query.users as number[] | undefined;
  if (users?.length && !users.includes(ticket.userId as number)) return false;
  return true;
}

/** The lists' order (`updatedAt` descending, then `id` descending): negative when `a` comes first. */
function compare(a: Ticket, b: Ticket): number {
  const byTime = Date.parse(b.updatedAt) - Date.parse(a.updatedAt);
  return byTime !== 0 ? byTime : b.id - a.id;
}

function isTicketPages(data: unknown): data is InfiniteData<TicketPage> {
  const pages = (data as InfiniteData<TicketPage> | undefined)?.pages;
  return Array.isArray(pages) && pages.every((p) => Array.isArray(p?.tickets));
}

/**
 * Puts a ticket a frame carried where it now belongs in every loaded list of tickets, at once, so an
 * inbound message moves its row without waiting for a refetch: replaced in place and moved to its
 * place in the order, added to a list whose filters it now meets, taken out of one it left (its
 * count following). A list whose filters the console cannot judge is left to the refetch that
 * follows every frame; so is a ticket that sorts after everything a list has loaded while that
 * list has more pages (it will come with them).
 */
export function placeTicket(client: QueryClient, ticket: Ticket): void {
  for (const [key, data] of client.getQueriesData<InfiniteData<TicketPage>>({ queryKey: ['tickets'] })) {
    const query = key[1];
    if (!query || typeof query !== 'object' || !isTicketPages(data) || !data.pages.length) continue;
    const belongs = belongsIn(query as Record<string, unknown>, ticket);
    const present = data.pages.some((p) => p.tickets.some((t) => t.id === ticket.id));
    if (belongs === undefined) {
      if (present) client.setQueryData(key, replaceInPlace(data, ticket));
      continue;
    }
    if (!belongs && !present) continue;
    let pages = data.pages.map((p) => ({ ...p, tickets: p.tickets.filter((t) => t.id !== ticket.id) }));
    let delta = present ? -1 : 0;
    if (belongs) {
      const at = pages.findIndex((p) => p.tickets.some((t) => compare(ticket, t) < 0));
      const last = pages.length - 1;
      const target = at >= 0 ? at : pages[last]!.hasMore ? -1 : last;
      if (target >= 0) {
        pages = pages.map((p, i) => (i === target ? { ...p, tickets: [...p.tickets, ticket].sort(compare) } : p));
        delta += 1;
      }
    }
    if (delta) pages[0] = { ...pages[0]!, count: Math.max(0, pages[0]!.count + delta) };
    client.setQueryData<InfiniteData<TicketPage>>(key, { ...data, pages });
  }
}

function replaceInPlace(data: InfiniteData<TicketPage>, ticket: Ticket): InfiniteData<TicketPage> {
  return { ...data, pages: data.pages.map((p) => ({ ...p, tickets: p.tickets.map((t) => (t.id === ticket.id ? ticket : t)) })) };
}
