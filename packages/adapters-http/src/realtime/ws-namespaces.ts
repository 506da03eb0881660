import { STATUS_CODES, type IncomingMessage, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { admits, DomainError, type Actor, type Cache, type RealtimeAudience, type RealtimeFanout, type RealtimeViewer } from '@servicedesk/core';
import { STATUS_OF } from '../http/error-middleware.js';
import type { AccessApi } from '../http/auth-middleware.js';
import type { Logger } from 'pino';
import { openEnvelope, seqKey, windowKey } from './ws-realtime.js';

/** One numbered frame as it travels: the client's text, its seq and who may receive it. */
interface Entry { seq: number; frame: string; audience: RealtimeAudience; entity: string }

interface Client {
  socket: WebSocket;
  alive: boolean;
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
}

/**
 * How long a frame that arrived early waits for the ones before it. Instances number events from
 * one shared counter but publish them independently, so two events can cross on the way.
 */
const GAP_WAIT_MS = 250;

/** The close code of a socket whose user is gone or whose tokens were revoked (as HTTP's 401), with the reason `ERR_SESSION_EXPIRED`. */
export const CLOSE_UNAUTHORIZED = 4001;

const PATH = /^\/(\d{1,10})\/?$/;
const ENTITY = /^\{"seq":\d+,"event":"company-\d+-(\w+)"/;

/**
 * The per-company realtime namespaces: `ws://host/<companyId>?token=<access JWT>[&since=<seq>]`.
 * The token is checked at the handshake and must belong to that company. A reconnecting client
 * passes the last `seq` it saw and gets what it missed, or a `resync` frame when that is gone.
 *
 * Each frame goes only to the sockets whose user may read what it carries (its audience, applied
 * to the user's ticket access after ordering by `seq`, live and on replay alike). The user is
 * re-checked when a `user` event names them, when a `queue` or the `company` changes, and every
 * `recheckMs`: a socket whose user is gone, whose token version moved on (deleted, disabled,
 * password or profile changed) or whose company was deactivated is closed with 4001.
 */
export class WsNamespaces {
  private readonly wss = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 });
  private readonly clients = new Map<number, Set<Client>>();
  private heartbeat: NodeJS.Timeout | undefined;
  private recheck: NodeJS.Timeout | undefined;
  private unsubscribe: (() => Promise<void>) | undefined;

  constructor(private readonly deps: {
    app: AccessApi; cache: Cache; fanout: RealtimeFanout; logger: Logger; heartbeatMs?: number;
    /** The connected user as it is now (`realtimeViewer` of the core), null when gone. */
    viewer: (actor: Actor) => Promise<RealtimeViewer | null>;
    /** How often every socket's user is re-checked, in case an event was missed (default 60 s). */
    recheckMs?: number;
    /** The unit of work the handshake's token check runs in (as an HTTP request's would). */
    scope?: <T>(work: () => Promise<T>) => Promise<T>;
  }) {}

  async attach(server: Server): Promise<void> {
    server.on('upgrade', (req, socket, head) => { void this.upgrade(req, socket, head); });
    this.unsubscribe = await this.deps.fanout.subscribe((companyId, value) => this.deliver(companyId, value));
    this.heartbeat = setInterval(() => this.sweep(), this.deps.heartbeatMs ?? 30_000);
    this.heartbeat.unref();
    this.recheck = setInterval(() => { void this.recheckAll(); }, this.deps.recheckMs ?? 60_000);
    this.recheck.unref();
  }

  /** Stops: every socket is told 1001 (going away; it reconnects elsewhere with `since`), and dropped if it does not answer within a second. */
  async close(): Promise<void> {
    clearInterval(this.heartbeat);
    clearInterval(this.recheck);
    await this.unsubscribe?.();
    const sockets = [...this.clients.values()].flatMap((set) => [...set].map((c) => c.socket));
    await Promise.all(sockets.map((socket) => new Promise<void>((resolve) => {
      if (socket.readyState === socket.CLOSED) return resolve();
      const timer = setTimeout(() => { socket.terminate(); resolve(); }, 1000);
      socket.once('close', () => { clearTimeout(timer); resolve(); });
      socket.close(1001, 'server shutting down');
    })));
    this.wss.close();
  }

  /** Connected sockets of a company on this instance. */
  connections(companyId: number): number {
    return this.clients.get(companyId)?.size ?? 0;
  }

  private run<T>(work: () => Promise<T>): Promise<T> {
    return this.deps.scope ? this.deps.scope(work) : work();
  }

  private refuse(socket: Duplex, status: number, code: string) {
    const body = JSON.stringify({ error: code });
    socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}\r\n` +
      `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
  }

  private async upgrade(req: IncomingMessage, socket: Duplex, head: Buffer) {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const match = PATH.exec(url.pathname);
    if (!match) return this.refuse(socket, 404, 'ERR_ROUTE_NOT_FOUND');
    const companyId = Number(match[1]);
    let actor: Actor;
    let viewer: RealtimeViewer | null;
    try {
      const token = url.searchParams.get('token') ?? undefined;
      const auth = await this.run(() => this.deps.app.identity.authenticate.execute(token));
      if (auth.actor.companyId !== companyId) return this.refuse(socket, 403, 'ERR_NO_PERMISSION');
      if (auth.mustChangePassword) return this.refuse(socket, 403, 'ERR_PASSWORD_CHANGE_REQUIRED');
      actor = auth.actor;
      viewer = await this.run(() => this.deps.viewer(auth.actor));
      if (!viewer) return this.refuse(socket, 401, 'ERR_SESSION_EXPIRED');
    } catch (err) {
      // The same table as the HTTP routes: a bad token is 401, an unreachable database 503, a bug 500.
      if (err instanceof DomainError) return this.refuse(socket, STATUS_OF[err.kind], err.code);
      this.deps.logger.error({ err, companyId }, 'realtime handshake failed');
      return this.refuse(socket, 500, 'Internal server error');
    }
    const sinceParam = url.searchParams.get('since');
    const since = sinceParam !== null && /^\d+$/.test(sinceParam) ? Number(sinceParam) : null;
    this.wss.handleUpgrade(req, socket, head, (ws) => { void this.join(companyId, ws, since, actor, viewer!); });
  }

  private async join(companyId: number, socket: WebSocket, since: number | null, actor: Actor, viewer: RealtimeViewer) {
    const client: Client = {
      socket, alive: true, holds: since !== null ? 1 : 0, buffered: [], lastSeq: since ?? 0, ahead: new Map(), gapTimer: null, actor, viewer,
    };
    let set = this.clients.get(companyId);
    if (!set) this.clients.set(companyId, (set = new Set()));
    set.add(client);
    socket.on('pong', () => { client.alive = true; });
    socket.on('close', () => {
      if (client.gapTimer) clearTimeout(client.gapTimer);
      set!.delete(client);
      if (set!.size === 0) this.clients.delete(companyId);
    });
    socket.on('error', () => socket.terminate());
    socket.on('message', () => undefined);
    if (since !== null) await this.replay(companyId, client, since);
  }

  private async replay(companyId: number, client: Client, since: number) {
    const { cache } = this.deps;
    try {
      const current = Number((await cache.get(seqKey(companyId))) ?? 0);
      const lowest = await cache.windowLowest(windowKey(companyId));
      if (since > current || (since < current && (lowest === null || lowest > since + 1))) {
        client.socket.send(JSON.stringify({ seq: current, event: 'resync', data: { action: 'resync', since, current } }));
      } else {
        for (const item of await cache.windowAfter(windowKey(companyId), since)) this.emit(client, entryOf(item.score, item.value));
      }
    } catch (err) {
      this.deps.logger.warn({ err, companyId }, 'realtime replay failed; asking the client to resync');
      client.socket.send(JSON.stringify({ seq: 0, event: 'resync', data: { action: 'resync', since } }));
    }
    this.release(companyId, client);
  }

  /** Ends one hold; when none is left, the frames that waited go out in order. */
  private release(companyId: number, client: Client) {
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
    const concerned = entry.entity === 'queue' || entry.entity === 'company' ? [...set]
      : entry.entity === 'user' ? this.socketsOf(set, userIdIn(frame)) : [];
    for (const client of concerned) this.refresh(companyId, client, true);
    for (const client of set) {
      if (client.holds > 0) client.buffered.push(entry);
      else this.sendLive(companyId, client, entry);
    }
  }

  private socketsOf(set: Set<Client>, userId: number | null): Client[] {
    return userId === null ? [] : [...set].filter((c) => c.actor.userId === userId);
  }

  /** Re-reads the socket's user: closes the socket when the user is gone or its tokens were revoked, else takes its current access. */
  private refresh(companyId: number, client: Client, hold: boolean) {
    if (hold) client.holds++;
    void this.run(() => this.deps.viewer(client.actor)).then(
      (viewer) => {
        if (!viewer || viewer.tokenVersion !== client.viewer.tokenVersion) {
          client.buffered = [];
          client.socket.close(CLOSE_UNAUTHORIZED, 'ERR_SESSION_EXPIRED');
          return;
        }
        client.viewer = viewer;
      },
      (err) => this.deps.logger.warn({ err, companyId, userId: client.actor.userId }, 'could not re-check a realtime user; keeping its last access'),
    ).finally(() => { if (hold) this.release(companyId, client); });
  }

  private async recheckAll() {
    for (const [companyId, set] of this.clients) for (const client of set) this.refresh(companyId, client, false);
  }

  /**
   * In `seq` order, each frame once: a frame ahead of a missing one waits (at most
   * `GAP_WAIT_MS`) for it; then what is missing is read from the replay window, and whatever
   * is still missing after that is skipped.
   */
  private sendLive(companyId: number, client: Client, entry: Entry) {
    const { seq } = entry;
    if (!seq) return this.emit(client, entry);
    if (seq <= client.lastSeq || client.ahead.has(seq)) return;
    if (client.lastSeq === 0 || seq === client.lastSeq + 1) {
      this.emit(client, entry);
      this.flushAhead(client);
      return;
    }
    client.ahead.set(seq, entry);
    client.gapTimer ??= setTimeout(() => { void this.fillGap(companyId, client); }, GAP_WAIT_MS);
  }

  /**
   * Takes the frame's place in the socket's sequence and sends it when the socket's user is in its
   * audience. A frame the user may not read is skipped: the client sees a gap in `seq`, which is
   * per company, and never a frame it could not read over HTTP.
   */
  private emit(client: Client, entry: Entry) {
    if (entry.seq) client.lastSeq = entry.seq;
    const admitted = admits(client.viewer.access, entry.audience);
    if (admitted === false) return;
    if (client.socket.readyState !== client.socket.OPEN) return;
    client.socket.send(admitted === true ? entry.frame : narrowed(entry.frame, admitted));
  }

  private flushAhead(client: Client) {
    for (let next = client.ahead.get(client.lastSeq + 1); next !== undefined; next = client.ahead.get(client.lastSeq + 1)) {
      client.ahead.delete(client.lastSeq + 1);
      this.emit(client, next);
    }
    if (client.ahead.size === 0 && client.gapTimer) {
      clearTimeout(client.gapTimer);
      client.gapTimer = null;
    }
  }

  private async fillGap(companyId: number, client: Client) {
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

  private sweep() {
    for (const set of this.clients.values()) {
      for (const client of set) {
        if (!client.alive) { client.socket.terminate(); continue; }
        client.alive = false;
        client.socket.ping();
      }
    }
  }
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
