import path from 'node:path';
import { z } from 'zod';
import { DEFAULT_LEASE_TTL_MS, DEFAULT_SYNC_INTERVAL_MS } from './runtime-options.js';
import { envBool, envInt, envNatsPrefix, envUrl, parseEnv, envConnectors } from './startup.js';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** The channel runtime's own executable: every variable it reads, validated before anything happens. */
const ENV = z.object({
  BROKER_URL: z.string({ error: 'is required: the runtime takes its commands from NATS JetStream (npm start runs it embedded instead)' }),
  NATS_PREFIX: envNatsPrefix,
  DATABASE_URL: envUrl(['postgres', 'postgresql']).optional(),
  DATA_DIR: z
    .string()
    .default('./data')
    .transform((d) => path.resolve(d)),
  LOG_LEVEL: z.enum(LOG_LEVELS, { error: `must be one of ${LOG_LEVELS.join(', ')}` }).default('info'),
  BROKER_ACK_WAIT_MS: envInt(10_000, 1, ' of milliseconds'),
  SEND_DEADLINE_MS: envInt(60_000, 1, ' of milliseconds'),
  LEASE_TTL_MS: envInt(DEFAULT_LEASE_TTL_MS, 1, ' of milliseconds'),
  SESSION_SYNC_INTERVAL_MS: envInt(DEFAULT_SYNC_INTERVAL_MS, 1, ' of milliseconds'),
  RUNTIME_INSTANCE_ID: z.string().optional(),
  SANDBOX_ECHO: envBool(),
  META_GRAPH_URL: envUrl(['http', 'https'])
    .default('https://graph.facebook.com/v21.0')
    .transform((u) => u.replace(/\/$/, '')),
  CHANNEL_CONNECTORS: envConnectors(),
});

export type RuntimeConfig = z.output<typeof ENV>;

/** The variables the runtime reads (its admin's two are read by the seed); docs/configuration.md describes each. */
export type RuntimeEnvName = keyof typeof ENV.shape | 'CHANNEL_ADMIN_EMAIL' | 'CHANNEL_ADMIN_PASSWORD';
export const RUNTIME_ENV_NAMES: readonly RuntimeEnvName[] = [
  ...(Object.keys(ENV.shape) as Array<keyof typeof ENV.shape>),
  'CHANNEL_ADMIN_EMAIL',
  'CHANNEL_ADMIN_PASSWORD',
];

/** Reads the runtime's environment; the first invalid variable throws a StartupError naming it. */
export function readRuntimeConfig(env: Record<string, string | undefined> = process.env): RuntimeConfig {
  return parseEnv(ENV, env);
}
