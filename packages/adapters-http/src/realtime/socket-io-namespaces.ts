import type { Server } from 'node:http';
import { Server as SocketIoServer, type Socket } from 'socket.io';
import type { Actor, RealtimeViewer } from '@servicedesk/core';
import { RealtimeSockets, type RealtimeSocketsDeps } from './realtime-sockets.js';

/** Who a socket is, as its handshake found: never anything the client sends. */
interface SocketUser {
  companyId: number;
  actor: Actor;
  viewer: RealtimeViewer;
}

/** socket.io's own path on the shared HTTP server; the raw ws namespaces leave its upgrades alone. */
export const SOCKET_IO_PATH = '/socket.io/';

const NAMESPACE = /^\/(\d{1,10})$/;

/**
 * Room events the lineage's React client emits. Accepted and not acted on as rooms: what a socket receives
 * is decided by its user's access alone (as the raw ws namespaces do), and narrowing it further by
 * rooms would drop events the client's pages expect (it joins rooms per page, but listens for
 * ticket and message events more widely), so the rooms never widen and do not narrow either.
 * `userStatus` carries a client-sent user id in the lineage: never trusted, so ignored too.
 * `joinChatBox` / `joinChatBoxLeave` (the ticket id the client opens or leaves) also announce the
 * socket's user as a viewer of that ticket (`RealtimeSockets.view`), as over the raw ws.
 */
const CLIENT_EVENTS = ['joinNotification', 'joinTickets', 'leaveTickets', 'leaveNotification', 'userStatus'] as const;

/**
 * The realtime events over socket.io (Engine.IO v4, polling then websocket), for the lineage's
 * client: namespace `/<companyId>`, the access token in the handshake (`auth.token`, or
 * `query.token`), events `company-<companyId>-<entity>` with the ws frame's `data` unchanged
 * (no `seq`: the client spreads the payload; ordering and `since` replay stay with the ws transport).
 * The handshake's checks and the per-socket delivery rules are the ws namespaces' (`RealtimeSockets`);
 * a socket whose user is gone or revoked is disconnected by the server.
 */
export class SocketIoNamespaces {
  private readonly sockets: RealtimeSockets;
  private readonly open = new Set<Socket>();
  private io: SocketIoServer | undefined;

  constructor(
    private readonly deps: RealtimeSocketsDeps & {
      /** Origins allowed to connect from a browser (the operator frontend): polling is cross-origin. */
      frontendUrls: readonly string[];
    },
  ) {
    this.sockets = new RealtimeSockets(deps);
  }

  async attach(server: Server): Promise<void> {
    const io = new SocketIoServer(server, {
      path: SOCKET_IO_PATH,
      serveClient: false,
      maxHttpBufferSize: 64 * 1024,
      // Upgrades that are not socket.io's are the ws namespaces': never cut them after a delay.
      destroyUpgrade: false,
      cors: { origin: [...this.deps.frontendUrls], credentials: true },
    });
    this.io = io;
    io.of('/').use((_socket, next) => next(refusal(404, 'ERR_ROUTE_NOT_FOUND')));
    const companies = io.of(NAMESPACE);
    companies.use((socket, next) => {
      void this.handshake(socket).then(
        () => next(),
        (err: Error) => next(err),
      );
    });
    companies.on('connection', (socket) => this.join(socket));
    await this.sockets.start();
  }

  /**
   * Stops: every socket is disconnected by the server (the client sees `io server disconnect`), given
   * a second to receive that, then Engine.IO closes what is left; the HTTP server is left to its owner.
   */
  async close(): Promise<void> {
    await this.sockets.stop();
    await Promise.all(
      [...this.open].map(
        (socket) =>
          new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, 1000);
            socket.conn.once('close', () => {
              clearTimeout(timer);
              resolve();
            });
            socket.disconnect(true);
          }),
      ),
    );
    this.io?.engine.close();
  }

  /** Connected sockets of a company on this instance. */
  connections(companyId: number): number {
    return this.sockets.connections(companyId);
  }

  private async handshake(socket: Socket) {
    const companyId = Number(NAMESPACE.exec(socket.nsp.name)![1]);
    const { auth, query } = socket.handshake;
    const fromAuth = (auth as { token?: unknown }).token;
    const fromQuery = query.token;
    const token = typeof fromAuth === 'string' ? fromAuth : typeof fromQuery === 'string' ? fromQuery : undefined;
    const checked = await this.sockets.handshake(companyId, token);
    if (!checked.ok) throw refusal(checked.status, checked.code);
    socket.data = { companyId, actor: checked.actor, viewer: checked.viewer } satisfies SocketUser;
  }

  private join(socket: Socket) {
    const { companyId, actor, viewer } = socket.data as SocketUser;
    const client = this.sockets.add(
      companyId,
      {
        isOpen: () => socket.connected,
        send: (frame) => {
          const { event, data } = JSON.parse(frame) as { event: string; data: unknown };
          socket.emit(event, data);
        },
        revoke: () => {
          socket.disconnect(true);
        },
      },
      actor,
      viewer,
    );
    this.open.add(socket);
    for (const name of CLIENT_EVENTS) socket.on(name, () => undefined);
    socket.on('joinChatBox', (ticketId: unknown) => this.sockets.view(companyId, client, ticketId, 'join'));
    socket.on('joinChatBoxLeave', (ticketId: unknown) => this.sockets.view(companyId, client, ticketId, 'leave'));
    socket.on('disconnect', () => {
      this.open.delete(socket);
      this.sockets.remove(companyId, client);
    });
  }
}

/** A refused handshake: the client's `connect_error` has the error code as its message and `data.status`. */
function refusal(status: number, code: string): Error {
  return Object.assign(new Error(code), { data: { status, error: code } });
}
