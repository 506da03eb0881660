import type { ConnectionStatus, OutboundContent } from '@servicedesk/core';
import { DisconnectReason, makeCacheableSignalKeyStore, makeWASocket, type BaileysEventMap } from 'baileys';
import type { RuntimeLogger } from '../channel-runtime.js';
import type { ConnectionAuthState } from './auth-state.js';
import { PermanentSendError, type ConnectorListener, type ConnectorSession } from '../ports.js';
import { baileysLoggerFor, whatsappIdOf, type BaileysSocketConfig, type ReconnectPolicy, type SocketLike } from './baileys-socket.js';
import { deliveryOfReceipt, deliveryOfStatus, disconnectCode, inboundOf, outboundOf, presenceStateOf, toJid } from './baileys-messages.js';

/**
 * A contact's presence is asked for only while a conversation with them is active (they wrote, or
 * we sent them a message), never for the whole address book: at most once per contact in this
 * long (WhatsApp stops reporting after a while; the next message asks again), and for this many
 * contacts (the least recently active forgotten first).
 */
export const PRESENCE_RESUBSCRIBE_MS = 10 * 60_000;
export const PRESENCE_WATCHED_MAX = 500;

/*
 * The Baileys session and real socket. This module imports Baileys itself, so only
 * `BaileysConnector.start()` imports it, dynamically: a runtime without Baileys connections
 * never loads the library. It is not re-exported from the package's index for the same reason.
 */

/** Baileys' own socket, its signal keys behind Baileys' cache so that the database is not asked for every message. */
export function makeBaileysSocket(config: BaileysSocketConfig): SocketLike {
  return makeWASocket({
    auth: { creds: config.auth.creds, keys: makeCacheableSignalKeyStore(config.auth.keys, config.logger) },
    logger: config.logger,
    // The proxy carries the WebSocket and media uploads to WhatsApp (our own media URLs are fetched directly).
    ...(config.agent ? { agent: config.agent, fetchAgent: config.agent } : {}),
    ...(config.webSocketUrl ? { waWebSocketUrl: config.webSocketUrl } : {}),
    // Leaves the phone receiving notifications while the platform is connected.
    markOnlineOnConnect: false,
  });
}

interface SessionDeps {
  readonly makeSocket: (config: BaileysSocketConfig) => SocketLike;
  readonly logger: RuntimeLogger;
  readonly policy: ReconnectPolicy;
  /** What every socket of the session opens with besides its auth state: the proxy's agent, the address. */
  readonly socket: Pick<BaileysSocketConfig, 'agent' | 'webSocketUrl'>;
  /** Pair by a code for this number (digits) instead of a QR code, while the session is not registered. */
  readonly pairingPhoneNumber?: string;
}

export class BaileysSession implements ConnectorSession {
  private current: ConnectionStatus = 'OPENING';
  private socket: SocketLike | undefined;
  private detach: (() => void) | undefined;
  private attempts = 0;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  /** The contacts whose presence this socket asked for: jid → their number (digits) and when it asked. */
  private watched = new Map<string, { from: string; at: number }>();

  constructor(
    readonly chatappId: number,
    private readonly listener: ConnectorListener,
    private readonly auth: ConnectionAuthState,
    private readonly deps: SessionDeps,
  ) {}

  status() {
    return this.current;
  }

  /** Loads the stored session and opens a socket on it; what happens next arrives as socket events. */
  async connect(): Promise<void> {
    const { state, saveCreds } = await this.auth.load();
    if (this.stopped) return;
    const socket = this.deps.makeSocket({ ...this.deps.socket, auth: state, logger: baileysLoggerFor(this.deps.logger, { chatappId: this.chatappId }) });
    this.socket = socket;
    // A new socket has no presence subscriptions yet.
    this.watched = new Map();
    const guard =
      <A>(name: string, fn: (arg: A) => void) =>
      (arg: A) => {
        if (socket !== this.socket) return;
        try {
          fn(arg);
        } catch (err) {
          this.deps.logger.error({ err, chatappId: this.chatappId }, `baileys ${name} handler failed`);
        }
      };
    let codeRequested = false;
    const onConnection = guard<BaileysEventMap['connection.update']>('connection.update', (u) => {
      // The first QR code means the socket is ready to pair: with a phone number, ask for its code
      // instead (once per socket: the code stays valid while the socket lives, its later QR codes are not shown).
      if (u.qr && this.deps.pairingPhoneNumber && !state.creds.registered) {
        if (!codeRequested) this.requestPairingCode(socket, u.qr);
        codeRequested = true;
        u = { ...u, qr: undefined };
      }
      this.onConnection(u);
    });
    const onCreds = guard<BaileysEventMap['creds.update']>('creds.update', (update) => {
      // Baileys merges the update into these creds itself; merging again keeps a fake socket honest.
      Object.assign(state.creds, update);
      saveCreds().catch((err) => this.deps.logger.error({ err, chatappId: this.chatappId }, 'could not save baileys credentials'));
    });
    const onUpsert = guard<BaileysEventMap['messages.upsert']>('messages.upsert', ({ messages, type }) => {
      if (type !== 'notify') return;
      for (const msg of messages) {
        const inbound = inboundOf(msg);
        // Baileys has acknowledged it to WhatsApp already (before this event): it is recorded as soon as it can be.
        if (inbound) void this.listener.inbound(inbound);
        // The contact's conversation is active: their typing is worth reporting from now on.
        if (inbound && !inbound.isGroup) this.watchPresence(socket, msg.key.remoteJid!, inbound.from);
      }
    });
    const onUpdate = guard<BaileysEventMap['messages.update']>('messages.update', (updates) => {
      for (const { key, update } of updates) {
        const status = key.fromMe && key.id ? deliveryOfStatus(update.status) : undefined;
        if (status) this.listener.delivery(key.id!, status);
      }
    });
    const onReceipt = guard<BaileysEventMap['message-receipt.update']>('message-receipt.update', (receipts) => {
      for (const { key, receipt } of receipts) {
        const status = key.fromMe && key.id ? deliveryOfReceipt(receipt) : undefined;
        if (status) this.listener.delivery(key.id!, status);
      }
    });
    const onPresence = guard<BaileysEventMap['presence.update']>('presence.update', ({ id, presences }) => {
      const from = this.watched.get(id)?.from;
      if (!from) return;
      // In a one-to-one chat the only participant is the contact (under its jid, or its LID).
      for (const data of Object.values(presences)) {
        const state = presenceStateOf(data.lastKnownPresence);
        if (state) this.listener.presence(from, state);
      }
    });
    socket.ev.on('connection.update', onConnection);
    socket.ev.on('presence.update', onPresence);
    socket.ev.on('creds.update', onCreds);
    socket.ev.on('messages.upsert', onUpsert);
    socket.ev.on('messages.update', onUpdate);
    socket.ev.on('message-receipt.update', onReceipt);
    this.detach = () => {
      socket.ev.off('connection.update', onConnection);
      socket.ev.off('creds.update', onCreds);
      socket.ev.off('messages.upsert', onUpsert);
      socket.ev.off('messages.update', onUpdate);
      socket.ev.off('message-receipt.update', onReceipt);
      socket.ev.off('presence.update', onPresence);
    };
  }

  /**
   * Asks for the presence of a contact whose conversation is active, unless it was asked for
   * recently on this socket; `jid` is how the chat names them (a phone jid or a LID), `from` their number.
   */
  private watchPresence(socket: SocketLike, jid: string, from: string) {
    if (jid.endsWith('@g.us') || !from) return;
    const now = Date.now();
    const seen = this.watched.get(jid);
    // Most recently active last: the first entry is the one to forget.
    this.watched.delete(jid);
    this.watched.set(jid, { from, at: seen && now - seen.at < PRESENCE_RESUBSCRIBE_MS ? seen.at : now });
    if (this.watched.size > PRESENCE_WATCHED_MAX) this.watched.delete(this.watched.keys().next().value!);
    if (seen && now - seen.at < PRESENCE_RESUBSCRIBE_MS) return;
    socket.presenceSubscribe(jid).catch((err: unknown) => this.deps.logger.warn({ err, chatappId: this.chatappId }, "could not ask for a contact's presence"));
  }

  private report(status: ConnectionStatus, qrcode: string | null, pairingCode?: string) {
    this.current = status;
    if (pairingCode) this.listener.status(status, qrcode, pairingCode);
    else this.listener.status(status, qrcode);
  }

  /** Reports the pairing code for the configured number; if WhatsApp refuses it, the QR code instead, so pairing stays possible. */
  private requestPairingCode(socket: SocketLike, qr: string) {
    const phone = this.deps.pairingPhoneNumber!;
    socket.requestPairingCode(phone).then(
      (code) => {
        if (socket === this.socket) this.report('qrcode', null, code);
      },
      (err: unknown) => {
        this.deps.logger.warn({ err, chatappId: this.chatappId }, 'baileys could not get a pairing code; showing the QR code');
        if (socket === this.socket) this.report('qrcode', qr);
      },
    );
  }

  private onConnection(update: BaileysEventMap['connection.update']) {
    if (update.qr) this.report('qrcode', update.qr);
    if (update.connection === 'open') {
      this.attempts = 0;
      this.report('CONNECTED', null);
    }
    if (update.connection === 'close') this.closed(update.lastDisconnect?.error);
  }

  /** Stops listening to the current socket (it is closed, superseded or being stopped). */
  private drop(): SocketLike | undefined {
    const socket = this.socket;
    this.detach?.();
    this.detach = undefined;
    this.socket = undefined;
    return socket;
  }

  /**
   * The socket closed. Logged out (the phone removed the device): forget the session for good.
   * Restart required (Baileys' request right after pairing): reconnect at once. Anything else:
   * reconnect with exponential backoff, and give up after the configured attempts in a row.
   */
  private closed(error: unknown) {
    this.drop();
    if (this.stopped) return;
    const code = disconnectCode(error);
    this.deps.logger.info({ chatappId: this.chatappId, code, attempts: this.attempts }, 'baileys socket closed');
    if (code === DisconnectReason.loggedOut) {
      this.current = 'DISCONNECTED';
      void this.auth
        .clear()
        .catch((err) => this.deps.logger.error({ err, chatappId: this.chatappId }, 'could not clear baileys auth state'))
        .then(() => this.report('DISCONNECTED', null));
      return;
    }
    if (code === DisconnectReason.restartRequired) {
      this.current = 'OPENING';
      this.schedule(0);
      return;
    }
    const { baseMs, maxMs, maxAttempts } = this.deps.policy;
    if (++this.attempts > maxAttempts) {
      this.deps.logger.warn({ chatappId: this.chatappId, attempts: maxAttempts }, 'baileys session gave up reconnecting');
      this.report('DISCONNECTED', null);
      return;
    }
    this.report('OPENING', null);
    this.schedule(Math.min(maxMs, baseMs * 2 ** (this.attempts - 1)));
  }

  private schedule(delayMs: number) {
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (this.stopped) return;
      this.connect().catch((err: unknown) => {
        this.deps.logger.error({ err, chatappId: this.chatappId }, 'baileys reconnection failed');
        this.closed(err);
      });
    }, delayMs);
  }

  private connected(): SocketLike {
    if (this.current !== 'CONNECTED' || !this.socket) throw new PermanentSendError('ERR_SESSION_NOT_CONNECTED');
    return this.socket;
  }

  async send(to: string, content: OutboundContent, options: { idempotencyKey?: string } = {}): Promise<{ providerMessageId: string }> {
    const socket = this.connected();
    const jid = toJid(to);
    const { message, followUpText } = outboundOf(content);
    // Writing to a contact makes the conversation active: their typing is worth reporting.
    if (jid.endsWith('@s.whatsapp.net')) this.watchPresence(socket, jid, jid.split('@')[0]!);
    // A message id derived from ours: a send repeated after a crash carries the same WhatsApp id.
    const sent = await socket.sendMessage(jid, message, options.idempotencyKey ? { messageId: whatsappIdOf(options.idempotencyKey) } : undefined);
    const providerMessageId = sent?.key.id;
    if (!providerMessageId) throw new Error('baileys: sendMessage answered no message id');
    if (followUpText) {
      // The media went out: a failed caption must not make the broker resend it.
      await socket
        .sendMessage(jid, { text: followUpText })
        .catch((err: unknown) => this.deps.logger.warn({ err, chatappId: this.chatappId }, 'could not send the text of an audio message'));
    }
    return { providerMessageId };
  }

  async edit(to: string, providerMessageId: string, body: string): Promise<void> {
    const jid = toJid(to);
    await this.connected().sendMessage(jid, { text: body, edit: { remoteJid: jid, fromMe: true, id: providerMessageId } });
  }

  async revoke(to: string, providerMessageId: string): Promise<void> {
    const jid = toJid(to);
    await this.connected().sendMessage(jid, { delete: { remoteJid: jid, fromMe: true, id: providerMessageId } });
  }

  async checkNumber(number: string): Promise<{ exists: boolean; id: string | null }> {
    const socket = this.connected();
    if (!number.replace(/\D/g, '')) return { exists: false, id: null };
    const [result] = (await socket.onWhatsApp(toJid(number))) ?? [];
    return result?.exists ? { exists: true, id: result.jid } : { exists: false, id: null };
  }

  async stop(options: { logout: boolean }): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    // Stop listening first: ending the socket emits a close that must not reconnect.
    const socket = this.drop();
    this.current = 'DISCONNECTED';
    if (socket && options.logout) {
      await socket.logout().catch(async (err: unknown) => {
        this.deps.logger.warn({ err, chatappId: this.chatappId }, 'baileys logout failed; the session is forgotten here anyway');
        await socket.end(undefined).catch(() => undefined);
      });
    } else if (socket) {
      await socket.end(undefined).catch(() => undefined);
    }
    if (options.logout) await this.auth.clear();
    this.listener.status('DISCONNECTED', null);
  }
}
