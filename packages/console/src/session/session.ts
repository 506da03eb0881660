/**
 * The signed-in session: the access token kept in memory (the refresh token is the backend's
 * httpOnly `jrt` cookie), one refresh at a time for every request that met a 401, and the end of
 * the session on every tab when any tab signs out or finds the session gone.
 */

export interface SessionUser {
  readonly id: number;
  readonly companyId: number;
  readonly name: string;
  readonly profile: string;
  readonly super?: boolean;
  /** `enable`: this user sees every ticket, as an admin does (the server enforces it). */
  readonly allTicket?: string;
}

export interface SessionState {
  readonly token: string;
  readonly user: SessionUser;
}

/** What the session needs from the browser, injected so the logic is tested without one. */
export interface SessionDeps {
  /**
   * `POST /auth/refresh_token` (with credentials): the new token and user, or null when the server
   * refused (the session is over). It throws when the server could not be reached: the session stays.
   */
  refresh(): Promise<SessionState | null>;
  /** `DELETE /auth/logout` with the token, best effort. */
  logout(token: string): Promise<void>;
  /** A channel the tabs of this browser share (BroadcastChannel), or none. */
  channel?: { postMessage(message: unknown): void; onmessage: ((event: { data: unknown }) => void) | null };
}

type Listener = (state: SessionState | null) => void;

export class Session {
  private state: SessionState | null = null;
  private refreshing: Promise<SessionState | null> | null = null;
  private readonly listeners = new Set<Listener>();

  constructor(private readonly deps: SessionDeps) {
    if (deps.channel) {
      deps.channel.onmessage = (event) => {
        const message = event.data as { type?: string } | null;
        if (message?.type === 'signed-out') this.set(null, false);
        if (message?.type === 'signed-in') void this.refresh();
      };
    }
  }

  get current(): SessionState | null {
    return this.state;
  }

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** After a sign-in answered by the server. */
  signedIn(state: SessionState): void {
    this.set(state, false);
    this.deps.channel?.postMessage({ type: 'signed-in' });
  }

  /**
   * A new access token through the refresh cookie. Concurrent callers share one request: the
   * cookie rotates on each refresh, so two at once would invalidate each other. A refused refresh
   * ends the session (on every tab).
   */
  refresh(): Promise<SessionState | null> {
    this.refreshing ??= this.deps.refresh().then(
      (next) => {
        this.refreshing = null;
        this.set(next, next === null);
        return next;
      },
      () => {
        // Unreachable is not refused: keep the session and let the caller retry later.
        this.refreshing = null;
        return this.state;
      },
    );
    return this.refreshing;
  }

  /**
   * Called when a request with `token` was answered 401: refreshes unless another request already
   * did (the token changed since), and answers the token to retry with, or null when signed out.
   */
  async renewAfter(token: string | null): Promise<string | null> {
    if (this.state && token !== this.state.token) return this.state.token;
    return (await this.refresh())?.token ?? null;
  }

  /**
   * Replaces the session by the one `work` signs in to. A password change ends every session of the
   * user on the server, this tab's too, and `work` then signs in again with the new password: the
   * refreshes asked meanwhile (the realtime connection is closed at once) share its answer instead
   * of presenting the revoked cookie, whose refusal would sign every tab out. If `work` fails, they
   * get the session as it was, which is still good when the change itself was refused.
   */
  renewWith(work: () => Promise<SessionState>): Promise<SessionState> {
    const renewed = work().then(
      (next) => {
        this.refreshing = null;
        this.signedIn(next);
        return next;
      },
      (err: unknown) => {
        this.refreshing = null;
        throw err;
      },
    );
    this.refreshing = renewed.catch(() => this.state);
    return renewed;
  }

  async signOut(): Promise<void> {
    const token = this.state?.token;
    this.set(null, true);
    if (token) await this.deps.logout(token).catch(() => undefined);
  }

  private set(next: SessionState | null, broadcast: boolean): void {
    const was = this.state;
    this.state = next;
    if (broadcast && was && !next) this.deps.channel?.postMessage({ type: 'signed-out' });
    for (const listener of this.listeners) listener(next);
  }
}
