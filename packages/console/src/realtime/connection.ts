/**
 * The company namespace over a raw websocket (`/<companyId>?token=…&since=<seq>`), kept open for
 * as long as the session lasts. After a drop it reconnects with the last `seq` it saw, and the
 * server replays what was missed; when it cannot (`resync`), or when no `seq` was seen yet, the
 * listeners are told to reload what they show. Frames already seen are never delivered twice.
 */

export interface RealtimeFrame {
  readonly seq?: number;
  readonly event: string;
  readonly data: { readonly action?: string; readonly [key: string]: unknown };
}

export type ConnectionState = 'connecting' | 'live' | 'reconnecting' | 'stopped';

export interface SocketLike {
  onopen: (() => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  onclose: ((event: { code: number; reason: string }) => void) | null;
  close(code?: number): void;
  send(data: string): void;
}

export interface ConnectionDeps {
  /** The websocket URL for the company, without query. */
  readonly url: string;
  /** The current access token (or null: signed out). */
  token(): string | null;
  /** A fresh token after the server closed with the session expired; null ends the connection. */
  renew(): Promise<string | null>;
  openSocket(url: string): SocketLike;
  setTimer?(run: () => void, ms: number): unknown;
  clearTimer?(timer: unknown): void;
  /** 0..1; the reconnect delay is jittered by it. */
  random?(): number;
}

export interface ConnectionListener {
  frame?(frame: RealtimeFrame): void;
  /** What is shown may be stale: reload it (after a resync, or a reconnect without a known seq). */
  reload?(): void;
  state?(state: ConnectionState): void;
}

/** The close code the server uses when the session behind a socket ends. */
export const SESSION_EXPIRED_CODE = 4001;
const MAX_DELAY_MS = 10_000;

export class RealtimeConnection {
  private socket: SocketLike | null = null;
  private lastSeq: number | null = null;
  private attempts = 0;
  private timer: unknown = null;
  private current: ConnectionState = 'stopped';
  private readonly listeners = new Set<ConnectionListener>();
  /** Whether the socket ever opened: a later open is a reconnect. */
  private opened = false;

  constructor(private readonly deps: ConnectionDeps) {}

  get state(): ConnectionState {
    return this.current;
  }

  get seq(): number | null {
    return this.lastSeq;
  }

  listen(listener: ConnectionListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  start(): void {
    if (this.current !== 'stopped') return;
    this.connect();
  }

  stop(): void {
    this.setState('stopped');
    if (this.timer !== null) (this.deps.clearTimer ?? clearTimeout)(this.timer as ReturnType<typeof setTimeout>);
    this.timer = null;
    const socket = this.socket;
    this.socket = null;
    socket?.close(1000);
  }

  /**
   * Sends a client message (`{"event","data"}`, e.g. `joinChatBox` with a ticket id) when the socket
   * is live; otherwise it is dropped, and whoever sends it sends it again once `live` (as the ticket
   * viewers do). Returns whether it went out.
   */
  send(event: string, data: unknown): boolean {
    if (this.current !== 'live' || !this.socket) return false;
    try {
      this.socket.send(JSON.stringify({ event, data }));
      return true;
    } catch {
      return false;
    }
  }

  /** Drops the socket as a network failure would (used when the browser reports going offline). */
  drop(): void {
    this.socket?.close(4000);
  }

  private connect(): void {
    const token = this.deps.token();
    if (!token) {
      this.stop();
      return;
    }
    this.setState(this.opened ? 'reconnecting' : 'connecting');
    const query = new URLSearchParams({ token });
    if (this.lastSeq !== null) query.set('since', String(this.lastSeq));
    const socket = this.deps.openSocket(`${this.deps.url}?${query}`);
    this.socket = socket;
    socket.onopen = () => {
      if (this.socket !== socket) return;
      this.attempts = 0;
      const reconnected = this.opened;
      this.opened = true;
      this.setState('live');
      // Without a seq the server cannot replay: whatever happened while away must be reloaded.
      if (reconnected && this.lastSeq === null) this.emit((l) => l.reload?.());
    };
    socket.onmessage = (event) => {
      if (this.socket !== socket || typeof event.data !== 'string') return;
      let frame: RealtimeFrame;
      try {
        frame = JSON.parse(event.data) as RealtimeFrame;
      } catch {
        return;
      }
      if (frame.event === 'resync') {
        if (typeof frame.seq === 'number' && frame.seq > 0) this.lastSeq = frame.seq;
        this.emit((l) => l.reload?.());
        return;
      }
      if (typeof frame.seq === 'number') {
        if (this.lastSeq !== null && frame.seq <= this.lastSeq) return;
        this.lastSeq = frame.seq;
      }
      this.emit((l) => l.frame?.(frame));
    };
    socket.onclose = (event) => {
      if (this.socket !== socket) return;
      this.socket = null;
      if (this.current === 'stopped') return;
      if (event.code === SESSION_EXPIRED_CODE || !this.opened) {
        // The token may have expired (the handshake answers 401 before any open): renew it first.
        void this.deps.renew().then((fresh) => (fresh ? this.schedule() : this.stop()));
        return;
      }
      this.schedule();
    };
  }

  private schedule(): void {
    if (this.current === 'stopped') return;
    this.setState('reconnecting');
    const base = Math.min(MAX_DELAY_MS, 250 * 2 ** this.attempts);
    this.attempts++;
    const delay = Math.round(base * (0.5 + (this.deps.random ?? Math.random)() / 2));
    this.timer = (this.deps.setTimer ?? setTimeout)(() => {
      this.timer = null;
      if (this.current !== 'stopped') this.connect();
    }, delay);
  }

  private setState(state: ConnectionState): void {
    if (this.current === state) return;
    this.current = state;
    this.emit((l) => l.state?.(state));
  }

  private emit(call: (listener: ConnectionListener) => void): void {
    for (const listener of [...this.listeners]) call(listener);
  }
}
