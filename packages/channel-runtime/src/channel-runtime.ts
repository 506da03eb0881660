import type { BrokerSubscription, SessionControl } from '@servicedesk/core';
import type { ConnectorSession } from './ports.js';
import { ChannelEvents } from './channel-events.js';
import { ConnectionCommands, type ConnectionCommand } from './connection-commands.js';
import { SessionLifecycle } from './session-lifecycle.js';
import type { ChannelRuntimeOptions } from './runtime-options.js';

export { DEFAULT_LEASE_TTL_MS, DEFAULT_SYNC_INTERVAL_MS, type ChannelRuntimeOptions, type RuntimeLogger } from './runtime-options.js';

/**
 * The channel component: takes session-control and send commands from the broker, drives the
 * connector sessions, and publishes what happens (sent, failed, delivery, inbound, session
 * status) as events. Its parts: which sessions run here (SessionLifecycle), a connection's own
 * commands (ConnectionCommands) and what is published (ChannelEvents).
 */
export class ChannelRuntime {
  private readonly subscriptions: BrokerSubscription[] = [];
  /** Unique per start, so each start's RuntimeOnline event is a distinct broker message. */
  private readonly runtimeId = `${process.pid}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
  private readonly events: ChannelEvents;
  private readonly lifecycle: SessionLifecycle;

  constructor(private readonly o: ChannelRuntimeOptions) {
    this.events = new ChannelEvents(o);
    const commands = new ConnectionCommands(o, (chatappId) => this.lifecycle.held(chatappId), this.events);
    this.lifecycle = new SessionLifecycle(o, this.instanceId, this.events, (payload, info) => commands.command(payload as ConnectionCommand, info));
  }

  /** This instance's name in the session leases. */
  get instanceId(): string {
    return this.o.instanceId ?? this.runtimeId;
  }

  /** The connection ids whose sessions this instance holds. */
  heldSessions(): number[] {
    return this.lifecycle.heldIds();
  }

  async start(): Promise<void> {
    const { broker } = this.o;
    const options = { maxDeliver: this.o.maxSendAttempts ?? 5, retryDelayMs: this.o.retryDelayMs ?? 500 };
    // Control commands go to any instance: it records what should run and takes the session if free.
    this.subscriptions.push(
      await broker.subscribe('channel-runtime-control', 'cmd.session.control.>', (e) => this.lifecycle.control(e.payload as SessionControl), options),
    );
    this.o.logger.info({ instance: this.instanceId, connectors: this.o.connectors.flatMap((c) => c.providers) }, 'channel runtime consuming commands');
    await this.lifecycle.start();
    await this.events.online(this.runtimeId);
  }

  /** Stops consuming, stops every session and hands its lease back, so another instance takes it at once. */
  async stop(): Promise<void> {
    await this.lifecycle.halt();
    for (const s of this.subscriptions.splice(0)) await s.stop();
    await this.lifecycle.releaseAll();
  }

  /** Connected sessions by connection id (for the check command and tests). */
  session(chatappId: number): ConnectorSession | undefined {
    return this.lifecycle.held(chatappId)?.session;
  }
}
