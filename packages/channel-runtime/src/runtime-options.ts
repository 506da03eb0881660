import type { Broker, BrokerEnvelope } from '@servicedesk/core';
import type { Connector, ConnectorSession } from './ports.js';
import type { SessionRegistry } from './ownership/session-registry.js';

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
