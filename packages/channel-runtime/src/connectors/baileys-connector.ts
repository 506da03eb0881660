import type { Agent } from 'node:https';
import type { SessionControl } from '@servicedesk/core';
import type { AnyMessageContent, AuthenticationState, BaileysEventMap, SocketConfig, WAMessage } from 'baileys';
import type { RuntimeLogger } from '../channel-runtime.js';
import type { ConnectionAuthState } from './auth-state.js';
import type { Connector, ConnectorListener, ConnectorSession } from '../ports.js';
import { proxyAgentOf, proxyLabelOf } from './proxy-agent.js';

/*
 * Only types come from 'baileys' here: this module is on every start path (the runtime's index
 * and start-up), and Baileys itself (~60 MB) is loaded by `start()` through ./baileys-session.js,
 * the first time a connection with the Baileys provider starts.
 */

export type BaileysLogger = SocketConfig['logger'];

/** The socket events the connector listens to, with Baileys' own payload shapes. */
export type BaileysSocketEvents = Pick<
  BaileysEventMap,
  'connection.update' | 'creds.update' | 'messages.upsert' | 'messages.update' | 'message-receipt.update' | 'presence.update'
>;

/** The part of Baileys' `WASocket` the connector uses (a real socket is one; tests pass a fake). */
export interface SocketLike {
  readonly ev: {
    on<E extends keyof BaileysSocketEvents>(event: E, listener: (arg: BaileysSocketEvents[E]) => void): void;
    off<E extends keyof BaileysSocketEvents>(event: E, listener: (arg: BaileysSocketEvents[E]) => void): void;
  };
  sendMessage(jid: string, content: AnyMessageContent, options?: { messageId?: string }): Promise<WAMessage | undefined>;
  onWhatsApp(...jids: string[]): Promise<Array<{ jid: string; exists: boolean }> | undefined>;
  /** Asks WhatsApp to report a contact's presence (typing, recording) as `presence.update` events. */
  presenceSubscribe(jid: string): Promise<void>;
  /** Asks WhatsApp for a code to link this (not yet registered) device by typing it on the phone of that number. */
  requestPairingCode(phoneNumber: string): Promise<string>;
  logout(msg?: string): Promise<void>;
  end(error: Error | undefined): Promise<void>;
}

export interface BaileysSocketConfig {
  readonly auth: AuthenticationState;
  readonly logger: BaileysLogger;
  /** Opens the WebSocket and media uploads through the connection's proxy; absent: direct. */
  readonly agent?: Agent;
  /** WhatsApp Web's WebSocket address; absent: Baileys' own. */
  readonly webSocketUrl?: string;
}

/** Reconnection after a transient close: `min(maxMs, baseMs·2^(n-1))` before attempt n, at most maxAttempts in a row. */
export interface ReconnectPolicy {
  readonly baseMs: number;
  readonly maxMs: number;
  readonly maxAttempts: number;
}

export interface BaileysConnectorOptions {
  readonly makeSocket?: (config: BaileysSocketConfig) => SocketLike;
  readonly authStore: (connectionId: number) => ConnectionAuthState;
  readonly logger: RuntimeLogger;
  readonly reconnect?: Partial<ReconnectPolicy>;
  /** Where sockets connect instead of WhatsApp Web (tests point it at a loopback server); production leaves it unset. */
  readonly webSocketUrl?: string;
}

const DEFAULT_RECONNECT: ReconnectPolicy = { baseMs: 1_000, maxMs: 60_000, maxAttempts: 10 };

/** WhatsApp Web's id shape (`3EB0` + upper-case hex) built from our message uuid. */
export function whatsappIdOf(messageId: string): string {
  return `3EB0${messageId
    .replace(/[^0-9a-f]/gi, '')
    .toUpperCase()
    .slice(0, 20)}`;
}

/** Baileys logs through pino's interface; only its warnings and errors reach the runtime's logger. */
export function baileysLoggerFor(logger: RuntimeLogger, bindings: Record<string, unknown> = {}): BaileysLogger {
  const entry = (obj: unknown) => ({ ...bindings, ...(typeof obj === 'object' && obj !== null ? obj : { detail: obj }) });
  const message = (obj: unknown, msg?: string) => msg ?? (typeof obj === 'string' ? obj : 'baileys');
  const ignore = () => undefined;
  return {
    level: 'warn',
    child: (more) => baileysLoggerFor(logger, { ...bindings, ...more }),
    trace: ignore,
    debug: ignore,
    info: ignore,
    warn: (obj, msg) => logger.warn(entry(obj), message(obj, msg)),
    error: (obj, msg) => logger.error(entry(obj), message(obj, msg)),
  };
}

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
