import type { RuntimeEnvName } from '@servicedesk/channel-runtime';
import type { BackendEnvName } from './config.js';

/**
 * What every environment variable means, beside the schemas that read them (`config.ts` here, the
 * channel runtime's `config.ts`): the type makes a variable added to either schema without its
 * line here fail the type-check. `npm run docs:config` writes docs/configuration.md and
 * .env.example from it, and a test fails when either file differs from what it would write.
 */
export interface VariableDoc {
  readonly section: SectionKey;
  /** The default as a reader needs it (Markdown): a literal in backticks, or what happens without it. */
  readonly default: string;
  readonly meaning: string;
}

const SECTIONS = [
  { key: 'server', title: 'The server' },
  { key: 'infra', title: 'Database, cache and broker' },
  { key: 'auth', title: 'Sign-in and secrets' },
  { key: 'mail', title: 'E-mail' },
  { key: 'runtime', title: 'The channel runtime' },
  { key: 'providers', title: 'Providers and webhooks' },
  { key: 'storage', title: 'File storage' },
  { key: 'features', title: 'Features and their jobs' },
  { key: 'billing', title: 'Subscriptions and billing' },
] as const;
type SectionKey = (typeof SECTIONS)[number]['key'];

export const CONFIGURATION: { readonly [K in BackendEnvName | RuntimeEnvName]: VariableDoc } = {
  PORT: { section: 'server', default: '`8080`', meaning: 'HTTP and websocket port of the backend.' },
  HOST: { section: 'server', default: '`0.0.0.0`', meaning: 'Interface to listen on.' },
  PUBLIC_URL: {
    section: 'server',
    default: '`http://localhost:$PORT`',
    meaning:
      'Base of the URLs of uploaded public files (logos, avatars, media): `<PUBLIC_URL>/public/…`, served by the backend wherever the file is stored (see [Object storage](features/object-storage.md)).',
  },
  DATA_DIR: { section: 'server', default: '`./data`', meaning: 'Embedded database (`pglite/`), uploaded files (`files/`) and the generated JWT secret.' },
  FRONTEND_URL: {
    section: 'server',
    default: '`http://localhost:3000`',
    meaning: 'Comma-separated origins allowed by CORS with credentials (the refresh cookie).',
  },
  CONSOLE_URL: {
    section: 'server',
    default: '`PUBLIC_URL`',
    meaning:
      'Where users open the console, when not the backend itself (`npm start` serves it at `<PUBLIC_URL>/app/`): password-reset e-mails link to `<CONSOLE_URL>/app/reset-password?token=…`.',
  },
  TRUST_PROXY: {
    section: 'server',
    default: '`false`',
    meaning: '`true` behind a reverse proxy: client IPs from `X-Forwarded-For`, `Secure` cookies behind https.',
  },
  LOG_LEVEL: {
    section: 'server',
    default: '`info`',
    meaning: 'pino level (`fatal` … `trace`, `silent`). Logs are JSON, one line per request with its request id.',
  },
  DATABASE_URL: {
    section: 'infra',
    default: '— (embedded PGlite)',
    meaning:
      "`postgres://user@host:5432/db` runs on PostgreSQL instead. On the database's own host, prefer its Unix socket, the libpq way: `postgres://user@localhost/db?host=/var/run/postgresql` (a statement's round trip skips the TCP stack: see bench/README.md).",
  },
  REDIS_URL: {
    section: 'infra',
    default: '— (in-memory cache)',
    meaning: '`redis://host:6379`: login throttling, in-progress marks of idempotency keys and the realtime replay window shared by instances.',
  },
  BROKER_URL: { section: 'infra', default: '— (in-process broker)', meaning: '`nats://host:4222`: NATS JetStream between backend and channel runtime.' },
  NATS_PREFIX: {
    section: 'infra',
    default: '— (none)',
    meaning:
      'Prefix of every NATS name, so deployments (or other applications using `cmd.>`) share one server: streams `<prefix>_SD_CMD`/`<prefix>_SD_EVT`, subjects `<prefix>.cmd.…`, `<prefix>.evt.…`, `<prefix>.sd.realtime.…`, `<prefix>.sd.q.…`, durables `<prefix>_<durable>`. Letters, digits, `_`, `-`. Give backend and runtime the same.',
  },
  REDIS_PREFIX: {
    section: 'infra',
    default: '— (none: keys `sd:…`)',
    meaning:
      'Prefix of every Redis key (`<prefix>:sd:…`), so deployments share one Redis server, as `NATS_PREFIX` lets them share NATS. Letters, digits, `_`, `-`. Every backend of a deployment takes the same.',
  },
  OUTBOX_RELAY_INTERVAL_MS: {
    section: 'infra',
    default: '`1000`',
    meaning: "Period of the outbox relay's safety-net job (`outbox.relay`); entries are also relayed right after the transaction that wrote them commits.",
  },
  JWT_SECRET: {
    section: 'auth',
    default: 'generated once into `DATA_DIR/jwt-secret`',
    meaning: 'HS256 secret of access and refresh tokens (≥ 32 characters). Required with `DATABASE_URL`: all instances must share it.',
  },
  ACCESS_TOKEN_TTL: { section: 'auth', default: '`900`', meaning: 'Access-token lifetime in seconds.' },
  REFRESH_TOKEN_TTL: { section: 'auth', default: '`604800`', meaning: 'Refresh-token (cookie `jrt`) lifetime in seconds.' },
  ADMIN_EMAIL: { section: 'auth', default: '`admin@admin.com`', meaning: 'E-mail of the seeded super admin.' },
  ADMIN_PASSWORD: {
    section: 'auth',
    default: '`123456` (must be changed at first access)',
    meaning: 'Password of the seeded super admin; when set, no change is required.',
  },
  COMPANY_TOKEN: { section: 'auth', default: '— (company API closed)', meaning: 'Bearer token of the company integration API (`/api/*`, `isAuthCompany`).' },
  SECRETS_KEY: {
    section: 'auth',
    default: '— (the JWT secret)',
    meaning:
      'Secret (≥ 32 characters) the AES-256-GCM key that seals stored credentials (transcription API keys, object-store secrets) is derived from. Set it apart from `JWT_SECRET` so that rotating the JWT secret keeps them readable; changing it makes stored keys unreadable (`ERR_TRANSCRIPTION_CREDENTIAL_UNREADABLE`: enter them again). All instances must share it.',
  },
  SMTP_HOST: {
    section: 'mail',
    default: '— (no e-mail)',
    meaning:
      'SMTP server of the e-mails the backend sends (password-reset links). Without it `POST /auth/forgot-password` answers 503 `ERR_MAIL_NOT_CONFIGURED` and the console asks the user to have an administrator set their password.',
  },
  SMTP_PORT: { section: 'mail', default: '`587`', meaning: 'Its port: 587 (STARTTLS when offered) or 465 with `SMTP_SECURE=true`.' },
  SMTP_SECURE: {
    section: 'mail',
    default: '`false`',
    meaning: '`true`: TLS from the first byte (port 465); `false`: plain, upgraded with STARTTLS when the server offers it.',
  },
  SMTP_USER: { section: 'mail', default: '— (no login)', meaning: 'Login on the SMTP server, with `SMTP_PASSWORD` (both or neither).' },
  SMTP_PASSWORD: { section: 'mail', default: '—', meaning: 'Password of `SMTP_USER`.' },
  SMTP_FROM: {
    section: 'mail',
    default: '—',
    meaning: 'Sender of the e-mails, an address or `Name <address>` (`Service Desk <no-reply@example.com>`); required with `SMTP_HOST`.',
  },
  CHANNEL_RUNTIME: {
    section: 'runtime',
    default: '`embedded` without `BROKER_URL`, else `external`',
    meaning: '`embedded` runs the channel runtime inside the backend process; `external` expects it as its own process on the same broker.',
  },
  SEND_DEADLINE_MS: {
    section: 'runtime',
    default: '`60000`',
    meaning:
      'How long a send may wait — for a runtime instance to hold its session, for the session to connect, through transient connector errors — before it ends `failed` with the reason. A runtime never sends past it; the backend fails what no runtime took 30 s after it (`ERR_SEND_DEADLINE_EXCEEDED`). Give both executables the same value.',
  },
  LEASE_TTL_MS: {
    section: 'runtime',
    default: '`15000`',
    meaning: "Channel runtime: how long a session stays owned by an instance after its last lease renewal; a dead instance's sessions are free after this.",
  },
  SESSION_SYNC_INTERVAL_MS: {
    section: 'runtime',
    default: '`2000`',
    meaning: 'Channel runtime: how often an instance renews its leases, applies restarts and logouts recorded by other instances, and claims free sessions.',
  },
  RUNTIME_INSTANCE_ID: {
    section: 'runtime',
    default: 'unique per start',
    meaning: "Channel runtime: the instance's name in the leases (`channel.session_leases.owner`); set it to find an instance in the table and logs.",
  },
  BROKER_ACK_WAIT_MS: {
    section: 'runtime',
    default: '`10000`',
    meaning: 'Channel runtime: after this, a command an instance took but never acknowledged (it died) goes to the next owner.',
  },
  SANDBOX_ECHO: {
    section: 'runtime',
    default: '`false`',
    meaning:
      'Every sandbox contact answers each send with "Re: <body>", for demos and multi-process tests; in the embedded runtime (`npm start`) and the standalone one.',
  },
  CHANNEL_CONNECTORS: { section: 'runtime', default: '`sandbox,baileys,graph`', meaning: 'Connectors the channel runtime loads (both executables).' },
  CHANNEL_ADMIN_EMAIL: { section: 'runtime', default: '`admin@channel.local`', meaning: "The channel component's own admin (schema `channel`)." },
  CHANNEL_ADMIN_PASSWORD: { section: 'runtime', default: '`123456` (must be changed)', meaning: 'Its password; when set, no change is required.' },
  META_GRAPH_URL: {
    section: 'providers',
    default: '`https://graph.facebook.com/v21.0`',
    meaning:
      "Graph API base of the Messenger/Instagram and bizchat (Cloud API) connectors, the backend's page-ownership check and the bizchat template directory (tests point it at a local fake).",
  },
  META_VERIFY_TOKEN: {
    section: 'providers',
    default: '— (verification refused)',
    meaning: 'Token Meta echoes when the webhook (`GET /` or `/webhook/`) is registered.',
  },
  META_APP_SECRET: {
    section: 'providers',
    default: '— (deliveries refused)',
    meaning: 'App secret that signs deliveries (`X-Hub-Signature-256`), of pages and of bizchat numbers alike; without it `POST /` and `/webhook/` answer 401.',
  },
  CHATAPP_MICROSERVICE_SECRET: {
    section: 'providers',
    default: '— (webhook closed)',
    meaning: 'Shared secret (`X-Webhook-Secret` or Bearer) of `POST /api/chatapp-microservice/webhook`.',
  },
  ALLOW_PRIVATE_URLS: {
    section: 'providers',
    default: '`false`',
    meaning:
      "Let `send/linkImage` download from, and queue integrations, speech-to-text services (a Whisper server on the LAN) and companies' object stores (a MinIO on the LAN, over plain http too) be called on, loopback and private addresses (never in production unless the service is yours).",
  },
  CNPJ_REGISTRY_URL: {
    section: 'providers',
    default: '`https://brasilapi.com.br/api/cnpj/v1`',
    meaning: 'BrasilAPI-compatible CNPJ registry used by `GET /auth/consulta-cnpj/:cnpj` (503 when unreachable).',
  },
  BLOB_STORAGE: {
    section: 'storage',
    default: '`local`',
    meaning:
      'The default store: `local` (under `DATA_DIR/files`) or `gcs` (Google Cloud Storage). A company with an active object-store config keeps its new uploads in its own bucket instead (see [Object storage](features/object-storage.md)).',
  },
  GCS_BUCKET: { section: 'storage', default: '—', meaning: 'Bucket, required with `BLOB_STORAGE=gcs`.' },
  GCS_PROJECT_ID: { section: 'storage', default: '— (Application Default Credentials)', meaning: 'Google Cloud project of the bucket.' },
  GCS_KEY_FILE: {
    section: 'storage',
    default: '— (Application Default Credentials)',
    meaning: 'Service-account key file (JSON) the Cloud Storage client signs in with.',
  },
  GCS_API_ENDPOINT: { section: 'storage', default: '—', meaning: 'A custom Cloud Storage endpoint (an emulator).' },
  GCS_PUBLIC_URL: {
    section: 'storage',
    default: '`https://storage.googleapis.com/<bucket>`',
    meaning: 'Base URL of public objects: `/public/…` redirects there for files kept in GCS.',
  },
  INTEGRATION_MAX_DELIVER: { section: 'features', default: '`5`', meaning: 'Tries of one queue-integration delivery before it is given up (and logged).' },
  INTEGRATION_RETRY_DELAY_MS: { section: 'features', default: '`5000`', meaning: 'Pause between two tries of a failed queue-integration delivery.' },
  CONTACT_LIST_CHECK_INTERVAL_MS: {
    section: 'features',
    default: '`15000`',
    meaning: "Period of the contact lists' number check (`contact-lists.check-numbers`).",
  },
  CONTACT_LIST_CHECKS_PER_COMPANY: {
    section: 'features',
    default: '`20`',
    meaning: 'Numbers of one company the check asks its connection about per run (at most 10 companies a run): a burst of lookups is itself a ban signal.',
  },
  CONTACT_LIST_CHECK_RETRY_MS: {
    section: 'features',
    default: '`1800000`',
    meaning: 'How long an item whose check could not run (`validity: error`) waits before it is checked again.',
  },
  SCHEDULE_MISSED_AFTER_HOURS: {
    section: 'features',
    default: '`24`',
    meaning:
      "A schedule's occurrence found due later than this (every instance was down across its moment) is recorded `missed` instead of sent; see [Schedules](features/schedules.md).",
  },
  SCHEDULED_MESSAGES_GAP_MS: {
    section: 'features',
    default: '`5000`',
    meaning: 'Pause between two recipients of one scheduled message (`/schedules-message`).',
  },
  DASHBOARD_CACHE_SECONDS: {
    section: 'features',
    default: '`120`',
    meaning:
      'How long a dashboard answer is reused (per company, route and parameters); `0` never caches. See [Dashboards and reports](features/dashboards-and-reports.md).',
  },
  DASHBOARD_REFRESH_INTERVAL_MS: {
    section: 'features',
    default: '`300000`',
    meaning: 'Period of the job `dashboards.refresh`, which brings the pre-aggregated figures of companies whose tickets changed up to date.',
  },
  TRANSCRIPTION_TIMEOUT_MS: {
    section: 'features',
    default: '`120000`',
    meaning: 'How long one request to a speech-to-text service may take, upload included, before `ERR_TRANSCRIPTION_TIMEOUT`.',
  },
  TRANSCRIPTION_INLINE_MAX_BYTES: {
    section: 'features',
    default: '`1048576`',
    meaning:
      'Audio up to this many bytes in all (and at most three messages) is transcribed while `POST /transcription/:ticketId` waits; more runs as a background job (202).',
  },
  INBOUND_MEDIA_MAX_BYTES: {
    section: 'features',
    default: '`67108864`',
    meaning:
      'The largest file (in bytes; the default is 64 MB) a contact may send that is kept: a photo, voice note, video or document over it is not stored, and its message shows why (`ERR_MEDIA_TOO_LARGE`). The file is held in memory while it is fetched, one per running job.',
  },
  INBOUND_MEDIA_RETRY_MS: {
    section: 'features',
    default: '`5000`',
    meaning:
      "The wait before fetching a contact's file again after its provider did not answer, doubling after each try (at most 5 minutes); after the fifth try the message shows the file failed (`ERR_MEDIA_UNAVAILABLE`).",
  },
  PROMPT_MODELS: {
    section: 'features',
    default: '`gpt-4o-mini,gpt-4o,gpt-4.1-mini,gpt-4.1`',
    meaning: 'The chat models prompts may use, comma-separated; the first is the default. A prompt naming another answers `ERR_PROMPT_MODEL_NOT_ALLOWED`.',
  },
  PROMPT_TIMEOUT_MS: {
    section: 'features',
    default: '`60000`',
    meaning: "How long one request to a prompt's chat model may take before `ERR_LANGUAGE_MODEL_TIMEOUT` (the conversation is then handed to a human).",
  },
  PROXY_CHECK_TARGET: {
    section: 'features',
    default: '`web.whatsapp.com:443`',
    meaning: '`host:port` a proxy check opens its tunnel to (through the proxy). Never taken from a request.',
  },
  PROXY_CHECK_TIMEOUT_MS: { section: 'features', default: '`10000`', meaning: 'How long a proxy has to open that tunnel before the check fails.' },
  PROXY_CHECK_INTERVAL_MS: { section: 'features', default: '`120000`', meaning: 'Period of the job `proxies.check`, which checks every proxy not disabled.' },
  BILLING_GATEWAY_URL: {
    section: 'billing',
    default: '`https://api.mercadopago.com`',
    meaning: "Base of Mercado Pago's API, the payment gateway of subscriptions (tests point it at a local fake).",
  },
  BILLING_ACCESS_TOKEN: {
    section: 'billing',
    default: '— (no gateway: `POST /subscription` answers 503)',
    meaning: "The platform's Mercado Pago access token (Bearer) that issues and reads Pix charges.",
  },
  BILLING_WEBHOOK_SECRET: {
    section: 'billing',
    default: '— (notifications refused, gateway check closed)',
    meaning:
      'The secret Mercado Pago signs its notifications with (its dashboard: Your integrations → Webhooks), ≥ 16 characters; also what `POST /subscription/create/webhook` asks for in `X-Webhook-Secret`.',
  },
  BILLING_RETURN_TOKEN: {
    section: 'billing',
    default: '— (notifications refused)',
    meaning:
      'The secret segment of the notification URL `/subscription/return/<BILLING_RETURN_TOKEN>/pix`: 16 to 200 letters, digits, `-` or `_`. Never logged.',
  },
  BILLING_GRACE_DAYS: {
    section: 'billing',
    default: '`3`',
    meaning: 'Days past its due date a company keeps working before the job `billing.cycle` suspends it.',
  },
  BILLING_INVOICE_LEAD_DAYS: {
    section: 'billing',
    default: '`7`',
    meaning: "How many days before a company's due date `billing.cycle` issues the invoice of its cycle.",
  },
};

/** Which executable reads a variable. */
function readers(name: string, backend: ReadonlySet<string>, runtime: ReadonlySet<string>): string {
  if (backend.has(name) && runtime.has(name)) return 'both';
  return backend.has(name) ? 'backend' : 'runtime';
}

const INTRO = `# Configuration

Every setting is an environment variable; all have defaults. The environment is validated (zod)
before anything else happens: an invalid value, a port in use, an unwritable \`DATA_DIR\`, or a
database or broker that does not answer stops the start with one line naming the setting, and exit
code 1 — \`startup failed: JWT_SECRET: must be at least 32 characters\`, \`startup failed: PORT:
127.0.0.1:8080 is already in use\`, \`startup failed: DATABASE_URL: cannot connect: connect ECONNREFUSED …\`.
Nothing is migrated, seeded or claimed before the configuration is valid and the port free. The
channel runtime's executable does the same with its variables. A Redis that is down does not stop the
start: what needs it answers 503 \`ERR_CACHE_UNAVAILABLE\` and \`GET /debug-queues\` reports it.

This page is generated (\`npm run docs:config\`) from \`packages/backend/src/configuration-reference.ts\`,
which the type-check keeps in step with the schemas that read the variables; \`.env.example\` lists the
same variables. "Read by" says which executable reads it: the backend (\`npm start\`, \`npm run start:backend\`),
the channel runtime (\`npm run start:channel-runtime\`; the embedded runtime of \`npm start\` takes the backend's), or both.
`;

const OUTRO = `
Test-only variables: \`TEST_DATABASE_URL\`, \`TEST_REDIS_URL\`, \`TEST_NATS_URL\` make the contract and
black-box suites also run against real PostgreSQL, Redis and NATS (CI sets all three).
`;

/** docs/configuration.md. */
export function configurationMarkdown(backendNames: readonly string[], runtimeNames: readonly string[]): string {
  const backend = new Set(backendNames);
  const runtime = new Set(runtimeNames);
  const parts = [INTRO];
  for (const section of SECTIONS) {
    parts.push(`\n## ${section.title}\n\n| Variable | Read by | Default | Meaning |\n|---|---|---|---|`);
    for (const [name, doc] of Object.entries(CONFIGURATION) as Array<[string, VariableDoc]>) {
      if (doc.section === section.key) parts.push(`| \`${name}\` | ${readers(name, backend, runtime)} | ${doc.default} | ${doc.meaning} |`);
    }
  }
  parts.push(OUTRO);
  return `${parts.join('\n')}`;
}

/** Words wrapped to lines of at most `width` characters, each prefixed with `# `. */
function comment(text: string, width = 98): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.replace(/\[([^\]]+)\]\([^)]+\)/g, '$1').split(/\s+/)) {
    if (line && line.length + word.length + 1 > width) {
      lines.push(`# ${line}`);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(`# ${line}`);
  return lines;
}

/** .env.example: every variable, commented out at its default (a literal default is written; otherwise empty). */
export function envExample(): string {
  const out = [
    '# Every variable the backend and the channel runtime read, at its default (docs/configuration.md).',
    '# Generated by `npm run docs:config`; uncomment what you change.',
  ];
  for (const section of SECTIONS) {
    out.push('', `# --- ${section.title} ---`);
    for (const [name, doc] of Object.entries(CONFIGURATION) as Array<[string, VariableDoc]>) {
      if (doc.section !== section.key) continue;
      const literal = /^`([^`]*)`$/.exec(doc.default);
      out.push(...comment(`${doc.meaning} Default: ${doc.default.replace(/`/g, '')}.`), `# ${name}=${literal && !/[$<]/.test(literal[1]!) ? literal[1] : ''}`);
    }
  }
  return `${out.join('\n')}\n`;
}
