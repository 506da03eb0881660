import type { Agent } from 'node:https';
import type { AnyMessageContent, AuthenticationState, BaileysEventMap, SocketConfig, WAMessage } from 'baileys';
import type { RuntimeLogger } from '../channel-runtime.js';

/*
 * What the Baileys connector and its session share: the socket's shape, its configuration, the
 * reconnection policy and two helpers. Only types come from 'baileys' here (the connector, on every
 * start path, re-exports this module). The session, loaded lazily with Baileys itself, imports them
 * from here: from the connector, which loads the session, they closed a circle of imports.
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
