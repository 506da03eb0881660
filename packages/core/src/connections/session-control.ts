import { assertAdmin, type Actor } from '../shared/actor.js';
import type { RealtimeEvents } from '../realtime/ports.js';
import type { SessionEvent } from './connection-events.js';
import { ValidationError } from '../shared/errors.js';
import type { Cache, Transaction } from '../shared/ports.js';
import { atCommit } from '../shared/at-commit.js';
import type { SessionControl } from './channel-messages.js';
import { toConnectionView, type Connection, type ConnectionView } from './connection.js';
import { visibleConnection } from './connection-rules.js';
import type { Connections } from './ports.js';
import type { SessionCommands } from './session-commands.js';

export interface ControlSessionInput {
  readonly actor: Actor;
  readonly connectionId: number;
  readonly action: SessionControl['action'];
  /**
   * `start` and `restart` of a chat-application session: pair by a code for this number (digits
   * with the country code) instead of a QR code.
   */
  readonly pairingPhoneNumber?: string;
}

/** A phone number to pair with: digits only, the country code first, 8 to 15 of them (E.164 without the `+`). */
export const PAIRING_PHONE_NUMBER = /^[1-9]\d{7,14}$/;

async function announce(realtime: RealtimeEvents<SessionEvent>, connections: readonly Connection[]): Promise<ConnectionView[]> {
  const views = connections.map(toConnectionView);
  for (const session of views) await realtime.publish(session.companyId, { entity: 'chatappSession', data: { action: 'update', session } });
  return views;
}

/**
 * An admin starts, restarts or logs out of one connection's session. The connection shows the
 * waiting status (`OPENING`, or `DISCONNECTED` for a logout) at once; the channel runtime
 * reports the real status later through `SessionStatusChanged`.
 */
export class ControlSession {
  constructor(private readonly deps: { connections: Connections; sessions: SessionCommands; tx: Transaction; realtime: RealtimeEvents<SessionEvent> }) {}

  async execute(input: ControlSessionInput): Promise<ConnectionView> {
    const { connections, sessions, tx, realtime } = this.deps;
    assertAdmin(input.actor);
    let announced: Promise<ConnectionView[]> | undefined;
    await tx.run(async () => {
      const connection = await visibleConnection(connections, input.actor, input.connectionId);
      if (input.pairingPhoneNumber !== undefined) {
        // Only a chat-application session pairs with a phone; the number is as WhatsApp writes it.
        if (connection.kind !== 'chatapp' || input.action === 'logout') throw new ValidationError('ERR_PAIRING_NOT_SUPPORTED');
        if (!PAIRING_PHONE_NUMBER.test(input.pairingPhoneNumber)) throw new ValidationError('ERR_INVALID_PAIRING_PHONE_NUMBER');
      }
      // Announced before the command is relayed: the runtime's answer must come after it.
      announced = atCommit(tx, () => announce(realtime, [connection]));
      await sessions.apply(connection, input.action, input.pairingPhoneNumber ? { pairingPhoneNumber: input.pairingPhoneNumber } : {});
    });
    const [view] = await announced!;
    return view!;
  }
}

/**
 * How long a requested restart of a session covers later requests: while it runs (the connection
 * shows `OPENING`) or just after it brought the session back, a new request joins it instead of
 * restarting the session again. A session that came back `DISCONNECTED` is restarted again at once;
 * one still `OPENING` after this long is taken as stuck and restarted again too.
 */
export const RESTART_JOIN_SECONDS = 15;

/** The cache key of a session's last requested restart (shared by the instances). */
const restartKey = (connectionId: number) => `session-restart:${connectionId}`;

/**
 * An admin restarts every chat-application session of the company. The answer comes at once: each
 * connection's restart is a command for the channel runtime, written with the `OPENING` status in
 * one transaction, and the runtime reports its progress (`OPENING`, then `CONNECTED`, `qrcode` or
 * `DISCONNECTED`) as `chatappSession` frames. Restarts of a session are coalesced: requests at the
 * same time share one run, and a request while a restart of a session runs (or right after it
 * brought the session back) joins it, so a burst of requests restarts each session once, not once
 * per request.
 */
export class RestartAllSessions {
  /** The run in progress per company, which requests arriving meanwhile share. */
  private readonly running = new Map<number, Promise<ConnectionView[]>>();

  constructor(
    private readonly deps: {
      connections: Connections;
      sessions: SessionCommands;
      tx: Transaction;
      realtime: RealtimeEvents<SessionEvent>;
      /** Remembers each session's last requested restart across instances; without it only simultaneous requests are coalesced. */
      cache?: Cache;
    },
  ) {}

  async execute(input: { readonly actor: Actor }): Promise<ConnectionView[]> {
    assertAdmin(input.actor);
    const companyId = input.actor.companyId;
    const running = this.running.get(companyId);
    if (running) return running;
    const run = this.run(companyId).finally(() => this.running.delete(companyId));
    this.running.set(companyId, run);
    return run;
  }

  private async run(companyId: number): Promise<ConnectionView[]> {
    const { connections, sessions, tx, realtime } = this.deps;
    const claimed: number[] = [];
    let covered: Connection[];
    let announced: Promise<ConnectionView[]> | undefined;
    try {
      covered = await tx.run(async () => {
        const chatapps = (await connections.list(companyId)).filter((c) => c.kind === 'chatapp');
        const started: Connection[] = [];
        announced = atCommit(tx, () => announce(realtime, started));
        for (const connection of chatapps) {
          if (!(await this.claim(connection))) continue;
          claimed.push(connection.id);
          await sessions.apply(connection, 'restart');
          started.push(connection);
        }
        return chatapps;
      });
    } catch (err) {
      // Nothing was restarted: the claims must not make later requests join it.
      await Promise.all(claimed.map((id) => this.deps.cache?.delete(restartKey(id)).catch(() => undefined)));
      throw err;
    }
    await announced;
    return covered.map(toConnectionView);
  }

  /** True when this request restarts the session; false when it joins the restart already requested. */
  private async claim(connection: Connection): Promise<boolean> {
    const { cache } = this.deps;
    if (!cache) return true;
    const key = restartKey(connection.id);
    if (await cache.setIfAbsent(key, '1', RESTART_JOIN_SECONDS)) return true;
    // A restart was requested moments ago: join it, unless it already ended with the session down.
    if (connection.status !== 'DISCONNECTED') return false;
    await cache.set(key, '1', RESTART_JOIN_SECONDS);
    return true;
  }
}
