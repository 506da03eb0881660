import { EventEmitter } from 'node:events';
import { initAuthCreds, type AnyMessageContent, type AuthenticationState, type WAMessage } from 'baileys';
import type { ConnectionStatus, ContactPresenceState, DeliveryStatus } from '@servicedesk/core';
import type { BaileysSocketConfig, BaileysSocketEvents, ConnectionAuthState, ConnectorListener, InboundFromProvider, SocketLike } from '../../src/index.js';

/** An error as Baileys closes a socket with: a Boom whose `output.statusCode` is the DisconnectReason. */
export function closeError(statusCode: number): Error {
  return Object.assign(new Error(`Connection Failure ${statusCode}`), { output: { statusCode } });
}

/**
 * A stand-in for Baileys' socket: the same event names and payload shapes, sends recorded and
 * answered with a WAMessage-like key, and logout/end closing the socket the way Baileys does
 * (a `connection.update` close carrying the reason).
 */
export class FakeBaileysSocket implements SocketLike {
  private readonly emitter = new EventEmitter();
  readonly ev = {
    on: <E extends keyof BaileysSocketEvents>(event: E, listener: (arg: BaileysSocketEvents[E]) => void) => {
      this.emitter.on(event, listener);
    },
    off: <E extends keyof BaileysSocketEvents>(event: E, listener: (arg: BaileysSocketEvents[E]) => void) => {
      this.emitter.off(event, listener);
    },
  };
  readonly sent: Array<{ jid: string; content: AnyMessageContent; messageId?: string }> = [];
  readonly ended: Array<Error | undefined> = [];
  loggedOut = false;
  /** Numbers (digits) the fake says have WhatsApp. */
  readonly registered = new Set<string>();
  /** Makes the next sends throw this error. */
  failNext: Error[] = [];
  /** The jids whose presence was asked for, in order. */
  readonly presenceSubscriptions: string[] = [];
  /** The numbers a pairing code was asked for, in order. */
  readonly pairingRequests: string[] = [];
  /** Makes the next pairing-code request fail with this error. */
  pairingFailure: Error | undefined;
  private counter = 0;

  constructor(
    readonly config: BaileysSocketConfig,
    readonly index: number,
  ) {}

  emit<E extends keyof BaileysSocketEvents>(event: E, arg: BaileysSocketEvents[E]): void {
    this.emitter.emit(event, arg);
  }

  listeners(): number {
    return this.emitter.eventNames().reduce((n, e) => n + this.emitter.listenerCount(e), 0);
  }

  qr(code: string) {
    this.emit('connection.update', { qr: code });
  }
  open() {
    this.emit('connection.update', { connection: 'open' });
  }
  close(statusCode: number) {
    this.emit('connection.update', { connection: 'close', lastDisconnect: { error: closeError(statusCode), date: new Date() } });
  }

  async sendMessage(jid: string, content: AnyMessageContent, options?: { messageId?: string }): Promise<WAMessage | undefined> {
    const failure = this.failNext.shift();
    if (failure) throw failure;
    this.sent.push({ jid, content, ...(options?.messageId ? { messageId: options.messageId } : {}) });
    return {
      key: { remoteJid: jid, fromMe: true, id: options?.messageId ?? `3EB0F${this.index}${++this.counter}` },
      message: {},
      messageTimestamp: 1_700_000_000,
    };
  }

  async onWhatsApp(...jids: string[]) {
    return jids.filter((jid) => this.registered.has(jid.split('@')[0]!)).map((jid) => ({ jid, exists: true }));
  }

  async presenceSubscribe(jid: string): Promise<void> {
    this.presenceSubscriptions.push(jid);
  }

  /** A contact's presence in a chat, as Baileys reports it. */
  presence(chatJid: string, lastKnownPresence: 'composing' | 'recording' | 'paused' | 'available' | 'unavailable', participant = chatJid) {
    this.emit('presence.update', { id: chatJid, presences: { [participant]: { lastKnownPresence } } });
  }

  /** Answers a code derived from the number and the socket (as Baileys, 8 characters). */
  async requestPairingCode(phoneNumber: string): Promise<string> {
    this.pairingRequests.push(phoneNumber);
    const failure = this.pairingFailure;
    this.pairingFailure = undefined;
    if (failure) throw failure;
    return `PAIR${phoneNumber.slice(-3)}${this.index}`;
  }

  async logout(): Promise<void> {
    this.loggedOut = true;
    await this.end(closeError(401));
  }

  async end(error: Error | undefined): Promise<void> {
    this.ended.push(error);
    this.emit('connection.update', { connection: 'close', lastDisconnect: { error, date: new Date() } });
  }
}

/** A socket factory that keeps every socket it made, newest last. */
export function fakeSockets() {
  const sockets: FakeBaileysSocket[] = [];
  return {
    sockets,
    last: () => sockets[sockets.length - 1]!,
    makeSocket: (config: BaileysSocketConfig) => {
      const socket = new FakeBaileysSocket(config, sockets.length);
      sockets.push(socket);
      return socket;
    },
  };
}

/** An auth state in memory that counts saves and clears. */
export class MemoryAuthState implements ConnectionAuthState {
  saved: AuthenticationState['creds'][] = [];
  cleared = 0;
  private creds = initAuthCreds();

  constructor(readonly connectionId: number) {}

  async load() {
    const state: AuthenticationState = { creds: this.creds, keys: { get: async () => ({}), set: async () => undefined } };
    return {
      state,
      saveCreds: async () => {
        this.saved.push({ ...state.creds });
      },
    };
  }

  async clear() {
    this.cleared++;
    this.creds = initAuthCreds();
  }
}

/** A connector listener that records what it is told. */
export function recordingListener() {
  const statuses: Array<[ConnectionStatus, string | null]> = [];
  /** The pairing codes reported (with the `qrcode` status), in order. */
  const pairingCodes: string[] = [];
  const inbound: InboundFromProvider[] = [];
  const deliveries: Array<[string, DeliveryStatus]> = [];
  const presences: Array<[string, ContactPresenceState]> = [];
  const listener: ConnectorListener = {
    status: (status, qrcode, pairingCode) => {
      statuses.push([status, qrcode]);
      if (pairingCode) pairingCodes.push(pairingCode);
    },
    inbound: async (m) => {
      inbound.push(m);
    },
    delivery: (id, status) => {
      deliveries.push([id, status]);
    },
    presence: (from, state) => {
      presences.push([from, state]);
    },
  };
  return { listener, statuses, pairingCodes, inbound, deliveries, presences };
}

export const silentLogger = { info: () => undefined, warn: () => undefined, error: () => undefined };

export const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls until the condition holds (or fails after a while). */
export async function until(condition: () => boolean, timeoutMs = 2_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await wait(2);
  }
}
