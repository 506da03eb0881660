import { assertAdmin, type Actor } from '../shared/actor.js';
import type { RealtimeEvents } from '../realtime/ports.js';
import type { SessionEvent } from './connection-events.js';
import type { Transaction } from '../shared/ports.js';
import type { SessionControl } from './channel-messages.js';
import { toConnectionView, type Connection, type ConnectionView } from './connection.js';
import { visibleConnection } from './connection-rules.js';
import type { Connections } from './ports.js';
import type { SessionCommands } from './session-commands.js';

export interface ControlSessionInput {
  readonly actor: Actor;
  readonly connectionId: number;
  readonly action: SessionControl['action'];
}

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
    const connection = await tx.run(async () => {
      const connection = await visibleConnection(connections, input.actor, input.connectionId);
      await sessions.apply(connection, input.action);
      return connection;
    });
    const [view] = await announce(realtime, [connection]);
    return view!;
  }
}

/** An admin restarts every chat-application session of the company at once. */
export class RestartAllSessions {
  constructor(private readonly deps: { connections: Connections; sessions: SessionCommands; tx: Transaction; realtime: RealtimeEvents<SessionEvent> }) {}

  async execute(input: { readonly actor: Actor }): Promise<ConnectionView[]> {
    const { connections, sessions, tx, realtime } = this.deps;
    assertAdmin(input.actor);
    const restarted = await tx.run(async () => {
      const chatapps = (await connections.list(input.actor.companyId)).filter((c) => c.kind === 'chatapp');
      for (const connection of chatapps) await sessions.apply(connection, 'restart');
      return chatapps;
    });
    return announce(realtime, restarted);
  }
}
