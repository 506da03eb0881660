import { STATUS_CODES, type IncomingMessage, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { DomainError, type Cache, type RealtimeFanout } from '@servicedesk/core';
import { STATUS_OF } from '../http/error-middleware.js';
import type { AccessApi } from '../http/auth-middleware.js';
import type { Logger } from 'pino';
import { seqKey, windowKey } from './ws-realtime.js';

interface Client {
  socket: WebSocket;
  alive: boolean;
  replaying: boolean;
  buffered: string[];
  lastSeq: number;
  /** Frames that arrived ahead of a missing one, by seq. */
  ahead: Map<number, string>;
  gapTimer: NodeJS.Timeout | null;
}

/**
 * How long a frame that arrived early waits for the ones before it. Instances number events from
 * one shared counter but publish them independently, so two events can cross on the way.
 */
const GAP_WAIT_MS = 250;

const PATH = /^\/(\d{1,10})\/?$/;

/**
 * The per-company realtime namespaces: `ws://host/<companyId>?token=<access JWT>[&since=<seq>]`.
 * The token is checked at the handshake and must belong to that company. A reconnecting client
 * passes the last `seq` it saw and gets what it missed, or a `resync` frame when that is gone.
 */
export class WsNamespaces {
  private readonly wss = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 });
  private readonly clients = new Map<number, Set<Client>>();
  private heartbeat: NodeJS.Timeout | undefined;
  private unsubscribe: (() => Promise<void>) | undefined;

  constructor(private readonly deps: {
    app: AccessApi; cache: Cache; fanout: RealtimeFanout; logger: Logger; heartbeatMs?: number;
    /** The unit of work the handshake's token check runs in (as an HTTP request's would). */
    scope?: <T>(work: () => Promise<T>) => Promise<T>;
  }) {}

  async attach(server: Server): Promise<void> {
    server.on('upgrade', (req, socket, head) => { void this.upgrade(req, socket, head); });
    this.unsubscribe = await this.deps.fanout.subscribe((companyId, frame) => this.deliver(companyId, frame));
    this.heartbeat = setInterval(() => this.sweep(), this.deps.heartbeatMs ?? 30_000);
    this.heartbeat.unref();
  }

  async close(): Promise<void> {
    clearInterval(this.heartbeat);
    await this.unsubscribe?.();
    for (const set of this.clients.values()) for (const c of set) c.socket.terminate();
    this.wss.close();
  }

  /** Connected sockets of a company on this instance. */
  connections(companyId: number): number {
    return this.clients.get(companyId)?.size ?? 0;
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
    try {
      const token = url.searchParams.get('token') ?? undefined;
      const check = () => this.deps.app.identity.authenticate.execute(token);
      const auth = await (this.deps.scope ? this.deps.scope(check) : check());
      if (auth.actor.companyId !== companyId) return this.refuse(socket, 403, 'ERR_NO_PERMISSION');
      if (auth.mustChangePassword) return this.refuse(socket, 403, 'ERR_PASSWORD_CHANGE_REQUIRED');
    } catch (err) {
      // The same table as the HTTP routes: a bad token is 401, an unreachable database 503, a bug 500.
      if (err instanceof DomainError) return this.refuse(socket, STATUS_OF[err.kind], err.code);
      this.deps.logger.error({ err, companyId }, 'realtime handshake failed');
      return this.refuse(socket, 500, 'Internal server error');
    }
    const sinceParam = url.searchParams.get('since');
    const since = sinceParam !== null && /^\d+$/.test(sinceParam) ? Number(sinceParam) : null;
    this.wss.handleUpgrade(req, socket, head, (ws) => { void this.join(companyId, ws, since); });
  }

  private async join(companyId: number, socket: WebSocket, since: number | null) {
    const client: Client = { socket, alive: true, replaying: since !== null, buffered: [], lastSeq: since ?? 0, ahead: new Map(), gapTimer: null };
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
        for (const entry of await cache.windowAfter(windowKey(companyId), since)) {
          client.socket.send(entry.value);
          client.lastSeq = entry.score;
        }
      }
    } catch (err) {
      this.deps.logger.warn({ err, companyId }, 'realtime replay failed; asking the client to resync');
      client.socket.send(JSON.stringify({ seq: 0, event: 'resync', data: { action: 'resync', since } }));
    }
    client.replaying = false;
    for (const frame of client.buffered.splice(0)) this.sendLive(companyId, client, frame);
  }

  private deliver(companyId: number, frame: string) {
    const set = this.clients.get(companyId);
    if (!set) return;
    for (const client of set) {
      if (client.replaying) client.buffered.push(frame);
      else this.sendLive(companyId, client, frame);
    }
  }

  /**
   * In `seq` order, each frame once: a frame ahead of a missing one waits (at most
   * `GAP_WAIT_MS`) for it; then what is missing is read from the replay window, and whatever
   * is still missing after that is skipped.
   */
  private sendLive(companyId: number, client: Client, frame: string) {
    const seq = Number(/^\{"seq":(\d+)/.exec(frame)?.[1] ?? 0);
    if (!seq) return this.emit(client, 0, frame);
    if (seq <= client.lastSeq || client.ahead.has(seq)) return;
    if (client.lastSeq === 0 || seq === client.lastSeq + 1) {
      this.emit(client, seq, frame);
      this.flushAhead(client);
      return;
    }
    client.ahead.set(seq, frame);
    client.gapTimer ??= setTimeout(() => { void this.fillGap(companyId, client); }, GAP_WAIT_MS);
  }

  private emit(client: Client, seq: number, frame: string) {
    if (seq) client.lastSeq = seq;
    if (client.socket.readyState === client.socket.OPEN) client.socket.send(frame);
  }

  private flushAhead(client: Client) {
    for (let next = client.ahead.get(client.lastSeq + 1); next !== undefined; next = client.ahead.get(client.lastSeq + 1)) {
      client.ahead.delete(client.lastSeq + 1);
      this.emit(client, client.lastSeq + 1, next);
    }
    if (client.ahead.size === 0 && client.gapTimer) {
      clearTimeout(client.gapTimer);
      client.gapTimer = null;
    }
  }

  private async fillGap(companyId: number, client: Client) {
    client.gapTimer = null;
    try {
      for (const entry of await this.deps.cache.windowAfter(windowKey(companyId), client.lastSeq)) {
        if (entry.score <= client.lastSeq) continue;
        client.ahead.delete(entry.score);
        this.emit(client, entry.score, entry.value);
      }
    } catch (err) {
      this.deps.logger.warn({ err, companyId }, 'could not read the replay window to fill a gap');
    }
    for (const seq of [...client.ahead.keys()].sort((a, b) => a - b)) {
      if (seq > client.lastSeq) this.emit(client, seq, client.ahead.get(seq)!);
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
