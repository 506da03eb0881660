/**
 * The inbox's filters, kept per user in this browser tab (sessionStorage) so they survive a move to
 * another screen and a reload; apart from the inbox's screen so the shell can ask for the search
 * without loading it.
 */
export type Tab = 'open' | 'pending' | 'closed' | 'group' | 'search';
export const TABS: Tab[] = ['open', 'pending', 'closed', 'group', 'search'];

export interface Filters {
  readonly status: Tab;
  readonly searchParam: string;
  readonly queueId: number | null;
  readonly tagId: number | null;
  /** Tickets assigned to this user: offered only to those who see every ticket. */
  readonly userId: number | null;
  readonly chatappId: number | null;
  readonly onlyMine: boolean;
}

export const NO_FILTERS: Filters = { status: 'open', searchParam: '', queueId: null, tagId: null, userId: null, chatappId: null, onlyMine: false };
export const FILTERS_KEY = (userId: number) => `servicedesk.inbox.${userId}`;

/** The filters this user last chose in this tab of the browser (kept across screens and reloads). */
export function savedFilters(userId: number): Filters {
  try {
    const saved = JSON.parse(sessionStorage.getItem(FILTERS_KEY(userId)) ?? 'null') as Partial<Filters> | null;
    if (!saved || typeof saved !== 'object') return NO_FILTERS;
    const idOrNull = (v: unknown) => (typeof v === 'number' && Number.isInteger(v) && v > 0 ? v : null);
    return {
      status: TABS.includes(saved.status as Tab) ? (saved.status as Tab) : 'open',
      searchParam: typeof saved.searchParam === 'string' ? saved.searchParam : '',
      queueId: idOrNull(saved.queueId),
      tagId: idOrNull(saved.tagId),
      userId: idOrNull(saved.userId),
      chatappId: idOrNull(saved.chatappId),
      onlyMine: saved.onlyMine === true,
    };
  } catch {
    return NO_FILTERS;
  }
}

/** Whether the signed-in user sees every ticket (admins, super users, users with `allTicket`), as the server decides. */
export function seesAllTickets(user: { profile: string; super?: boolean; allTicket?: string } | undefined): boolean {
  return !!user && (user.profile === 'admin' || user.super === true || user.allTicket === 'enable');
}

/** A `/` pressed outside the inbox: the inbox opens on its search tab with the search focused. */
let searchRequest = false;
/** Whether a path of the console is the inbox's (`/tickets`, `/tickets/:id`, with or without the `/app` base). */
export function isInboxPath(pathname: string): boolean {
  return /^(\/app)?\/tickets(\/|$)/.test(pathname);
}

export function requestSearch(userId: number): void {
  sessionStorage.setItem(FILTERS_KEY(userId), JSON.stringify({ ...savedFilters(userId), status: 'search' }));
  searchRequest = true;
}

/** Whether a search was asked for before the inbox opened (answered once). */
export function searchRequested(): boolean {
  const asked = searchRequest;
  searchRequest = false;
  return asked;
}
