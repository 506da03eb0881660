import type { SessionControl } from '@servicedesk/core';
import type { RuntimeLogger } from '../channel-runtime.js';
import type { ConnectionAuthState } from './auth-state.js';
import type { Connector, ConnectorListener, ConnectorSession } from '../ports.js';
import type { BaileysSocketConfig, ReconnectPolicy, SocketLike } from './baileys-socket.js';
import { proxyAgentOf, proxyLabelOf } from './proxy-agent.js';

export * from './baileys-socket.js';

/*
 * Nothing of 'baileys' is imported here (its types are in ./baileys-socket.js): this module is on every start path (the runtime's index
 * and start-up), and Baileys itself (~60 MB) is loaded by `start()` through ./baileys-session.js,
 * the first time a connection with the Baileys provider starts.
 */

export interface BaileysConnectorOptions {
  readonly makeSocket?: (config: BaileysSocketConfig) => SocketLike;
  readonly authStore: (connectionId: number) => ConnectionAuthState;
  readonly logger: RuntimeLogger;
  readonly reconnect?: Partial<ReconnectPolicy>;
  /** Where sockets connect instead of WhatsApp Web (tests point it at a loopback server); production leaves it unset. */
  readonly webSocketUrl?: string;
}

const DEFAULT_RECONNECT: ReconnectPolicy = { baseMs: 1_000, maxMs: 60_000, maxAttempts: 10 };

/**
 * WhatsApp through Baileys (a WhatsApp Web client): one socket per connection, its session kept
 * in the channel database, pairing reported as the `qrcode` status (the QR code, or the pairing
 * code when the start named the phone number), transient disconnections retried with backoff.
 */
export class BaileysConnector implements Connector {
  readonly providers = ['baileys'] as const;
  private readonly policy: ReconnectPolicy;

  constructor(private readonly o: BaileysConnectorOptions) {
    this.policy = { ...DEFAULT_RECONNECT, ...o.reconnect };
  }

  async start(command: SessionControl, listener: ConnectorListener): Promise<ConnectorSession> {
    const { BaileysSession, makeBaileysSocket } = await import('./baileys-session.js');
    // One agent per session, used by every reconnection: a new proxy comes with a `restart`.
    const agent = command.proxy ? proxyAgentOf(command.proxy) : undefined;
    if (command.proxy) this.o.logger.info({ chatappId: command.chatappId, proxy: proxyLabelOf(command.proxy) }, 'baileys session goes through its proxy');
    const session = new BaileysSession(command.chatappId, listener, this.o.authStore(command.chatappId), {
      makeSocket: this.o.makeSocket ?? makeBaileysSocket,
      logger: this.o.logger,
      policy: this.policy,
      socket: { agent, webSocketUrl: this.o.webSocketUrl },
      pairingPhoneNumber: command.pairingPhoneNumber,
    });
    await session.connect();
    return session;
  }
}
