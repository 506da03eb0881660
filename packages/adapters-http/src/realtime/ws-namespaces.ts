import { STATUS_CODES, type IncomingMessage, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { RealtimeSockets, type RealtimeClient, type RealtimeSocketsDeps, type ViewerAction } from './realtime-sockets.js';

/** The close code of a socket whose user is gone or whose tokens were revoked (as HTTP's 401), with the reason `ERR_SESSION_EXPIRED`. */
export const CLOSE_UNAUTHORIZED = 4001;

const PATH = /^\/(\d{1,10})\/?$/;

interface WsClient {
  socket: WebSocket;
  alive: boolean;
  client: RealtimeClient;
  companyId: number;
}

/**
 * The per-company realtime namespaces: `ws://host/<companyId>?token=<access JWT>[&since=<seq>]`.
 * The token is checked at the handshake and must belong to that company. A reconnecting client
 * passes the last `seq` it saw and gets what it missed, or a `resync` frame when that is gone.
 * A client says which ticket it shows with `{"event":"joinChatBox","data":<ticketId>}` (and
 * `joinChatBoxLeave` when it leaves it): the other operators get a `ticketViewer` frame.
 *
 * Who receives which frame, and when a user is re-checked, is `RealtimeSockets` (shared with the
 * socket.io transport): a socket whose user is gone, whose token version moved on (deleted,
 * disabled, password or profile changed) or whose company was deactivated is closed with 4001.
 */
export class WsNamespaces {
  private readonly wss = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 });
  private readonly sockets: RealtimeSockets;
  private readonly open = new Set<WsClient>();
  private heartbeat: NodeJS.Timeout | undefined;

  constructor(
    private readonly deps: RealtimeSocketsDeps & {
      heartbeatMs?: number;
      /** Upgrade paths another transport on the same server answers (socket.io's `/socket.io/`): left alone here. */
      ignorePaths?: readonly string[];
    },
  ) {
    this.sockets = new RealtimeSockets(deps);
  }

  async attach(server: Server): Promise<void> {
    server.on('upgrade', (req, socket, head) => {
      void this.upgrade(req, socket, head);
    });
    await this.sockets.start();
    this.heartbeat = setInterval(() => this.sweep(), this.deps.heartbeatMs ?? 30_000);
    this.heartbeat.unref();
  }

  /** Stops: every socket is told 1001 (going away; it reconnects elsewhere with `since`), and dropped if it does not answer within a second. */
  async close(): Promise<void> {
    clearInterval(this.heartbeat);
    await this.sockets.stop();
    await Promise.all(
      [...this.open].map(
        ({ socket }) =>
          new Promise<void>((resolve) => {
            if (socket.readyState === socket.CLOSED) return resolve();
            const timer = setTimeout(() => {
              socket.terminate();
              resolve();
            }, 1000);
            socket.once('close', () => {
              clearTimeout(timer);
              resolve();
            });
            socket.close(1001, 'server shutting down');
          }),
      ),
    );
    this.wss.close();
  }

  /** Connected sockets of a company on this instance. */
  connections(companyId: number): number {
    return this.sockets.connections(companyId);
  }

  private refuse(socket: Duplex, status: number, code: string) {
    const body = JSON.stringify({ error: code });
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }

  private async upgrade(req: IncomingMessage, socket: Duplex, head: Buffer) {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (this.deps.ignorePaths?.some((prefix) => url.pathname.startsWith(prefix))) return;
    const match = PATH.exec(url.pathname);
    if (!match) return this.refuse(socket, 404, 'ERR_ROUTE_NOT_FOUND');
    const companyId = Number(match[1]);
    const checked = await this.sockets.handshake(companyId, url.searchParams.get('token') ?? undefined);
    if (!checked.ok) return this.refuse(socket, checked.status, checked.code);
    const sinceParam = url.searchParams.get('since');
    const since = sinceParam !== null && /^\d+$/.test(sinceParam) ? Number(sinceParam) : null;
    this.wss.handleUpgrade(req, socket, head, (ws) => this.join(companyId, ws, since, checked));
  }

  private join(companyId: number, socket: WebSocket, since: number | null, user: Pick<RealtimeClient, 'actor' | 'viewer'>) {
    const client = this.sockets.add(
      companyId,
      {
        isOpen: () => socket.readyState === socket.OPEN,
        send: (frame) => socket.send(frame),
        revoke: () => socket.close(CLOSE_UNAUTHORIZED, 'ERR_SESSION_EXPIRED'),
      },
      user.actor,
      user.viewer,
      since,
    );
    const entry: WsClient = { socket, alive: true, client, companyId };
    this.open.add(entry);
    socket.on('pong', () => {
      entry.alive = true;
    });
    socket.on('close', () => {
      this.open.delete(entry);
      this.sockets.remove(companyId, client);
    });
    socket.on('error', () => socket.terminate());
    // Client messages: `{"event":"joinChatBox"|"joinChatBoxLeave","data":<ticketId>}` (a ticket shown, or left); anything else is ignored.
    socket.on('message', (raw, isBinary) => {
      if (isBinary) return;
      const action = viewerMessage(String(raw));
      if (action) this.sockets.view(companyId, client, action.ticketId, action.action);
    });
  }

  private sweep() {
    for (const entry of this.open) {
      if (!entry.alive) {
        entry.socket.terminate();
        continue;
      }
      entry.alive = false;
      entry.socket.ping();
    }
  }
}

/** The viewer action a client's text message asks for, or null when it is not one. */
function viewerMessage(text: string): { action: ViewerAction; ticketId: unknown } | null {
  if (text.length > 200) return null;
  try {
    const message = JSON.parse(text) as { event?: unknown; data?: unknown };
    const action = message.event === 'joinChatBox' ? 'join' : message.event === 'joinChatBoxLeave' ? 'leave' : null;
    return action ? { action, ticketId: message.data } : null;
  } catch {
    return null;
  }
}
