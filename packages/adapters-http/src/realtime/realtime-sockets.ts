import {
  admits,
  DomainError,
  maySee,
  ticketScope,
  type Actor,
  type Cache,
  type RealtimeAudience,
  type RealtimeFanout,
  type RealtimeViewer,
  type TicketScope,
} from '@servicedesk/core';
import type { Logger } from 'pino';
import { STATUS_OF } from '../http/error-middleware.js';
import type { AccessApi } from '../http/auth-middleware.js';
import { envelope, openEnvelope, seqKey, windowKey } from './ws-realtime.js';

/** One numbered frame as it travels: the client's text, its seq and who may receive it. */
export interface Entry {
  seq: number;
  frame: string;
  audience: RealtimeAudience;
  entity: string;
}

/** What a transport gives for one of its sockets. */
export interface RealtimeSink {
  /** Whether the socket can still be written to. */
  isOpen(): boolean;
  /** Sends a frame (`{"seq","event","data"}` as text, `ticketIds` already narrowed) the socket's user may read. */
  send(frame: string): void;
  /** Closes the socket of a user who is gone or whose tokens were revoked. */
  revoke(): void;
}

export interface RealtimeClient {
  readonly sink: RealtimeSink;
  /** Replays and access refreshes under way: while any is, live frames wait in `buffered`. */
  holds: number;
  buffered: Entry[];
  lastSeq: number;
  /** Frames that arrived ahead of a missing one, by seq. */
  ahead: Map<number, Entry>;
  gapTimer: NodeJS.Timeout | null;
  /** The socket's user as of the handshake or the last re-check. */
  actor: Actor;
  viewer: RealtimeViewer;
  /** The tickets this socket says it views, with their scope when last announced (who was told). */
  viewing: Map<number, TicketScope>;
  /** Viewer messages run one after the other, so a join's lookup never lets a later leave overtake it. */
  viewQueue: Promise<void>;
  /** Viewer messages taken in the current minute (beyond `VIEWER_MESSAGES_PER_MINUTE` they are ignored). */
  viewBudget: { minute: number; used: number };
}

export interface RealtimeSocketsDeps {
  app: AccessApi;
  cache: Cache;
  fanout: RealtimeFanout;
  logger: Logger;
  /** The connected user as it is now (`realtimeViewer` of the core), null when gone. */
  viewer: (actor: Actor) => Promise<RealtimeViewer | null>;
  /** How often every socket's user is re-checked, in case an event was missed (default 60 s). */
  recheckMs?: number;
  /** The unit of work the handshake's token check runs in (as an HTTP request's would). */
  scope?: <T>(work: () => Promise<T>) => Promise<T>;
  /**
   * A ticket of the company as the visibility rule reads it, null when there is none (another
   * company's ticket included): what a viewer announcement is checked against. Without it,
   * announcements are ignored.
   */
  ticket?: (companyId: number, ticketId: number) => Promise<TicketScope | null>;
}

/** What a client says about a ticket it shows: it opened it (or still shows it: `join` again) or left it. */
export type ViewerAction = 'join' | 'leave';

/** The tickets one socket may say it views at once: joins beyond are ignored (and the leaves of a closing socket stay few). */
export const MAX_VIEWED_PER_SOCKET = 20;
/** Viewer messages one socket may send per minute (a client announces every 30 s; a burst beyond is ignored). */
export const VIEWER_MESSAGES_PER_MINUTE = 120;

export type Handshake = { ok: true; actor: Actor; viewer: RealtimeViewer } | { ok: false; status: number; code: string };

/**
 * How long a frame that arrived early waits for the ones before it. Instances number events from
 * one shared counter but publish them independently, so two events can cross on the way.
 */
const GAP_WAIT_MS = 250;
const ENTITY = /^\{"seq":\d+,"event":"company-\d+-(\w+)"/;

/**
 * What every realtime transport (raw ws, socket.io) shares: the handshake's checks, the sockets of
 * each company on this instance, and per socket the delivery rules: frames from the fan-out in
 * `seq` order, only those whose audience admits the socket's user, that user re-checked when a
 * `user` event names them, a `queue` or the `company` changes, and every `recheckMs` (a user gone
 * or revoked has its socket closed by its transport's `revoke`).
 */
export class RealtimeSockets {
  private readonly clients = new Map<number, Set<RealtimeClient>>();
  private recheck: NodeJS.Timeout | undefined;
  private unsubscribe: (() => Promise<void>) | undefined;

  constructor(private readonly deps: RealtimeSocketsDeps) {}

  async start(): Promise<void> {
    this.unsubscribe = await this.deps.fanout.subscribe((companyId, value) => this.deliver(companyId, value));
    this.recheck = setInterval(() => {
      this.recheckAll();
    }, this.deps.recheckMs ?? 60_000);
    this.recheck.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.recheck);
    await this.unsubscribe?.();
    this.unsubscribe = undefined;
  }

  /** Every connected client on this instance. */
  all(): RealtimeClient[] {
    return [...this.clients.values()].flatMap((set) => [...set]);
  }

  connections(companyId: number): number {
    return this.clients.get(companyId)?.size ?? 0;
  }

  /**
   * The handshake's checks, the same for every transport: a valid access token of the namespace's
   * company, no password change pending, and a user who still exists. Errors map as the HTTP routes'.
   */
  async handshake(companyId: number, token: string | undefined): Promise<Handshake> {
    try {
      const auth = await this.run(() => this.deps.app.identity.authenticate.execute(token));
      if (auth.actor.companyId !== companyId) return { ok: false, status: 403, code: 'ERR_NO_PERMISSION' };
      if (auth.mustChangePassword) return { ok: false, status: 403, code: 'ERR_PASSWORD_CHANGE_REQUIRED' };
      const viewer = await this.run(() => this.deps.viewer(auth.actor));
      if (!viewer) return { ok: false, status: 401, code: 'ERR_SESSION_EXPIRED' };
      return { ok: true, actor: auth.actor, viewer };
    } catch (err) {
      // A bad token is 401, an unreachable database 503, a bug 500.
      if (err instanceof DomainError) return { ok: false, status: STATUS_OF[err.kind], code: err.code };
      this.deps.logger.error({ err, companyId }, 'realtime handshake failed');
      return { ok: false, status: 500, code: 'Internal server error' };
    }
  }

  /** Adds a socket; with `since`, what it missed is replayed before any live frame. */
  add(companyId: number, sink: RealtimeSink, actor: Actor, viewer: RealtimeViewer, since: number | null = null): RealtimeClient {
    const client: RealtimeClient = {
      sink,
      holds: since !== null ? 1 : 0,
      buffered: [],
      lastSeq: since ?? 0,
      ahead: new Map(),
      gapTimer: null,
      actor,
      viewer,
      viewing: new Map(),
      viewQueue: Promise.resolve(),
      viewBudget: { minute: 0, used: 0 },
    };
    let set = this.clients.get(companyId);
    if (!set) this.clients.set(companyId, (set = new Set()));
    set.add(client);
    if (since !== null) void this.replay(companyId, client, since);
    return client;
  }

  /** Removes a closed socket: it leaves every ticket it viewed (the other operators are told). */
  remove(companyId: number, client: RealtimeClient): void {
    if (client.gapTimer) clearTimeout(client.gapTimer);
    const set = this.clients.get(companyId);
    set?.delete(client);
    if (set?.size === 0) this.clients.delete(companyId);
    client.viewQueue = client.viewQueue.then(async () => {
      for (const [ticketId, scope] of client.viewing) await this.publishViewer(companyId, client, ticketId, scope, 'leave');
      client.viewing.clear();
    });
  }

  /**
   * A client's message about a ticket it shows (`joinChatBox` / `joinChatBoxLeave`, with the ticket
   * id as a number or a numeric string). A join of a ticket of the socket's company that its user
   * may read publishes a `ticketViewer` frame to those who may read that ticket; a leave of a ticket
   * it joined publishes the leave to the same readers. The user is the socket's, never the message's.
   * Anything else (a bad id, another company's ticket, one the user may not see, too many) is ignored.
   */
  view(companyId: number, client: RealtimeClient, rawTicketId: unknown, action: ViewerAction): void {
    const ticketId =
      typeof rawTicketId === 'number' ? rawTicketId : typeof rawTicketId === 'string' && /^\d{1,10}$/.test(rawTicketId) ? Number(rawTicketId) : NaN;
    if (!Number.isSafeInteger(ticketId) || ticketId < 1 || ticketId > 2_147_483_647) return;
    const minute = Math.floor(Date.now() / 60_000);
    if (client.viewBudget.minute !== minute) client.viewBudget = { minute, used: 0 };
    if (++client.viewBudget.used > VIEWER_MESSAGES_PER_MINUTE) return;
    client.viewQueue = client.viewQueue.then(async () => {
      try {
        if (action === 'leave') {
          const scope = client.viewing.get(ticketId);
          if (!scope) return;
          client.viewing.delete(ticketId);
          await this.publishViewer(companyId, client, ticketId, scope, 'leave');
          return;
        }
        if (!this.deps.ticket || !this.clients.get(companyId)?.has(client)) return;
        if (!client.viewing.has(ticketId) && client.viewing.size >= MAX_VIEWED_PER_SOCKET) return;
        const found = await this.run(() => this.deps.ticket!(companyId, ticketId));
        if (!found || !maySee(client.viewer.access, found)) {
          // No longer visible: those told of the join earlier are told it left.
          const told = client.viewing.get(ticketId);
          client.viewing.delete(ticketId);
          if (told) await this.publishViewer(companyId, client, ticketId, told, 'leave');
          return;
        }
        // The socket closed during the lookup: nobody is to hear of a viewer that is already gone.
        if (!this.clients.get(companyId)?.has(client)) return;
        const scope = ticketScope(found);
        client.viewing.set(ticketId, scope);
        await this.publishViewer(companyId, client, ticketId, scope, 'join');
      } catch (err) {
        this.deps.logger.warn({ err, companyId, ticketId }, 'could not publish a ticket viewer');
      }
    });
  }

  /**
   * A `ticketViewer` frame, ephemeral: no `seq`, not kept in the replay window (a reconnecting
   * client never gets a stale one), through the fan-out to every instance, for those who may read the ticket.
   */
  private async publishViewer(companyId: number, client: RealtimeClient, ticketId: number, scope: TicketScope, action: ViewerAction) {
    const data = { action, ticketId, userId: client.actor.userId, userName: client.viewer.name };
    const frame = JSON.stringify({ event: `company-${companyId}-ticketViewer`, data });
    try {
      await this.deps.fanout.publish(companyId, envelope(frame, { kind: 'ticket', ticket: scope }));
    } catch (err) {
      this.deps.logger.warn({ err, companyId, ticketId }, 'could not publish a ticket viewer');
    }
  }

  private run<T>(work: () => Promise<T>): Promise<T> {
    return this.deps.scope ? this.deps.scope(work) : work();
  }

  private async replay(companyId: number, client: RealtimeClient, since: number) {
    const { cache } = this.deps;
    try {
      const current = Number((await cache.get(seqKey(companyId))) ?? 0);
      const lowest = await cache.windowLowest(windowKey(companyId));
      if (since > current || (since < current && (lowest === null || lowest > since + 1))) {
        client.sink.send(JSON.stringify({ seq: current, event: 'resync', data: { action: 'resync', since, current } }));
      } else {
        for (const item of await cache.windowAfter(windowKey(companyId), since)) this.emit(client, entryOf(item.score, item.value));
      }
    } catch (err) {
      this.deps.logger.warn({ err, companyId }, 'realtime replay failed; asking the client to resync');
      client.sink.send(JSON.stringify({ seq: 0, event: 'resync', data: { action: 'resync', since } }));
    }
    this.release(companyId, client);
  }

  /** Ends one hold; when none is left, the frames that waited go out in order. */
  private release(companyId: number, client: RealtimeClient) {
    client.holds = Math.max(0, client.holds - 1);
    if (client.holds > 0) return;
    for (const entry of client.buffered.splice(0)) this.sendLive(companyId, client, entry);
  }

  private deliver(companyId: number, value: string) {
    const set = this.clients.get(companyId);
    if (!set) return;
    const { frame, audience } = openEnvelope(value);
    const entry: Entry = { seq: Number(/^\{"seq":(\d+)/.exec(frame)?.[1] ?? 0), frame, audience, entity: ENTITY.exec(frame)?.[1] ?? '' };
    // A change of a user or a queue may change who sees what: the sockets concerned are re-checked
    // before any later frame reaches them (this one included, so it is judged by the new access).
    const concerned = entry.entity === 'queue' || entry.entity === 'company' ? [...set] : entry.entity === 'user' ? socketsOf(set, userIdIn(frame)) : [];
    for (const client of concerned) this.refresh(companyId, client, true);
    for (const client of set) {
      if (client.holds > 0) client.buffered.push(entry);
      else this.sendLive(companyId, client, entry);
    }
  }

  /** Re-reads the socket's user: revokes the socket when the user is gone or its tokens were revoked, else takes its current access. */
  private refresh(companyId: number, client: RealtimeClient, hold: boolean) {
    if (hold) client.holds++;
    void this.run(() => this.deps.viewer(client.actor))
      .then(
        (viewer) => {
          if (!viewer || viewer.tokenVersion !== client.viewer.tokenVersion) {
            client.buffered = [];
            client.sink.revoke();
            return;
          }
          client.viewer = viewer;
        },
        (err) => this.deps.logger.warn({ err, companyId, userId: client.actor.userId }, 'could not re-check a realtime user; keeping its last access'),
      )
      .finally(() => {
        if (hold) this.release(companyId, client);
      });
  }

  private recheckAll() {
    for (const [companyId, set] of this.clients) for (const client of set) this.refresh(companyId, client, false);
  }

  /**
   * In `seq` order, each frame once: a frame ahead of a missing one waits (at most
   * `GAP_WAIT_MS`) for it; then what is missing is read from the replay window, and whatever
   * is still missing after that is skipped.
   */
  private sendLive(companyId: number, client: RealtimeClient, entry: Entry) {
    const { seq } = entry;
    if (!seq) return this.emit(client, entry);
    if (seq <= client.lastSeq || client.ahead.has(seq)) return;
    if (client.lastSeq === 0 || seq === client.lastSeq + 1) {
      this.emit(client, entry);
      this.flushAhead(client);
      return;
    }
    client.ahead.set(seq, entry);
    client.gapTimer ??= setTimeout(() => {
      void this.fillGap(companyId, client);
    }, GAP_WAIT_MS);
  }

  /**
   * Takes the frame's place in the socket's sequence and sends it when the socket's user is in its
   * audience. A frame the user may not read is skipped: the client sees a gap in `seq`, which is
   * per company, and never a frame it could not read over HTTP.
   */
  private emit(client: RealtimeClient, entry: Entry) {
    if (entry.seq) client.lastSeq = entry.seq;
    const admitted = admits(client.viewer.access, entry.audience);
    if (admitted === false) return;
    if (!client.sink.isOpen()) return;
    client.sink.send(admitted === true ? entry.frame : narrowed(entry.frame, admitted));
  }

  private flushAhead(client: RealtimeClient) {
    for (let next = client.ahead.get(client.lastSeq + 1); next !== undefined; next = client.ahead.get(client.lastSeq + 1)) {
      client.ahead.delete(client.lastSeq + 1);
      this.emit(client, next);
    }
    if (client.ahead.size === 0 && client.gapTimer) {
      clearTimeout(client.gapTimer);
      client.gapTimer = null;
    }
  }

  private async fillGap(companyId: number, client: RealtimeClient) {
    client.gapTimer = null;
    try {
      for (const item of await this.deps.cache.windowAfter(windowKey(companyId), client.lastSeq)) {
        if (item.score <= client.lastSeq) continue;
        client.ahead.delete(item.score);
        this.emit(client, entryOf(item.score, item.value));
      }
    } catch (err) {
      this.deps.logger.warn({ err, companyId }, 'could not read the replay window to fill a gap');
    }
    for (const seq of [...client.ahead.keys()].sort((a, b) => a - b)) {
      if (seq > client.lastSeq) this.emit(client, client.ahead.get(seq)!);
    }
    client.ahead.clear();
  }
}

function socketsOf(set: Set<RealtimeClient>, userId: number | null): RealtimeClient[] {
  return userId === null ? [] : [...set].filter((c) => c.actor.userId === userId);
}

function entryOf(seq: number, value: string): Entry {
  const { frame, audience } = openEnvelope(value);
  return { seq, frame, audience, entity: ENTITY.exec(frame)?.[1] ?? '' };
}

/** The user a `user` frame is about (`data.user.id` or `data.userId`). */
function userIdIn(frame: string): number | null {
  try {
    const data = (JSON.parse(frame) as { data?: { user?: { id?: unknown }; userId?: unknown } }).data;
    const id = data?.user?.id ?? data?.userId;
    return typeof id === 'number' ? id : null;
  } catch {
    return null;
  }
}

/** A frame listing tickets, with only the ids the socket's user may read. */
function narrowed(frame: string, ticketIds: number[]): string {
  const parsed = JSON.parse(frame) as { data: Record<string, unknown> };
  return JSON.stringify({ ...parsed, data: { ...parsed.data, ticketIds } });
}
