import type { Clock, IdGenerator } from '../shared/ports.js';
import { SUBJECTS } from '../outbox/broker.js';
import type { SessionControl, SessionProxy } from './channel-messages.js';
import type { Connection, ConnectionStatus } from './connection.js';
import type { Connections } from './ports.js';
import type { Outbox } from '../outbox/ports.js';

/** The status a connection shows while its command waits for the channel runtime. */
export const STATUS_AFTER: Record<SessionControl['action'], ConnectionStatus> = {
  start: 'OPENING',
  restart: 'OPENING',
  logout: 'DISCONNECTED',
};

/**
 * Writes a `SessionControl` command to the outbox in the caller's transaction, so the change of
 * the connection and the command that carries it out commit together.
 */
export class SessionCommands {
  constructor(
    private readonly deps: {
      connections: Connections;
      outbox: Outbox;
      clock: Clock;
      ids: IdGenerator;
      /** The proxy the connection's session goes through, if any (read in the caller's transaction). */
      proxyOf?: (connection: Connection) => Promise<SessionProxy | null>;
    },
  ) {}

  async enqueue(connection: Connection, action: SessionControl['action'], options: { resume?: boolean; pairingPhoneNumber?: string } = {}): Promise<void> {
    const proxy = action !== 'logout' && this.deps.proxyOf ? await this.deps.proxyOf(connection) : null;
    const command: SessionControl = {
      type: 'SessionControl',
      action,
      companyId: connection.companyId,
      chatappId: connection.id,
      provider: connection.provider,
      secrets: { ...connection.secrets },
      externalId: connection.externalId,
      ...(options.resume ? { resume: true } : {}),
      ...(proxy ? { proxy } : {}),
      ...(options.pairingPhoneNumber && action !== 'logout' ? { pairingPhoneNumber: options.pairingPhoneNumber } : {}),
    };
    await this.deps.outbox.add({
      id: this.deps.ids.uuid(),
      subject: SUBJECTS.sessionControl(connection.id),
      payload: command,
      createdAt: this.deps.clock.now(),
    });
  }

  /**
   * Sets the waiting status and enqueues the command (inside the caller's transaction); with
   * `pairingPhoneNumber`, the session pairs by a code for that number instead of a QR code.
   */
  async apply(connection: Connection, action: SessionControl['action'], options: { pairingPhoneNumber?: string } = {}): Promise<void> {
    connection.status = STATUS_AFTER[action];
    connection.qrcode = null;
    connection.pairingCode = null;
    connection.updatedAt = this.deps.clock.now();
    await this.deps.connections.update(connection);
    await this.enqueue(connection, action, options);
  }
}
