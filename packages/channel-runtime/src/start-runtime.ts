import type { Broker } from '@servicedesk/core';
import type { Database } from '@servicedesk/adapters-persistence';
import { ChannelRuntime } from './channel-runtime.js';
import type { ChannelRuntimeOptions, RuntimeLogger } from './runtime-options.js';
import { BaileysConnector } from './connectors/baileys-connector.js';
import { BizchatConnector } from './connectors/bizchat-connector.js';
import { GraphConnector } from './connectors/graph-connector.js';
import { SandboxConnector } from './connectors/sandbox-connector.js';
import { DatabaseSandboxLedger } from './connectors/sandbox-ledger.js';
import { openChannelDatabase } from './persistence/channel-database.js';
import { databaseAuthStore } from './persistence/db-auth-state.js';
import { seedChannelAdmin, type ChannelAdminSeed } from './persistence/seed-channel-admin.js';
import type { Connector } from './ports.js';

export type ConnectorName = 'sandbox' | 'baileys' | 'graph' | 'bizchat';
export const ALL_CONNECTORS: readonly ConnectorName[] = ['sandbox', 'baileys', 'graph', 'bizchat'];

/**
 * Migrates the channel component's own schema and seeds its admin. On PGlite the engine is
 * borrowed from `database` and the channel's ORM is closed afterwards (one connection only);
 * on PostgreSQL the same server is used.
 */
export async function prepareChannelSchema(database: Database, admin: ChannelAdminSeed): Promise<{ migrations: string[]; adminCreated: boolean }> {
  const channelDb = await openChannelDatabase(database.pglite ? { pglite: database.pglite } : { url: database.url, poolMax: 2 });
  try {
    const migrations = await channelDb.migrate();
    const { created } = await seedChannelAdmin(channelDb, admin);
    return { migrations, adminCreated: created };
  } finally {
    await channelDb.close();
  }
}

export interface RuntimeAssembly {
  readonly runtime: ChannelRuntime;
  readonly sandbox: SandboxConnector | null;
}

/** Builds the runtime with the chosen connectors; Baileys keeps its auth state in `database`. */
export function assembleRuntime(o: {
  broker: Broker;
  database: Database;
  logger: RuntimeLogger;
  graphApiUrl: string;
  connectors?: readonly ConnectorName[];
  queries?: ChannelRuntimeOptions['queries'];
  sendDeadlineMs?: number;
  /** Session ownership shared by several instances; default in this process (one instance). */
  ownership?: Pick<ChannelRuntimeOptions, 'registry' | 'leaseTtlMs' | 'syncIntervalMs' | 'instanceId'>;
  sandboxEcho?: boolean;
  recordInbound?: ChannelRuntimeOptions['recordInbound'];
}): RuntimeAssembly {
  const enabled = new Set(o.connectors ?? ALL_CONNECTORS);
  const sandbox = enabled.has('sandbox') ? new SandboxConnector(new DatabaseSandboxLedger(o.database), { echo: o.sandboxEcho ?? false }) : null;
  const connectors: Connector[] = [];
  if (sandbox) connectors.push(sandbox);
  if (enabled.has('baileys')) connectors.push(new BaileysConnector({ authStore: databaseAuthStore(o.database), logger: o.logger }));
  if (enabled.has('graph')) connectors.push(new GraphConnector({ baseUrl: o.graphApiUrl }));
  if (enabled.has('bizchat')) connectors.push(new BizchatConnector({ baseUrl: o.graphApiUrl }));
  return {
    runtime: new ChannelRuntime({
      broker: o.broker,
      connectors,
      logger: o.logger,
      ...(o.queries ? { queries: o.queries } : {}),
      ...(o.sendDeadlineMs !== undefined ? { sendDeadlineMs: o.sendDeadlineMs } : {}),
      ...(o.recordInbound ? { recordInbound: o.recordInbound } : {}),
      ...o.ownership,
    }),
    sandbox,
  };
}

export function parseConnectors(raw: string | undefined): ConnectorName[] {
  if (!raw) return [...ALL_CONNECTORS];
  const names = raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const n of names) if (!ALL_CONNECTORS.includes(n as ConnectorName)) throw new Error(`CHANNEL_CONNECTORS: unknown connector "${n}"`);
  return names as ConnectorName[];
}
