import {
  inboundShard,
  SUBJECTS,
  type Broker,
  type BrokerEnvelope,
  type BrokerSubscription,
  type ChannelEvent,
  type ConnectionProvider,
  type DeliveryInfo,
  type SessionControl,
  type SessionSendMessage,
  type SocialSendMessage,
} from '@servicedesk/core';
import type { SessionEditMessage, SessionRevokeMessage } from '@servicedesk/core';
import { PermanentSendError, type Connector, type ConnectorListener, type ConnectorSession } from './ports.js';
import { InMemorySessionRegistry, type DesiredSession, type SessionRegistry } from './ownership/session-registry.js';

/** What arrives on a connection's own command subject (`cmd.<kind>.<verb>.<chatappId>`). */
type ConnectionCommand = SessionSendMessage | SocialSendMessage | SessionEditMessage | SessionRevokeMessage | SessionControl;

export interface RuntimeLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface ChannelRuntimeOptions {
  readonly broker: Broker;
  /**
   * Where inbound messages go when `broker` keeps nothing across a crash (the in-process one of the
   * embedded backend): written durably (the backend's outbox, relayed to the inbound subjects)
   * before a connector is told they were taken. Absent, they are published to `broker`, whose
   * acknowledgement (JetStream's, a file-backed stream) is that durability.
   */
  readonly recordInbound?: (events: readonly BrokerEnvelope[]) => Promise<void>;
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
  /**
   * Which sessions should run and which instance owns each: shared by every instance (the
   * database's, when several run). Default: in this process only (one instance).
   */
  readonly registry?: SessionRegistry;
  /** How long a session stays ours after our last renewal: a dead instance's sessions are free after this. */
  readonly leaseTtlMs?: number;
  /** How often leases are renewed, changes applied and free sessions claimed. */
  readonly syncIntervalMs?: number;
  /** This instance's name in the leases (default: unique per start). */
  readonly instanceId?: string;
}

export const DEFAULT_LEASE_TTL_MS = 15_000;
export const DEFAULT_SYNC_INTERVAL_MS = 2_000;

interface HeldSession {
  session: ConnectorSession;
  companyId: number;
  provider: ConnectionProvider;
  detach: () => void;
  /** The registry generation this session runs. */
  generation: number;
  /** The connection's own command consumer (sends, edits, revokes): only the owner reads it. */
  commands: BrokerSubscription | null;
}

/**
 * The channel component: takes session-control and send commands from the broker, drives the
 * connector sessions, and publishes what happens (sent, failed, delivery, inbound, session
 * status) as events. Every event id is derived from what it reports, so a redelivered command
 * never produces a second distinct event.
 */
export class ChannelRuntime {
  private readonly sessions = new Map<number, HeldSession>();
  private readonly subscriptions: BrokerSubscription[] = [];
  private eventCounter = 0;
  /** Unique per start, so each start's RuntimeOnline event is a distinct broker message. */
  private readonly runtimeId = `${process.pid}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
  /** Our message ids of recent sends by provider id, so that delivery events name the message. */
  private readonly sentIds = new Map<string, string>();
  private readonly seenAt = new Map<string, number>();
  private readonly registry: SessionRegistry;
  private readonly leaseTtlMs: number;
  /** Work on one session (take, apply, drop) runs one at a time. */
  private readonly queues = new Map<number, Promise<void>>();
  private syncTimer: NodeJS.Timeout | null = null;
  private syncing: Promise<void> | null = null;
  private lastRenewal = Date.now();
  private running = false;

  constructor(private readonly o: ChannelRuntimeOptions) {
    this.registry = o.registry ?? new InMemorySessionRegistry();
    this.leaseTtlMs = o.leaseTtlMs ?? DEFAULT_LEASE_TTL_MS;
  }

  /** This instance's name in the session leases. */
  get instanceId(): string {
    return this.o.instanceId ?? this.runtimeId;
  }

  /** The connection ids whose sessions this instance holds. */
  heldSessions(): number[] {
    return [...this.sessions.keys()].sort((a, b) => a - b);
  }

  async start(): Promise<void> {
    const { broker } = this.o;
    this.running = true;
    const options = { maxDeliver: this.o.maxSendAttempts ?? 5, retryDelayMs: this.o.retryDelayMs ?? 500 };
    // Control commands go to any instance: it records what should run and takes the session if free.
    this.subscriptions.push(
      await broker.subscribe('channel-runtime-control', 'cmd.session.control.>', (e) => this.control(e.payload as SessionControl), options),
    );
    this.o.logger.info({ instance: this.instanceId, connectors: this.o.connectors.flatMap((c) => c.providers) }, 'channel runtime consuming commands');
    await this.sync();
    this.syncTimer = setInterval(() => {
      void this.sync();
    }, this.o.syncIntervalMs ?? DEFAULT_SYNC_INTERVAL_MS);
    this.syncTimer.unref();
    // Ask the backend for the sessions to hold: the first instance to start finds none recorded.
    const at = this.now().toISOString();
    await broker.publish({
      id: `runtime-online:${this.runtimeId}`,
      subject: SUBJECTS.runtimeOnline,
      payload: { type: 'RuntimeOnline', runtimeId: this.runtimeId, at } satisfies ChannelEvent,
    });
  }

  /** Stops consuming, stops every session and hands its lease back, so another instance takes it at once. */
  async stop(): Promise<void> {
    this.running = false;
    if (this.syncTimer) clearInterval(this.syncTimer);
    this.syncTimer = null;
    await this.syncing;
    for (const s of this.subscriptions.splice(0)) await s.stop();
    await Promise.all([...this.sessions.keys()].map((id) => this.serial(id, () => this.drop(id, { release: true }))));
  }

  /** Connected sessions by connection id (for the check command and tests). */
  session(chatappId: number): ConnectorSession | undefined {
    return this.sessions.get(chatappId)?.session;
  }

  private now() {
    return (this.o.now ?? (() => new Date()))();
  }

  private publish(id: string, subject: string, event: ChannelEvent) {
    return this.o.broker.publish({ id, subject, payload: event });
  }

  /** A control command, on whichever instance received it. */
  private async control(cmd: SessionControl): Promise<void> {
    const { desired, changed } = await this.registry.record(cmd);
    await this.serial(cmd.chatappId, async () => {
      const held = this.sessions.get(cmd.chatappId);
      if (held) {
        if (changed) await this.apply(desired);
        return;
      }
      // A logout, or a provider this instance cannot run: if nobody holds the session, it is down
      // (reported here); an owner elsewhere applies the logout itself at its next sync.
      if (!desired.running || !this.connectorFor(cmd.provider)) {
        if (desired.running) this.o.logger.warn({ chatappId: cmd.chatappId, provider: cmd.provider }, 'no connector for provider');
        if (!(await this.registry.owner(cmd.chatappId))) await this.publishStatus(cmd, 'DISCONNECTED', null);
        return;
      }
      if (await this.registry.acquire(cmd.chatappId, this.instanceId, this.leaseTtlMs)) await this.take(desired);
    });
  }

  /**
   * Every `syncIntervalMs`: renew our leases (a lease we lost means another instance owns the
   * session now: stop ours), apply what changed on sessions we hold, and claim our share of the
   * sessions nobody holds (never started, or left by an instance that died).
   */
  private sync(): Promise<void> {
    this.syncing ??= this.syncOnce()
      .catch((err) => this.o.logger.error({ err }, 'session sync failed'))
      .finally(() => {
        this.syncing = null;
      });
    return this.syncing;
  }

  private async syncOnce(): Promise<void> {
    if (!this.running) return;
    let held: DesiredSession[];
    try {
      held = await this.registry.renew(this.instanceId, this.leaseTtlMs);
      this.lastRenewal = Date.now();
    } catch (err) {
      // Cut off from the registry: before our leases may lapse (and another instance may take the
      // sessions), stop them here; the margin covers the sync that would notice too late.
      this.o.logger.warn({ err }, 'could not renew session leases');
      const margin = Math.min(2 * (this.o.syncIntervalMs ?? DEFAULT_SYNC_INTERVAL_MS), this.leaseTtlMs / 2);
      if (Date.now() - this.lastRenewal >= this.leaseTtlMs - margin) {
        await Promise.all([...this.sessions.keys()].map((id) => this.serial(id, () => this.drop(id, { release: false }))));
      }
      return;
    }
    const holding = new Map(held.map((d) => [d.chatappId, d]));
    for (const id of [...this.sessions.keys()]) {
      if (!holding.has(id)) {
        this.o.logger.warn({ chatappId: id }, 'session lease lost: another instance owns it now');
        await this.serial(id, () => this.drop(id, { release: false }));
      }
    }
    for (const d of held) {
      await this.serial(d.chatappId, async () => {
        const local = this.sessions.get(d.chatappId);
        if (!local) await (d.running ? this.take(d) : this.registry.release(d.chatappId, this.instanceId));
        else if (d.generation > local.generation) await this.apply(d);
        else if (!local.commands) await this.consume(d.chatappId);
      });
    }
    if (!this.running) return;
    const free = (await this.registry.unowned(200)).filter((d) => this.connectorFor(d.command.provider));
    if (!free.length) return;
    // Share what is free with the other live instances: each claims about its part per round.
    const instances = (await this.registry.liveOwners()) + (this.sessions.size ? 0 : 1);
    for (const d of free.slice(0, Math.ceil(free.length / Math.max(1, instances)))) {
      await this.serial(d.chatappId, async () => {
        if (this.running && !this.sessions.has(d.chatappId) && (await this.registry.acquire(d.chatappId, this.instanceId, this.leaseTtlMs))) await this.take(d);
      });
    }
  }

  /** Starts a session we now hold and begins reading its connection's commands. */
  private async take(d: DesiredSession): Promise<void> {
    try {
      await this.startSession(d);
    } catch (err) {
      this.o.logger.error({ err, chatappId: d.chatappId }, 'could not start the session; handing it back');
      await this.registry.release(d.chatappId, this.instanceId).catch(() => undefined);
      return;
    }
    await this.consume(d.chatappId);
    this.o.logger.info({ chatappId: d.chatappId, instance: this.instanceId, generation: d.generation }, 'session taken');
  }

  /** Starts reading the connection's commands (again at the next sync if the broker refused). */
  private async consume(chatappId: number): Promise<void> {
    const held = this.sessions.get(chatappId);
    if (!held || held.commands) return;
    const sendOptions = { maxDeliver: 1_000_000, retryDelayMs: this.o.retryDelayMs ?? 1000 };
    try {
      held.commands = await this.o.broker.subscribe(
        `channel-runtime-conn-${chatappId}`,
        `cmd.*.*.${chatappId}`,
        (e, info) => this.command(e.payload as ConnectionCommand, info),
        sendOptions,
      );
    } catch (err) {
      this.o.logger.warn({ err, chatappId }, "could not consume the connection's commands yet; will retry");
    }
  }

  /** A newer generation of a session we hold: a logout ends it here; anything else restarts it as described. */
  private async apply(d: DesiredSession): Promise<void> {
    if (!d.running) {
      await this.drop(d.chatappId, { release: true, logout: true });
      await this.publishStatus(d.command, 'DISCONNECTED', null);
      return;
    }
    // The connection's command consumer stays: its sends wait (and are retried) through the restart.
    const commands = (await this.stopSession(d.chatappId, false))?.commands ?? null;
    try {
      await this.startSession(d);
    } catch (err) {
      this.o.logger.error({ err, chatappId: d.chatappId }, 'could not restart the session; handing it back');
      await commands?.stop();
      await this.registry.release(d.chatappId, this.instanceId).catch(() => undefined);
      return;
    }
    const now = this.sessions.get(d.chatappId);
    if (now) now.commands = commands;
    else await commands?.stop();
  }

  /** Stops a session here: its commands stay in the broker for the next owner. */
  private async drop(chatappId: number, o: { release: boolean; logout?: boolean }): Promise<void> {
    // Commands first, so that none is handed to a session being stopped.
    await this.sessions.get(chatappId)?.commands?.stop();
    await this.stopSession(chatappId, o.logout ?? false);
    if (o.release) await this.registry.release(chatappId, this.instanceId).catch(() => undefined);
  }

  /** Stops the connector session held here, if any, and answers what was held. */
  private async stopSession(chatappId: number, logout: boolean): Promise<HeldSession | undefined> {
    const held = this.sessions.get(chatappId);
    if (!held) return undefined;
    this.sessions.delete(chatappId);
    held.detach();
    await held.session.stop({ logout }).catch(() => undefined);
    return held;
  }

  private async startSession(d: DesiredSession): Promise<void> {
    const cmd = d.command;
    const connector = this.connectorFor(cmd.provider);
    if (!connector) {
      await this.publishStatus(cmd, 'DISCONNECTED', null);
      throw new Error(`no connector for provider ${cmd.provider}`);
    }
    await this.publishStatus(cmd, 'OPENING', null);
    const session = await connector.start(cmd, this.listenerFor(cmd));
    const more = {
      ...(session.contacts ? { contacts: () => session.contacts!() } : {}),
      ...(session.profile ? { profile: (number: string) => session.profile!(number) } : {}),
    };
    const detach = this.o.queries?.attach(cmd.chatappId, (number) => session.checkNumber(number), more) ?? (() => undefined);
    this.sessions.set(cmd.chatappId, { session, companyId: cmd.companyId, provider: cmd.provider, detach, generation: d.generation, commands: null });
  }

  private connectorFor(provider: ConnectionProvider): Connector | undefined {
    return this.o.connectors.find((c) => c.providers.includes(provider));
  }

  /** A command read from the connection's own consumer. Control commands there are the control consumer's. */
  private async command(cmd: ConnectionCommand, info: DeliveryInfo): Promise<void> {
    switch (cmd.type) {
      case 'SessionSendMessage':
      case 'SocialSendMessage':
        return this.send(cmd);
      case 'SessionEditMessage':
      case 'SessionRevokeMessage':
        return this.change(cmd, info);
      default:
        return;
    }
  }

  private serial(chatappId: number, work: () => Promise<void>): Promise<void> {
    const previous = this.queues.get(chatappId) ?? Promise.resolve();
    const next = previous.then(work, work);
    const settled = next.catch((err) => {
      this.o.logger.error({ err, chatappId }, 'session work failed');
    });
    this.queues.set(chatappId, settled);
    void settled.finally(() => {
      if (this.queues.get(chatappId) === settled) this.queues.delete(chatappId);
    });
    return next;
  }

  private publishStatus(
    cmd: { chatappId: number; companyId: number },
    status: Parameters<ConnectorListener['status']>[0],
    qrcode: string | null,
    pairingCode: string | null = null,
  ) {
    return this.publish(`session:${cmd.chatappId}:${Date.now()}:${++this.eventCounter}`, SUBJECTS.sessionStatus, {
      type: 'SessionStatusChanged',
      companyId: cmd.companyId,
      chatappId: cmd.chatappId,
      status,
      qrcode,
      ...(pairingCode ? { pairingCode } : {}),
      at: this.now().toISOString(),
    });
  }

  private listenerFor(cmd: SessionControl): ConnectorListener {
    const { companyId, chatappId } = cmd;
    const report = (p: Promise<void>) => p.catch((err) => this.o.logger.error({ err, chatappId }, 'could not publish a channel event'));
    return {
      status: (status, qrcode, pairingCode) => {
        void report(this.publishStatus(cmd, status, qrcode, pairingCode ?? null));
      },
      inbound: (m) => {
        const envelope = {
          id: `inbound:${chatappId}:${m.providerMessageId}`,
          subject: SUBJECTS.inbound(inboundShard(chatappId, m.from)),
          payload: {
            type: 'InboundMessage',
            companyId,
            chatappId,
            providerMessageId: m.providerMessageId,
            from: m.from,
            senderName: m.senderName,
            body: m.body,
            isGroup: m.isGroup,
            at: m.at.toISOString(),
            ...(m.location ? { location: m.location } : {}),
            ...(m.contacts ? { contacts: m.contacts } : {}),
            ...(m.media ? { media: m.media } : {}),
          } satisfies ChannelEvent,
        };
        const taken = this.o.recordInbound ? this.o.recordInbound([envelope]) : this.o.broker.publish(envelope);
        // Logged here; the connector that awaits `taken` also sees the failure, one that does not has nothing to handle.
        void report(taken);
        return taken;
      },
      presence: (from, state) => {
        // Straight to the broker, never through `recordInbound` (the outbox): nothing to keep.
        void report(
          this.publish(`presence:${chatappId}:${from}:${Date.now()}:${++this.eventCounter}`, SUBJECTS.contactPresence, {
            type: 'ContactPresence',
            companyId,
            chatappId,
            from,
            state,
            at: this.now().toISOString(),
          }),
        );
      },
      delivery: (providerMessageId, status) => {
        const messageId = this.sentIds.get(`${chatappId}:${providerMessageId}`);
        void report(
          this.publish(`status:${chatappId}:${providerMessageId}:${status}`, SUBJECTS.messageStatus, {
            type: 'MessageStatusChanged',
            companyId,
            chatappId,
            providerMessageId,
            status,
            at: this.now().toISOString(),
            ...(messageId ? { messageId } : {}),
          }),
        );
      },
    };
  }

  /**
   * SessionSendMessage / SocialSendMessage: validate the connection and its session, send, and
   * report `…MessageSent`; a refusal or the last failed attempt reports `…MessageFailed`.
   */
  private async send(cmd: SessionSendMessage | SocialSendMessage): Promise<void> {
    const social = cmd.type === 'SocialSendMessage';
    const fail = (reason: string) =>
      this.publish(`failed:${cmd.messageId}`, SUBJECTS.messageFailed, {
        type: social ? 'SocialMessageFailed' : 'SessionMessageFailed',
        messageId: cmd.messageId,
        companyId: cmd.companyId,
        chatappId: cmd.chatappId,
        reason,
        at: this.now().toISOString(),
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
    // Past the deadline the backend may already show the send as failed: never send it then.
    if (expired) return fail('ERR_SEND_DEADLINE_EXCEEDED');
    if (social !== ['messenger', 'instagram'].includes(entry.provider) && entry.provider !== 'sandbox') return fail('ERR_WRONG_CHANNEL');
    let result: Awaited<ReturnType<ConnectorSession['send']>>;
    try {
      result = await entry.session.send(cmd.to, cmd.content, { idempotencyKey: cmd.messageId });
    } catch (err) {
      if (err instanceof PermanentSendError) return fail(err.reason);
      return later(`ERR_SEND_FAILED: ${(err as Error).message}`);
    }
    const { providerMessageId } = result;
    this.rememberSent(cmd.chatappId, providerMessageId, cmd.messageId);
    const sent = this.publish(`sent:${cmd.messageId}`, SUBJECTS.messageSent, {
      type: social ? 'SocialMessageSent' : 'SessionMessageSent',
      messageId: cmd.messageId,
      companyId: cmd.companyId,
      chatappId: cmd.chatappId,
      providerMessageId,
      at: this.now().toISOString(),
    });
    // What the provider answered at once goes out behind `sent` and ahead of the command's
    // acknowledgement (one connection keeps that order), so no crash can leave it unreported; an
    // inbound reply among it is taken (recorded) before the acknowledgement too.
    await Promise.all([sent, result.reports?.()]);
  }

  /**
   * SessionEditMessage / SessionRevokeMessage: change or delete, at the provider, a message the
   * session sent. The backend already shows the change; one the provider cannot make (no session,
   * a connector without edit/revoke, a refusal, the last failed attempt) is logged and dropped.
   */
  private async change(cmd: SessionEditMessage | SessionRevokeMessage, info: DeliveryInfo): Promise<void> {
    const what = cmd.type === 'SessionEditMessage' ? 'edit' : 'revoke';
    const drop = (reason: string, err?: unknown) =>
      this.o.logger.warn({ err, chatappId: cmd.chatappId, messageId: cmd.messageId, reason }, `message ${what} dropped`);
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
