import type { QueryClient } from '@tanstack/react-query';

/**
 * Who else has a ticket open, from the namespace's ephemeral `ticketViewer` frames (docs/realtime.md,
 * "Ticket viewers"). The server sends no state on connect and never replays these frames, and an
 * instance that dies sends no leaves: presence is kept alive by the clients themselves. A client
 * announces the ticket it shows every `VIEWER_ANNOUNCE_MS` (and after each reconnect), and forgets
 * a viewer not heard from for `VIEWER_EXPIRE_MS` (two announcements missed, with room for a slow one).
 */
export const VIEWER_ANNOUNCE_MS = 30_000;
export const VIEWER_EXPIRE_MS = 75_000;
/** How often expired viewers are looked for while a ticket is shown. */
export const VIEWER_SWEEP_MS = 5_000;

export interface TicketViewer {
  readonly userId: number;
  readonly userName: string;
}

/** The `data` of a `company-<id>-ticketViewer` frame. */
export interface ViewerFrameData {
  readonly action: 'join' | 'leave';
  readonly ticketId: number;
  readonly userId: number;
  readonly userName: string;
}

/** What a frame changed: `newcomer` when it named a viewer of that ticket not known before. */
export interface ViewerChange extends ViewerFrameData {
  readonly newcomer: boolean;
}

export function viewerFrameData(data: Record<string, unknown>): ViewerFrameData | null {
  const { action, ticketId, userId, userName } = data;
  if ((action !== 'join' && action !== 'leave') || typeof ticketId !== 'number' || typeof userId !== 'number') return null;
  return { action, ticketId, userId, userName: typeof userName === 'string' ? userName : '' };
}

export class TicketViewers {
  /** By ticket, by user: the name and when they were last announced. */
  private readonly seen = new Map<number, Map<number, { userName: string; at: number }>>();
  private readonly listeners = new Set<(change: ViewerChange | null) => void>();
  private version = 0;

  constructor(private readonly now: () => number = Date.now) {}

  /** Bumped at every change: a stable snapshot for `useSyncExternalStore`. */
  get revision(): number {
    return this.version;
  }

  apply(data: ViewerFrameData): void {
    let users = this.seen.get(data.ticketId);
    let newcomer = false;
    if (data.action === 'join') {
      if (!users) this.seen.set(data.ticketId, (users = new Map()));
      newcomer = !users.has(data.userId);
      users.set(data.userId, { userName: data.userName, at: this.now() });
    } else {
      users?.delete(data.userId);
      if (users?.size === 0) this.seen.delete(data.ticketId);
    }
    this.changed({ ...data, newcomer });
  }

  /** The viewers of a ticket heard from within `VIEWER_EXPIRE_MS`, but one (the caller), by name. */
  of(ticketId: number, except: number | null): TicketViewer[] {
    const users = this.seen.get(ticketId);
    if (!users) return [];
    const since = this.now() - VIEWER_EXPIRE_MS;
    return [...users]
      .filter(([userId, v]) => userId !== except && v.at > since)
      .map(([userId, v]) => ({ userId, userName: v.userName }))
      .sort((a, b) => a.userName.localeCompare(b.userName) || a.userId - b.userId);
  }

  /** Forgets the viewers not heard from within `VIEWER_EXPIRE_MS`. */
  expire(): void {
    const since = this.now() - VIEWER_EXPIRE_MS;
    let dropped = false;
    for (const [ticketId, users] of this.seen) {
      for (const [userId, v] of users) {
        if (v.at > since) continue;
        users.delete(userId);
        dropped = true;
      }
      if (users.size === 0) this.seen.delete(ticketId);
    }
    if (dropped) this.changed(null);
  }

  /** Everything is forgotten (signed out, or the server asked to reload). */
  clear(): void {
    if (this.seen.size === 0) return;
    this.seen.clear();
    this.changed(null);
  }

  /** Called at every change, with the frame's change (null for an expiry or a clear). */
  subscribe(listener: (change: ViewerChange | null) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private changed(change: ViewerChange | null) {
    this.version++;
    for (const listener of [...this.listeners]) listener(change);
  }
}

/** One store per query client (one per signed-in console), where `applyFrame` puts the frames. */
const stores = new WeakMap<QueryClient, TicketViewers>();
export function ticketViewersOf(client: QueryClient): TicketViewers {
  let store = stores.get(client);
  if (!store) stores.set(client, (store = new TicketViewers()));
  return store;
}

/**
 * Whether a client showing `ticketId` as user `me` should announce itself again at once after this
 * change: a viewer it did not know came (so the newcomer learns of it now, not within 30 s; the
 * newcomer answers that once too, since it did not know this client either, and the exchange stops
 * there: each answer names a viewer already known), or its own user left the ticket from another
 * tab while this one still shows it.
 */
export function shouldAnswer(change: ViewerChange | null, ticketId: number, me: number | null): boolean {
  if (!change || change.ticketId !== ticketId || me === null) return false;
  if (change.userId === me) return change.action === 'leave';
  return change.action === 'join' && change.newcomer;
}
