import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** The built-in admin password: usable once, then it must be replaced (see README). */
export const DEFAULT_ADMIN_PASSWORD = '123456';
export const DEFAULT_ADMIN_EMAIL = 'admin@admin.com';

export interface BackendConfig {
  readonly port: number;
  readonly host: string;
  readonly publicUrl: string;
  readonly dataDir: string;
  readonly databaseUrl: string | undefined;
  readonly redisUrl: string | undefined;
  readonly brokerUrl: string | undefined;
  readonly jwtSecret: string | undefined;
  readonly accessTokenTtl: number;
  readonly refreshTokenTtl: number;
  readonly adminEmail: string;
  readonly adminPassword: string;
  readonly adminPasswordIsDefault: boolean;
  readonly companyToken: string | undefined;
  readonly frontendUrls: string[];
  readonly trustProxy: boolean;
  readonly logLevel: string;
  readonly blobStorage: 'local' | 'gcs';
  readonly gcs: { bucket?: string; projectId?: string; keyFilename?: string; apiEndpoint?: string; publicBaseUrl?: string };
  readonly cnpjRegistryUrl: string;
  /** Run the channel runtime inside the backend process (the embedded default) or expect it apart. */
  readonly channelRuntime: 'embedded' | 'external';
  readonly outboxRelayIntervalMs: number;
  /** Let send/linkImage fetch from loopback and private addresses (never in production). */
  readonly allowPrivateUrls: boolean;
  readonly webhooks: { metaVerifyToken?: string; metaAppSecret?: string; microserviceSecret?: string };
  readonly graphApiUrl: string;
  /** Queue integration deliveries: tries per delivery, and the pause between two. */
  readonly integrationMaxDeliver: number;
  readonly integrationRetryDelayMs: number;
  /** How long the embedded channel runtime keeps retrying a send (waiting for its session) before it fails. */
  readonly sendDeadlineMs: number;
}

function int(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a non-negative integer, got "${raw}"`);
  return n;
}

function channelRuntimeMode(env: NodeJS.ProcessEnv): 'embedded' | 'external' {
  const mode = env.CHANNEL_RUNTIME ?? (env.BROKER_URL ? 'external' : 'embedded');
  if (mode !== 'embedded' && mode !== 'external') throw new Error('CHANNEL_RUNTIME must be "embedded" or "external"');
  if (mode === 'external' && !env.BROKER_URL) throw new Error('CHANNEL_RUNTIME=external needs BROKER_URL (the runtime is another process)');
  return mode;
}

/** Reads the environment once, with the defaults the README documents. Invalid values stop the start. */
export function readConfig(env: NodeJS.ProcessEnv = process.env): BackendConfig {
  const port = int(env, 'PORT', 8080);
  const blobStorage = (env.BLOB_STORAGE ?? 'local') as 'local' | 'gcs';
  if (blobStorage !== 'local' && blobStorage !== 'gcs') throw new Error('BLOB_STORAGE must be "local" or "gcs"');
  if (blobStorage === 'gcs' && !env.GCS_BUCKET) throw new Error('BLOB_STORAGE=gcs needs GCS_BUCKET');
  return {
    port,
    host: env.HOST ?? '0.0.0.0',
    publicUrl: (env.PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/$/, ''),
    dataDir: path.resolve(env.DATA_DIR ?? './data'),
    databaseUrl: env.DATABASE_URL || undefined,
    redisUrl: env.REDIS_URL || undefined,
    brokerUrl: env.BROKER_URL || undefined,
    jwtSecret: env.JWT_SECRET || undefined,
    accessTokenTtl: int(env, 'ACCESS_TOKEN_TTL', 900),
    refreshTokenTtl: int(env, 'REFRESH_TOKEN_TTL', 7 * 24 * 3600),
    adminEmail: env.ADMIN_EMAIL || DEFAULT_ADMIN_EMAIL,
    adminPassword: env.ADMIN_PASSWORD || DEFAULT_ADMIN_PASSWORD,
    adminPasswordIsDefault: !env.ADMIN_PASSWORD,
    companyToken: env.COMPANY_TOKEN || undefined,
    frontendUrls: (env.FRONTEND_URL ?? 'http://localhost:3000').split(',').map((s) => s.trim()).filter(Boolean),
    trustProxy: env.TRUST_PROXY === 'true',
    logLevel: env.LOG_LEVEL ?? 'info',
    blobStorage,
    gcs: { bucket: env.GCS_BUCKET, projectId: env.GCS_PROJECT_ID, keyFilename: env.GCS_KEY_FILE, apiEndpoint: env.GCS_API_ENDPOINT, publicBaseUrl: env.GCS_PUBLIC_URL },
    cnpjRegistryUrl: env.CNPJ_REGISTRY_URL ?? 'https://brasilapi.com.br/api/cnpj/v1',
    channelRuntime: channelRuntimeMode(env),
    outboxRelayIntervalMs: int(env, 'OUTBOX_RELAY_INTERVAL_MS', 1000),
    allowPrivateUrls: env.ALLOW_PRIVATE_URLS === 'true',
    webhooks: { metaVerifyToken: env.META_VERIFY_TOKEN || undefined, metaAppSecret: env.META_APP_SECRET || undefined, microserviceSecret: env.CHATAPP_MICROSERVICE_SECRET || undefined },
    graphApiUrl: (env.META_GRAPH_URL ?? 'https://graph.facebook.com/v21.0').replace(/\/$/, ''),
    integrationMaxDeliver: Math.max(1, int(env, 'INTEGRATION_MAX_DELIVER', 5)),
    integrationRetryDelayMs: int(env, 'INTEGRATION_RETRY_DELAY_MS', 5000),
    sendDeadlineMs: int(env, 'SEND_DEADLINE_MS', 60_000),
  };
}

/**
 * The JWT secret: JWT_SECRET when set; otherwise (embedded mode) a random secret generated once
 * and kept in DATA_DIR, so that tokens survive restarts. Several instances must share JWT_SECRET.
 */
export async function resolveJwtSecret(config: BackendConfig): Promise<string> {
  if (config.jwtSecret) return config.jwtSecret;
  if (config.databaseUrl) throw new Error('JWT_SECRET is required when DATABASE_URL is set (instances must share it)');
  const file = path.join(config.dataDir, 'jwt-secret');
  try {
    return (await readFile(file, 'utf8')).trim();
  } catch {
    await mkdir(config.dataDir, { recursive: true });
    const secret = randomBytes(48).toString('base64url');
    await writeFile(file, secret, { mode: 0o600, flag: 'wx' }).catch(async () => undefined);
    return (await readFile(file, 'utf8')).trim();
  }
}
