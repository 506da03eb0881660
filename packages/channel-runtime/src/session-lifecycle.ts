import type { BrokerSubscription, ConnectionProvider, DeliveryInfo, SessionControl } from '@servicedesk/core';
import type { Connector, ConnectorSession } from './ports.js';
import { InMemorySessionRegistry, type DesiredSession, type SessionRegistry } from './ownership/session-registry.js';
import type { ChannelEvents } from './channel-events.js';
import { DEFAULT_LEASE_TTL_MS, DEFAULT_SYNC_INTERVAL_MS, type ChannelRuntimeOptions } from './runtime-options.js';

/** A connector session this instance runs. */
export interface HeldSession {
  session: ConnectorSession;
  companyId: number;
  provider: ConnectionProvider;
  detach: () => void;
  /**
   * Stops passing the session's status reports on: a restart stops the old session (whose
   * connector then reports `DISCONNECTED`) only to start the new one, and that passing report
   * would tell the operators, and the backend's coalescing of restarts, that the session went down.
   */
  silence: () => void;
  /** The registry generation this session runs. */
  generation: number;
  /** The connection's own command consumer (sends, edits, revokes): only the owner reads it. */
  commands: BrokerSubscription | null;
}

/** Reads one command from a connection's own subject. */
export type ConnectionCommandHandler = (payload: unknown, info: DeliveryInfo) => Promise<void>;

type LifecycleOptions = Pick<
  ChannelRuntimeOptions,
  'broker' | 'connectors' | 'logger' | 'retryDelayMs' | 'queries' | 'registry' | 'leaseTtlMs' | 'syncIntervalMs'
>;

/**
 * Which sessions this instance runs: session-control commands, the shared registry's leases (renewed,
 * lost, claimed), and each held session's start, restart and stop, one at a time per connection.
 * While it holds a session it reads that connection's commands and hands them to `onCommand`.
 */
export class SessionLifecycle {
  private readonly sessions = new Map<number, HeldSession>();
  private readonly registry: SessionRegistry;
  private readonly leaseTtlMs: number;
  /** Work on one session (take, apply, drop) runs one at a time. */
  private readonly queues = new Map<number, Promise<void>>();
  private syncTimer: NodeJS.Timeout | null = null;
  private syncing: Promise<void> | null = null;
  private lastRenewal = Date.now();
  private running = false;

  constructor(
    private readonly o: LifecycleOptions,
    private readonly instanceId: string,
    private readonly events: ChannelEvents,
    private readonly onCommand: ConnectionCommandHandler,
  ) {
    this.registry = o.registry ?? new InMemorySessionRegistry();
    this.leaseTtlMs = o.leaseTtlMs ?? DEFAULT_LEASE_TTL_MS;
  }

  /** The session held here for a connection, if any. */
  held(chatappId: number): HeldSession | undefined {
    return this.sessions.get(chatappId);
  }

  /** The connection ids whose sessions this instance holds. */
  heldIds(): number[] {
    return [...this.sessions.keys()].sort((a, b) => a - b);
  }

  /** Takes what this instance should hold now, then keeps syncing every `syncIntervalMs`. */
  async start(): Promise<void> {
    this.running = true;
    await this.sync();
    this.syncTimer = setInterval(() => {
      void this.sync();
    }, this.o.syncIntervalMs ?? DEFAULT_SYNC_INTERVAL_MS);
    this.syncTimer.unref();
  }

  /** Stops syncing; waits for a sync under way. */
  async halt(): Promise<void> {
    this.running = false;
    if (this.syncTimer) clearInterval(this.syncTimer);
    this.syncTimer = null;
    await this.syncing;
  }

  /** Stops every session held here and hands its lease back, so another instance takes it at once. */
  async releaseAll(): Promise<void> {
    await Promise.all([...this.sessions.keys()].map((id) => this.serial(id, () => this.drop(id, { release: true }))));
  }

  /** A control command, on whichever instance received it. */
  async control(cmd: SessionControl): Promise<void> {
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
        if (!(await this.registry.owner(cmd.chatappId))) await this.events.status(cmd, 'DISCONNECTED', null);
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
        (e, info) => this.onCommand(e.payload, info),
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
      await this.events.status(d.command, 'DISCONNECTED', null);
      return;
    }
    // The connection's command consumer stays: its sends wait (and are retried) through the restart.
    this.sessions.get(d.chatappId)?.silence();
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
      await this.events.status(cmd, 'DISCONNECTED', null);
      throw new Error(`no connector for provider ${cmd.provider}`);
    }
    await this.events.status(cmd, 'OPENING', null);
    const listener = this.events.listenerFor(cmd);
    let silenced = false;
    const session = await connector.start(cmd, {
      ...listener,
      status: (status, qrcode, pairingCode) => {
        if (!silenced) listener.status(status, qrcode, pairingCode);
      },
    });
    const more = {
      ...(session.contacts ? { contacts: () => session.contacts!() } : {}),
      ...(session.profile ? { profile: (number: string) => session.profile!(number) } : {}),
    };
    const detach = this.o.queries?.attach(cmd.chatappId, (number) => session.checkNumber(number), more) ?? (() => undefined);
    this.sessions.set(cmd.chatappId, {
      session,
      companyId: cmd.companyId,
      provider: cmd.provider,
      detach,
      silence: () => {
        silenced = true;
      },
      generation: d.generation,
      commands: null,
    });
  }

  private connectorFor(provider: ConnectionProvider): Connector | undefined {
    return this.o.connectors.find((c) => c.providers.includes(provider));
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
}
