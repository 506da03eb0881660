import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { envBool, envConnectors, envInt, envNatsPrefix, envUrl, parseEnv, StartupError, type ConnectorName } from '@servicedesk/channel-runtime';
import { z } from 'zod';

/** The built-in admin password: usable once, then it must be replaced (docs/getting-started.md). */
export const DEFAULT_ADMIN_PASSWORD = '123456';
export const DEFAULT_ADMIN_EMAIL = 'admin@admin.com';

export interface SmtpConfig {
  readonly host: string;
  readonly port: number;
  readonly secure: boolean;
  readonly user: string | undefined;
  readonly password: string | undefined;
  readonly from: string;
}

export interface BackendConfig {
  readonly port: number;
  readonly host: string;
  readonly publicUrl: string;
  readonly dataDir: string;
  readonly databaseUrl: string | undefined;
  readonly redisUrl: string | undefined;
  readonly brokerUrl: string | undefined;
  /** Prefix of NATS streams, subjects and durables (`NATS_PREFIX`), so deployments can share a server; empty: none. */
  readonly natsPrefix: string;
  /** Prefix of every Redis key (`REDIS_PREFIX`), so deployments can share a server; empty: none. */
  readonly redisPrefix: string;
  readonly jwtSecret: string | undefined;
  readonly accessTokenTtl: number;
  readonly refreshTokenTtl: number;
  readonly adminEmail: string;
  readonly adminPassword: string;
  readonly adminPasswordIsDefault: boolean;
  readonly companyToken: string | undefined;
  readonly frontendUrls: string[];
  /** Where users open the console (`CONSOLE_URL`, else `PUBLIC_URL`): e-mailed links go to `<consoleUrl>/app/…`. */
  readonly consoleUrl: string;
  /** The SMTP server e-mails go through (`SMTP_*`); absent: no e-mail, and password-reset requests say so. */
  readonly smtp: SmtpConfig | undefined;
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
  /** Sandbox contacts answer each send with "Re: <body>" (`SANDBOX_ECHO`), in the embedded runtime too. */
  readonly sandboxEcho: boolean;
  /** Connectors the embedded channel runtime loads (`CHANNEL_CONNECTORS`). */
  readonly channelConnectors: readonly ConnectorName[];
  /** The contact lists' number check: how often it runs, how many numbers of each company one run checks, when a failed check is retried. */
  readonly contactListChecks: { readonly everyMs: number; readonly perCompany: number; readonly retryErrorsAfterMs: number };
  /** Schedules: how late an occurrence may still be sent (later: missed), and the pause between a scheduled message's recipients. */
  readonly schedules: { readonly missedAfterMs: number; readonly recipientGapMs: number };
  /** Dashboards: how long an answer is reused (0: never), and how often the job brings the figures up to date. */
  readonly dashboards: { readonly cacheSeconds: number; readonly refreshEveryMs: number };
  /** The secret stored credentials (transcription API keys) are sealed with (`SECRETS_KEY`); absent: the JWT secret. */
  readonly secretsKey: string | undefined;
  /** Speech-to-text: how long one request to the service may take, and how much audio a request waits for (more runs as a job). */
  readonly transcription: { readonly timeoutMs: number; readonly inlineMaxBytes: number };
  /** Contacts' files: the most bytes one may have (`INBOUND_MEDIA_MAX_BYTES`), the wait after a first failed fetch (`INBOUND_MEDIA_RETRY_MS`, doubling). */
  readonly inboundMedia: { readonly maxBytes: number; readonly retryBaseMs: number };
  /** The chat models prompts may use (`PROMPT_MODELS`, the first the default) and the model's deadline (`PROMPT_TIMEOUT_MS`). */
  readonly prompts: { readonly models: readonly string[]; readonly timeoutMs: number };
  /** Proxy checks: where the tunnel goes (`PROXY_CHECK_TARGET`), its deadline (`PROXY_CHECK_TIMEOUT_MS`) and how often the health job runs (`PROXY_CHECK_INTERVAL_MS`). */
  readonly proxies: { readonly checkTarget: { readonly host: string; readonly port: number }; readonly checkTimeoutMs: number; readonly checkEveryMs: number };
  /**
   * Subscriptions: the payment gateway (Mercado Pago: `BILLING_GATEWAY_URL`, `BILLING_ACCESS_TOKEN`; no token, no gateway), the secret it
   * signs notifications with (`BILLING_WEBHOOK_SECRET`), the secret segment of their path (`BILLING_RETURN_TOKEN`), the days of grace
   * before an overdue company is suspended (`BILLING_GRACE_DAYS`) and how many days before a due date its invoice is issued (`BILLING_INVOICE_LEAD_DAYS`).
   */
  readonly billing: {
    readonly gatewayUrl: string;
    readonly accessToken: string | undefined;
    readonly webhookSecret: string | undefined;
    readonly returnToken: string | undefined;
    readonly graceDays: number;
    readonly invoiceLeadDays: number;
  };
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
const HTTP = ['http', 'https'] as const;
/** A base URL without its trailing slash. */
const baseUrl = (fallback?: string) => (fallback === undefined ? envUrl(HTTP) : envUrl(HTTP).default(fallback)).transform((u) => u.replace(/\/$/, ''));

/**
 * Every variable the backend reads, with the defaults docs/configuration.md documents (configuration-reference.ts). Unset and empty are
 * the same; anything set must be valid, and the first problem names its variable.
 */
const ENV = z
  .object({
    PORT: envInt(8080).refine((p) => p <= 65535, { error: 'must be a port number (0 to 65535)' }),
    HOST: z.string().default('0.0.0.0'),
    PUBLIC_URL: baseUrl().optional(),
    DATA_DIR: z
      .string()
      .default('./data')
      .transform((d) => path.resolve(d)),
    DATABASE_URL: envUrl(['postgres', 'postgresql']).optional(),
    REDIS_URL: envUrl(['redis', 'rediss']).optional(),
    BROKER_URL: z.string().optional(),
    NATS_PREFIX: envNatsPrefix,
    REDIS_PREFIX: envNatsPrefix,
    JWT_SECRET: z.string().min(32, { error: 'must be at least 32 characters' }).optional(),
    ACCESS_TOKEN_TTL: envInt(900, 1, ' of seconds'),
    REFRESH_TOKEN_TTL: envInt(7 * 24 * 3600, 1, ' of seconds'),
    ADMIN_EMAIL: z.email({ error: 'must be an e-mail address' }).default(DEFAULT_ADMIN_EMAIL),
    ADMIN_PASSWORD: z.string().optional(),
    COMPANY_TOKEN: z.string().optional(),
    FRONTEND_URL: z
      .string()
      .default('http://localhost:3000')
      .transform((raw, ctx) => {
        const urls = raw
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean);
        for (const url of urls) if (!envUrl(HTTP).safeParse(url).success) ctx.addIssue({ code: 'custom', message: `"${url}" is not an http(s) origin` });
        return urls;
      }),
    TRUST_PROXY: envBool(),
    CONSOLE_URL: baseUrl().optional(),
    SMTP_HOST: z.string().optional(),
    SMTP_PORT: envInt(587).refine((p) => p >= 1 && p <= 65535, { error: 'must be a port number (1 to 65535)' }),
    SMTP_SECURE: envBool(),
    SMTP_USER: z.string().optional(),
    SMTP_PASSWORD: z.string().optional(),
    SMTP_FROM: z.string().optional(),
    LOG_LEVEL: z.enum(LOG_LEVELS, { error: `must be one of ${LOG_LEVELS.join(', ')}` }).default('info'),
    BLOB_STORAGE: z.enum(['local', 'gcs'], { error: 'must be "local" or "gcs"' }).default('local'),
    GCS_BUCKET: z.string().optional(),
    GCS_PROJECT_ID: z.string().optional(),
    GCS_KEY_FILE: z.string().optional(),
    GCS_API_ENDPOINT: z.string().optional(),
    GCS_PUBLIC_URL: z.string().optional(),
    CNPJ_REGISTRY_URL: baseUrl('https://brasilapi.com.br/api/cnpj/v1'),
    CHANNEL_RUNTIME: z.enum(['embedded', 'external'], { error: 'must be "embedded" or "external"' }).optional(),
    OUTBOX_RELAY_INTERVAL_MS: envInt(1000, 1, ' of milliseconds'),
    ALLOW_PRIVATE_URLS: envBool(),
    META_VERIFY_TOKEN: z.string().optional(),
    META_APP_SECRET: z.string().optional(),
    CHATAPP_MICROSERVICE_SECRET: z.string().optional(),
    META_GRAPH_URL: baseUrl('https://graph.facebook.com/v21.0'),
    INTEGRATION_MAX_DELIVER: envInt(5, 1),
    INTEGRATION_RETRY_DELAY_MS: envInt(5000, 0, ' of milliseconds'),
    SEND_DEADLINE_MS: envInt(60_000, 1, ' of milliseconds'),
    SANDBOX_ECHO: envBool(),
    CHANNEL_CONNECTORS: envConnectors(),
    CONTACT_LIST_CHECK_INTERVAL_MS: envInt(15_000, 1, ' of milliseconds'),
    CONTACT_LIST_CHECKS_PER_COMPANY: envInt(20, 1),
    CONTACT_LIST_CHECK_RETRY_MS: envInt(30 * 60_000, 0, ' of milliseconds'),
    SCHEDULE_MISSED_AFTER_HOURS: envInt(24, 1, ' of hours'),
    SCHEDULED_MESSAGES_GAP_MS: envInt(5000, 0, ' of milliseconds'),
    DASHBOARD_CACHE_SECONDS: envInt(120, 0, ' of seconds'),
    DASHBOARD_REFRESH_INTERVAL_MS: envInt(300_000, 1000, ' of milliseconds'),
    SECRETS_KEY: z.string().min(32, { error: 'must be at least 32 characters' }).optional(),
    TRANSCRIPTION_TIMEOUT_MS: envInt(120_000, 1, ' of milliseconds'),
    TRANSCRIPTION_INLINE_MAX_BYTES: envInt(1024 * 1024, 0, ' of bytes'),
    INBOUND_MEDIA_MAX_BYTES: envInt(64 * 1024 * 1024, 1, ' of bytes'),
    INBOUND_MEDIA_RETRY_MS: envInt(5_000, 1, ' of milliseconds'),
    PROXY_CHECK_TARGET: z
      .string()
      .default('web.whatsapp.com:443')
      .transform((raw, ctx) => {
        const m = /^([A-Za-z0-9.-]{1,253}|\[[0-9A-Fa-f:]{2,39}\]):(\d{1,5})$/.exec(raw.trim());
        const port = m ? Number(m[2]) : 0;
        if (!m || port < 1 || port > 65535) {
          ctx.addIssue({ code: 'custom', message: 'must be host:port' });
          return z.NEVER;
        }
        return { host: m[1]!.replace(/^\[|\]$/g, ''), port };
      }),
    PROXY_CHECK_TIMEOUT_MS: envInt(10_000, 1, ' of milliseconds'),
    PROXY_CHECK_INTERVAL_MS: envInt(120_000, 1000, ' of milliseconds'),
    PROMPT_MODELS: z
      .string()
      .default('gpt-4o-mini,gpt-4o,gpt-4.1-mini,gpt-4.1')
      .transform((raw, ctx) => {
        const models = [
          ...new Set(
            raw
              .split(',')
              .map((m) => m.trim())
              .filter(Boolean),
          ),
        ];
        if (!models.length || models.some((m) => !/^[\w.:/-]{1,100}$/.test(m))) {
          ctx.addIssue({ code: 'custom', message: 'must be a comma-separated list of model names' });
          return z.NEVER;
        }
        return models;
      }),
    PROMPT_TIMEOUT_MS: envInt(60_000, 1, ' of milliseconds'),
    BILLING_GATEWAY_URL: baseUrl('https://api.mercadopago.com'),
    BILLING_ACCESS_TOKEN: z.string().optional(),
    BILLING_WEBHOOK_SECRET: z.string().min(16, { error: 'must be at least 16 characters' }).optional(),
    BILLING_RETURN_TOKEN: z
      .string()
      .regex(/^[A-Za-z0-9_-]{16,200}$/, { error: 'must be 16 to 200 letters, digits, "-" or "_" (it is a path segment)' })
      .optional(),
    BILLING_GRACE_DAYS: envInt(3, 0, ' of days'),
    BILLING_INVOICE_LEAD_DAYS: envInt(7, 0, ' of days'),
  })
  .superRefine((env, ctx) => {
    const problem = (variable: string, message: string) => ctx.addIssue({ code: 'custom', path: [variable], message });
    if (env.DATABASE_URL && !env.JWT_SECRET) problem('JWT_SECRET', 'is required when DATABASE_URL is set (instances must share it)');
    if (env.CHANNEL_RUNTIME === 'external' && !env.BROKER_URL) problem('CHANNEL_RUNTIME', '"external" needs BROKER_URL (the runtime is another process)');
    if (env.BLOB_STORAGE === 'gcs' && !env.GCS_BUCKET) problem('GCS_BUCKET', 'is required with BLOB_STORAGE=gcs');
    if (env.SMTP_HOST && !env.SMTP_FROM) problem('SMTP_FROM', 'is required with SMTP_HOST (the sender of e-mails)');
    if (Boolean(env.SMTP_USER) !== Boolean(env.SMTP_PASSWORD))
      problem(env.SMTP_USER ? 'SMTP_PASSWORD' : 'SMTP_USER', 'SMTP_USER and SMTP_PASSWORD go together');
  });

/** The variables the backend reads; docs/configuration.md describes each (configuration-reference.ts). */
export type BackendEnvName = keyof typeof ENV.shape;
export const BACKEND_ENV_NAMES = Object.keys(ENV.shape) as BackendEnvName[];

/**
 * Reads and validates the environment once (zod), before anything else happens. An invalid value
 * throws a StartupError naming its variable (`JWT_SECRET: must be at least 32 characters`).
 */
export function readConfig(raw: NodeJS.ProcessEnv = process.env): BackendConfig {
  const env = parseEnv(ENV, raw);
  return {
    port: env.PORT,
    host: env.HOST,
    publicUrl: env.PUBLIC_URL ?? `http://localhost:${env.PORT}`,
    dataDir: env.DATA_DIR,
    databaseUrl: env.DATABASE_URL,
    redisUrl: env.REDIS_URL,
    brokerUrl: env.BROKER_URL,
    natsPrefix: env.NATS_PREFIX,
    redisPrefix: env.REDIS_PREFIX,
    jwtSecret: env.JWT_SECRET,
    accessTokenTtl: env.ACCESS_TOKEN_TTL,
    refreshTokenTtl: env.REFRESH_TOKEN_TTL,
    adminEmail: env.ADMIN_EMAIL,
    adminPassword: env.ADMIN_PASSWORD ?? DEFAULT_ADMIN_PASSWORD,
    adminPasswordIsDefault: !env.ADMIN_PASSWORD,
    companyToken: env.COMPANY_TOKEN,
    frontendUrls: env.FRONTEND_URL,
    consoleUrl: env.CONSOLE_URL ?? env.PUBLIC_URL ?? `http://localhost:${env.PORT}`,
    smtp: env.SMTP_HOST
      ? { host: env.SMTP_HOST, port: env.SMTP_PORT, secure: env.SMTP_SECURE, user: env.SMTP_USER, password: env.SMTP_PASSWORD, from: env.SMTP_FROM! }
      : undefined,
    trustProxy: env.TRUST_PROXY,
    logLevel: env.LOG_LEVEL,
    blobStorage: env.BLOB_STORAGE,
    gcs: {
      bucket: env.GCS_BUCKET,
      projectId: env.GCS_PROJECT_ID,
      keyFilename: env.GCS_KEY_FILE,
      apiEndpoint: env.GCS_API_ENDPOINT,
      publicBaseUrl: env.GCS_PUBLIC_URL,
    },
    cnpjRegistryUrl: env.CNPJ_REGISTRY_URL,
    channelRuntime: env.CHANNEL_RUNTIME ?? (env.BROKER_URL ? 'external' : 'embedded'),
    outboxRelayIntervalMs: env.OUTBOX_RELAY_INTERVAL_MS,
    allowPrivateUrls: env.ALLOW_PRIVATE_URLS,
    webhooks: { metaVerifyToken: env.META_VERIFY_TOKEN, metaAppSecret: env.META_APP_SECRET, microserviceSecret: env.CHATAPP_MICROSERVICE_SECRET },
    graphApiUrl: env.META_GRAPH_URL,
    integrationMaxDeliver: env.INTEGRATION_MAX_DELIVER,
    integrationRetryDelayMs: env.INTEGRATION_RETRY_DELAY_MS,
    sendDeadlineMs: env.SEND_DEADLINE_MS,
    sandboxEcho: env.SANDBOX_ECHO,
    channelConnectors: env.CHANNEL_CONNECTORS,
    contactListChecks: {
      everyMs: env.CONTACT_LIST_CHECK_INTERVAL_MS,
      perCompany: env.CONTACT_LIST_CHECKS_PER_COMPANY,
      retryErrorsAfterMs: env.CONTACT_LIST_CHECK_RETRY_MS,
    },
    schedules: { missedAfterMs: env.SCHEDULE_MISSED_AFTER_HOURS * 3_600_000, recipientGapMs: env.SCHEDULED_MESSAGES_GAP_MS },
    dashboards: { cacheSeconds: env.DASHBOARD_CACHE_SECONDS, refreshEveryMs: env.DASHBOARD_REFRESH_INTERVAL_MS },
    secretsKey: env.SECRETS_KEY,
    transcription: { timeoutMs: env.TRANSCRIPTION_TIMEOUT_MS, inlineMaxBytes: env.TRANSCRIPTION_INLINE_MAX_BYTES },
    inboundMedia: { maxBytes: env.INBOUND_MEDIA_MAX_BYTES, retryBaseMs: env.INBOUND_MEDIA_RETRY_MS },
    prompts: { models: env.PROMPT_MODELS, timeoutMs: env.PROMPT_TIMEOUT_MS },
    proxies: { checkTarget: env.PROXY_CHECK_TARGET, checkTimeoutMs: env.PROXY_CHECK_TIMEOUT_MS, checkEveryMs: env.PROXY_CHECK_INTERVAL_MS },
    billing: {
      gatewayUrl: env.BILLING_GATEWAY_URL,
      accessToken: env.BILLING_ACCESS_TOKEN,
      webhookSecret: env.BILLING_WEBHOOK_SECRET,
      returnToken: env.BILLING_RETURN_TOKEN,
      graceDays: env.BILLING_GRACE_DAYS,
      invoiceLeadDays: env.BILLING_INVOICE_LEAD_DAYS,
    },
  };
}

/**
 * The JWT secret: JWT_SECRET when set; otherwise (embedded mode) a random secret generated once
 * and kept in DATA_DIR, so that tokens survive restarts. Several instances must share JWT_SECRET.
 */
export async function resolveJwtSecret(config: BackendConfig): Promise<string> {
  if (config.jwtSecret) return config.jwtSecret;
  if (config.databaseUrl) throw new StartupError('JWT_SECRET', 'is required when DATABASE_URL is set (instances must share it)');
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
