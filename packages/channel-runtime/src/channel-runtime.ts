import {
  inboundShard, SUBJECTS, type Broker, type BrokerSubscription, type ChannelEvent, type ConnectionProvider, type DeliveryInfo, type SessionControl,
  type SessionSendMessage, type SocialSendMessage,
} from '@servicedesk/core';
import type { SessionEditMessage, SessionRevokeMessage } from '@servicedesk/core';
import { PermanentSendError, type Connector, type ConnectorListener, type ConnectorSession } from './ports.js';

export interface RuntimeLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface ChannelRuntimeOptions {
  readonly broker: Broker;
  readonly connectors: readonly Connector[];
  readonly logger: RuntimeLogger;
  /** Deliveries of a session-control or edit command before it is given up. */
  readonly maxSendAttempts?: number;
  /**
   * How long after it was accepted a send keeps being retried — waiting for its session to be
   * (re)started, or through transient connector errors — before it fails with the last reason.
   */
  readonly sendDeadlineMs?: number;
  readonly retryDelayMs?: number;
  readonly now?: () => Date;
  /** Answers questions about a session while this runtime holds it (number checks across processes). */
  readonly queries?: {
    attach(chatappId: number, checkNumber: ConnectorSession['checkNumber'], more?: Pick<ConnectorSession, 'contacts' | 'profile'>): () => void;
  };
}

/**
 * The channel component: takes session-control and send commands from the broker, drives the
 * connector sessions, and publishes what happens (sent, failed, delivery, inbound, session
 * status) as events. Every event id is derived from what it reports, so a redelivered command
 * never produces a second distinct event.
 */
export class ChannelRuntime {
  private readonly sessions = new Map<number, { session: ConnectorSession; companyId: number; provider: ConnectionProvider; detach: () => void }>();
  private readonly subscriptions: BrokerSubscription[] = [];
  private eventCounter = 0;
  /** Unique per start, so each start's RuntimeOnline event is a distinct broker message. */
  private readonly runtimeId = `${process.pid}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
  /** Our message ids of recent sends by provider id, so that delivery events name the message. */
  private readonly sentIds = new Map<string, string>();
  private readonly seenAt = new Map<string, number>();

  constructor(private readonly o: ChannelRuntimeOptions) {}

  async start(): Promise<void> {
    const { broker } = this.o;
    const options = { maxDeliver: this.o.maxSendAttempts ?? 5, retryDelayMs: this.o.retryDelayMs ?? 500 };
    // Sends are bounded by their deadline, not by a count of deliveries.
    const sendOptions = { maxDeliver: 1_000_000, retryDelayMs: this.o.retryDelayMs ?? 1000 };
    this.subscriptions.push(
      await broker.subscribe('channel-runtime-control', 'cmd.session.control.>', (e) => this.control(e.payload as SessionControl), options),
      await broker.subscribe('channel-runtime-session-send', 'cmd.session.send.>', (e) => this.send(e.payload as SessionSendMessage), sendOptions),
      await broker.subscribe('channel-runtime-social-send', 'cmd.social.send.>', (e) => this.send(e.payload as SocialSendMessage), sendOptions),
    );
    this.subscriptions.push(
      await broker.subscribe('channel-runtime-session-edit', 'cmd.session.edit.>', (e, info) => this.change(e.payload as SessionEditMessage, info), options),
      await broker.subscribe('channel-runtime-session-revoke', 'cmd.session.revoke.>', (e, info) => this.change(e.payload as SessionRevokeMessage, info), options),
    );
    this.o.logger.info({ connectors: this.o.connectors.flatMap((c) => c.providers) }, 'channel runtime consuming commands');
    // Ask the backend for the sessions to hold: a restarted runtime starts with none.
    const at = this.now().toISOString();
    await broker.publish({ id: `runtime-online:${this.runtimeId}`, subject: SUBJECTS.runtimeOnline, payload: { type: 'RuntimeOnline', runtimeId: this.runtimeId, at } satisfies ChannelEvent });
  }

  async stop(): Promise<void> {
    for (const s of this.subscriptions.splice(0)) await s.stop();
    for (const { session, detach } of this.sessions.values()) {
      detach();
      await session.stop({ logout: false }).catch(() => undefined);
    }
    this.sessions.clear();
  }

  /** Connected sessions by connection id (for the check command and tests). */
  session(chatappId: number): ConnectorSession | undefined {
    return this.sessions.get(chatappId)?.session;
  }

  private now() { return (this.o.now ?? (() => new Date()))(); }

  private publish(id: string, subject: string, event: ChannelEvent) {
    return this.o.broker.publish({ id, subject, payload: event });
  }

  private async control(cmd: SessionControl): Promise<void> {
    const existing = this.sessions.get(cmd.chatappId);
    if (existing && (cmd.action === 'restart' || cmd.action === 'logout' || cmd.action === 'start')) {
      this.sessions.delete(cmd.chatappId);
      existing.detach();
      await existing.session.stop({ logout: cmd.action === 'logout' }).catch(() => undefined);
    }
    if (cmd.action === 'logout') {
      await this.publishStatus(cmd, 'DISCONNECTED', null);
      return;
    }
    const connector = this.o.connectors.find((c) => c.providers.includes(cmd.provider));
    if (!connector) {
      this.o.logger.warn({ chatappId: cmd.chatappId, provider: cmd.provider }, 'no connector for provider');
      await this.publishStatus(cmd, 'DISCONNECTED', null);
      return;
    }
    await this.publishStatus(cmd, 'OPENING', null);
    const session = await connector.start(cmd, this.listenerFor(cmd));
    const more = {
      ...(session.contacts ? { contacts: () => session.contacts!() } : {}),
      ...(session.profile ? { profile: (number: string) => session.profile!(number) } : {}),
    };
    const detach = this.o.queries?.attach(cmd.chatappId, (number) => session.checkNumber(number), more) ?? (() => undefined);
    this.sessions.set(cmd.chatappId, { session, companyId: cmd.companyId, provider: cmd.provider, detach });
  }

  private publishStatus(cmd: { chatappId: number; companyId: number }, status: Parameters<ConnectorListener['status']>[0], qrcode: string | null) {
    return this.publish(`session:${cmd.chatappId}:${Date.now()}:${++this.eventCounter}`, SUBJECTS.sessionStatus, {
      type: 'SessionStatusChanged', companyId: cmd.companyId, chatappId: cmd.chatappId, status, qrcode, at: this.now().toISOString(),
    });
  }

  private listenerFor(cmd: SessionControl): ConnectorListener {
    const { companyId, chatappId } = cmd;
    const report = (p: Promise<void>) => p.catch((err) => this.o.logger.error({ err, chatappId }, 'could not publish a channel event'));
    return {
      status: (status, qrcode) => { void report(this.publishStatus(cmd, status, qrcode)); },
      inbound: (m) => {
        void report(this.publish(`inbound:${chatappId}:${m.providerMessageId}`, SUBJECTS.inbound(inboundShard(chatappId, m.from)), {
          type: 'InboundMessage', companyId, chatappId, providerMessageId: m.providerMessageId, from: m.from, senderName: m.senderName,
          body: m.body, isGroup: m.isGroup, at: m.at.toISOString(),
        }));
      },
      delivery: (providerMessageId, status) => {
        const messageId = this.sentIds.get(`${chatappId}:${providerMessageId}`);
        void report(this.publish(`status:${chatappId}:${providerMessageId}:${status}`, SUBJECTS.messageStatus, {
          type: 'MessageStatusChanged', companyId, chatappId, providerMessageId, status, at: this.now().toISOString(),
          ...(messageId ? { messageId } : {}),
        }));
      },
    };
  }

  /**
   * SessionSendMessage / SocialSendMessage: validate the connection and its session, send, and
   * report `…MessageSent`; a refusal or the last failed attempt reports `…MessageFailed`.
   */
  private async send(cmd: SessionSendMessage | SocialSendMessage): Promise<void> {
    const social = cmd.type === 'SocialSendMessage';
    const fail = (reason: string) => this.publish(`failed:${cmd.messageId}`, SUBJECTS.messageFailed, {
      type: social ? 'SocialMessageFailed' : 'SessionMessageFailed', messageId: cmd.messageId, companyId: cmd.companyId,
      chatappId: cmd.chatappId, reason, at: this.now().toISOString(),
    });
    if (!Number.isInteger(cmd.chatappId) || cmd.chatappId <= 0) return fail('ERR_INVALID_CHATAPP_ID');
    if (!cmd.to || !Number.isInteger(cmd.ticketId)) return fail('ERR_INVALID_TICKET_DATA');
    // Until the deadline, a missing session or a transient error means "later": the broker redelivers.
    const issuedAt = Date.parse(cmd.issuedAt ?? '') || this.firstSeen(cmd.messageId);
    const expired = this.now().getTime() - issuedAt >= (this.o.sendDeadlineMs ?? 60_000);
    const later = (reason: string) => (expired ? fail(reason) : Promise.reject(new Error(`retry later: ${reason}`)));
    const entry = this.sessions.get(cmd.chatappId);
    if (!entry || entry.companyId !== cmd.companyId) return later('ERR_SESSION_NOT_FOUND');
    if (entry.session.status() !== 'CONNECTED') return later('ERR_SESSION_NOT_CONNECTED');
    if (social !== ['messenger', 'instagram'].includes(entry.provider) && entry.provider !== 'sandbox') return fail('ERR_WRONG_CHANNEL');
    let providerMessageId: string;
    try {
      ({ providerMessageId } = await entry.session.send(cmd.to, cmd.content, { idempotencyKey: cmd.messageId }));
    } catch (err) {
      if (err instanceof PermanentSendError) return fail(err.reason);
      return later(`ERR_SEND_FAILED: ${(err as Error).message}`);
    }
    this.rememberSent(cmd.chatappId, providerMessageId, cmd.messageId);
    await this.publish(`sent:${cmd.messageId}`, SUBJECTS.messageSent, {
      type: social ? 'SocialMessageSent' : 'SessionMessageSent', messageId: cmd.messageId, companyId: cmd.companyId,
      chatappId: cmd.chatappId, providerMessageId, at: this.now().toISOString(),
    });
  }

  /**
   * SessionEditMessage / SessionRevokeMessage: change or delete, at the provider, a message the
   * session sent. The backend already shows the change; one the provider cannot make (no session,
   * a connector without edit/revoke, a refusal, the last failed attempt) is logged and dropped.
   */
  private async change(cmd: SessionEditMessage | SessionRevokeMessage, info: DeliveryInfo): Promise<void> {
    const what = cmd.type === 'SessionEditMessage' ? 'edit' : 'revoke';
    const drop = (reason: string, err?: unknown) => this.o.logger.warn({ err, chatappId: cmd.chatappId, messageId: cmd.messageId, reason }, `message ${what} dropped`);
    const entry = this.sessions.get(cmd.chatappId);
    if (!entry || entry.companyId !== cmd.companyId) return drop('ERR_SESSION_NOT_FOUND');
    if (entry.session.status() !== 'CONNECTED') return drop('ERR_SESSION_NOT_CONNECTED');
    const { session } = entry;
    try {
      if (cmd.type === 'SessionEditMessage') {
        if (!session.edit) return drop('ERR_EDIT_NOT_SUPPORTED');
        await session.edit(cmd.to, cmd.providerMessageId, cmd.body);
      } else {
        if (!session.revoke) return drop('ERR_REVOKE_NOT_SUPPORTED');
        await session.revoke(cmd.to, cmd.providerMessageId);
      }
    } catch (err) {
      if (err instanceof PermanentSendError) return drop(err.reason);
      if (info.deliveryCount >= (this.o.maxSendAttempts ?? 5)) return drop('ERR_GIVEN_UP', err);
      throw err;
    }
  }

  /** When this runtime first saw a command that carries no acceptance time. */
  private firstSeen(messageId: string): number {
    let at = this.seenAt.get(messageId);
    if (at === undefined) {
      at = this.now().getTime();
      this.seenAt.set(messageId, at);
      if (this.seenAt.size > 10_000) this.seenAt.delete(this.seenAt.keys().next().value!);
    }
    return at;
  }

  private rememberSent(chatappId: number, providerMessageId: string, messageId: string) {
    this.sentIds.set(`${chatappId}:${providerMessageId}`, messageId);
    if (this.sentIds.size > 10_000) this.sentIds.delete(this.sentIds.keys().next().value!);
  }
}
