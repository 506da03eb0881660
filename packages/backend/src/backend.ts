import { createRequire } from 'node:module';
import { connectionRoutes } from '@servicedesk/adapters-http';
import { messageRoutes, ticketRoutes } from '@servicedesk/adapters-http';
import { tagRoutes } from '@servicedesk/adapters-http';
import { contactImportRoutes, contactRoutes } from '@servicedesk/adapters-http';
import { queueIntegrationRoutes, queueOptionRoutes, queueRoutes } from '@servicedesk/adapters-http';
import {
  authRoutes, bearerToken, companyApiRoutes, companyRoutes, createHttpServer, invoiceRoutes, messageApiRoutes, planRoutes, settingRoutes,
  userRoutes, versionRoutes, webhookRoutes, type HttpServer, type RouteSpec, type WebhookSecrets,
} from '@servicedesk/adapters-http';
import {
  assembleRuntime, channelAdminSeedFromEnv, parseConnectors, prepareChannelSchema, RuntimeChannelQueries, type ChannelRuntime, type SandboxConnector,
} from '@servicedesk/channel-runtime';
import {
  INBOUND_SHARDS, INTEGRATION_DELIVER_SUBJECTS, SUBJECTS, type Application, type BrokerSubscription, type ChannelEvent, type IntegrationDeliver,
} from '@servicedesk/core';
import { pino, type Logger } from 'pino';
import { resolveJwtSecret, type BackendConfig } from './config.js';
import { createContainer, openInfrastructure, requestScope, TYPES, type Infrastructure } from './container.js';

const PACKAGE = createRequire(import.meta.url)('@servicedesk/backend/package.json') as { version: string };
export const BACKEND_VERSION = PACKAGE.version;
/** Delivery reports handled at once per backend instance. */
const MESSAGE_EVENT_CONCURRENCY = 8;
/** After the send deadline, how long a send may still be on its way out before the backend fails it. */
const SEND_DEADLINE_MARGIN_MS = 30_000;

/** Every HTTP route of the backend, in the groups of the seed's inventory. */
export function backendRoutes(app: Application, startedAt: Date, messaging: { pokeOutbox: () => void; allowPrivateUrls: boolean }, webhooks: WebhookSecrets): RouteSpec[] {
  return [
    ...webhookRoutes(app, webhooks),
    ...messageApiRoutes(app, messaging),
    ...versionRoutes({ name: 'servicedesk-backend', version: BACKEND_VERSION, startedAt }),
    ...authRoutes(app),
    ...userRoutes(app),
    ...companyRoutes(app),
    ...planRoutes(app),
    ...settingRoutes(app),
    ...companyApiRoutes(app),
    ...invoiceRoutes(app),
    ...connectionRoutes(app),
    ...ticketRoutes(app, { pokeOutbox: messaging.pokeOutbox }),
    ...messageRoutes(app, { pokeOutbox: messaging.pokeOutbox }),
    ...tagRoutes(app),
    ...contactRoutes(app),
    ...contactImportRoutes(app),
    ...queueRoutes(app),
    ...queueOptionRoutes(app),
    ...queueIntegrationRoutes(app),
  ];
}

export interface RunningBackend {
  readonly url: string;
  readonly port: number;
  readonly http: HttpServer;
  readonly app: Application;
  readonly infra: Infrastructure;
  readonly logger: Logger;
  /** The embedded channel runtime, when it runs in this process. */
  readonly runtime: ChannelRuntime | null;
  readonly sandbox: SandboxConnector | null;
  /** Relays the outbox now (also runs periodically). */
  relayOutbox(): Promise<void>;
  close(): Promise<void>;
}

/** Migrates, seeds and serves: the whole backend start-up, shared by `npm start` and the black-box tests. */
export async function startBackend(config: BackendConfig, options: { logger?: Logger; infra?: Infrastructure } = {}): Promise<RunningBackend> {
  const logger = options.logger ?? pino({ level: config.logLevel });
  const infra = options.infra ?? (await openInfrastructure(config));
  const applied = await infra.db.migrate();
  if (applied.length) logger.info({ migrations: applied }, 'database migrated');
  let runtime: ChannelRuntime | null = null;
  let sandbox: SandboxConnector | null = null;
  if (config.channelRuntime === 'embedded') {
    // The channel component keeps its own schema and admin, in the same database as the backend.
    const prepared = await prepareChannelSchema(infra.db, channelAdminSeedFromEnv(process.env));
    if (prepared.migrations.length) logger.info(prepared, 'channel schema migrated');
    ({ runtime, sandbox } = assembleRuntime({
      broker: infra.broker, database: infra.db, logger: logger.child({ component: 'channel-runtime' }), graphApiUrl: config.graphApiUrl,
      connectors: parseConnectors(process.env.CHANNEL_CONNECTORS), sendDeadlineMs: config.sendDeadlineMs,
    }));
  }
  const container = createContainer(config, infra, await resolveJwtSecret(config), runtime ? new RuntimeChannelQueries(runtime) : infra.remoteQueries);
  const app = container.get<Application>(TYPES.Application);
  const scope = requestScope(infra.db);
  const relayOutbox = () => scope(() => app.relayOutbox.execute()).then(
    () => undefined,
    (err) => logger.warn({ err }, 'outbox relay failed; will retry'),
  );
  const pokeOutbox = () => { void relayOutbox(); };
  const seeded = await scope(() => app.seedPlatform.execute({
    adminEmail: config.adminEmail, adminPassword: config.adminPassword, passwordIsDefault: config.adminPasswordIsDefault,
  }));
  if (seeded.createdAdmin) logger.info({ email: config.adminEmail, mustChangePassword: config.adminPasswordIsDefault }, 'seeded the super admin');

  infra.broker.onGiveUp = (envelope, err) => logger.error({ err, id: envelope.id, subject: envelope.subject }, 'broker message given up after repeated failures');
  const applyEvent = (envelope: { payload: unknown }) => scope(() => app.applyChannelEvent.execute(envelope.payload as ChannelEvent));
  // Delivery progress side by side (each change is one forward-only update, so order does not
  // matter); session status and runtime announcements in order; inbound messages in parallel
  // shards, each conversation always in the same shard (so in order).
  const subscriptions: BrokerSubscription[] = [
    await infra.broker.subscribe('backend-message-events', 'evt.message.>', applyEvent, { concurrency: MESSAGE_EVENT_CONCURRENCY }),
    await infra.broker.subscribe('backend-session-events', 'evt.session.>', applyEvent),
    await infra.broker.subscribe('backend-runtime-events', 'evt.runtime.>', applyEvent),
  ];
  for (let shard = 0; shard < INBOUND_SHARDS; shard++) {
    subscriptions.push(await infra.broker.subscribe(`backend-inbound-${shard}`, SUBJECTS.inbound(shard), applyEvent));
  }
  // Queue integrations: the backend consumes its own deliveries, written to the outbox by the inbound path.
  subscriptions.push(await infra.broker.subscribe('backend-integration-deliveries', INTEGRATION_DELIVER_SUBJECTS,
    (envelope) => scope(() => app.deliverIntegrationEvent.execute(envelope.payload as IntegrationDeliver)).then((outcome) => {
      if (outcome !== 'delivered') logger.warn({ outcome, subject: envelope.subject }, 'queue integration delivery not accepted');
    }),
    { maxDeliver: config.integrationMaxDeliver, retryDelayMs: config.integrationRetryDelayMs }));
  await runtime?.start();
  const relayTimer = setInterval(pokeOutbox, config.outboxRelayIntervalMs);
  relayTimer.unref();
  // Sends no channel runtime took before the deadline (plus a margin for one in flight) are failed.
  const expireTimer = setInterval(() => {
    void scope(() => app.expireStaleSends.execute(config.sendDeadlineMs + SEND_DEADLINE_MARGIN_MS)).then(
      (n) => { if (n) logger.warn({ failed: n }, 'sends failed: no channel runtime took them before the deadline'); },
      (err) => logger.warn({ err }, 'could not expire stale sends; will retry'),
    );
  }, Math.min(10_000, config.sendDeadlineMs));
  expireTimer.unref();
  pokeOutbox();

  const http = await createHttpServer({
    app, logger, routes: backendRoutes(app, new Date(), { pokeOutbox, allowPrivateUrls: config.allowPrivateUrls }, config.webhooks),
    connectionAuth: (ctx) => app.authenticateConnection.execute(bearerToken(ctx)), cache: infra.cache, fanout: infra.fanout, blobs: infra.blobs,
    frontendUrls: config.frontendUrls, trustProxy: config.trustProxy, companyToken: config.companyToken,
    info: { title: 'Service Desk backend', version: BACKEND_VERSION }, requestScope: scope,
  });
  const port = await http.listen(config.port, config.host);
  const url = `http://${config.host === '0.0.0.0' ? '127.0.0.1' : config.host}:${port}`;
  logger.info({ url, database: infra.db.kind, routes: http.routes.length }, 'backend listening');
  return {
    url, port, http, app, infra, logger, runtime, sandbox, relayOutbox,
    async close() {
      clearInterval(relayTimer);
      clearInterval(expireTimer);
      await http.close();
      for (const s of subscriptions) await s.stop();
      await runtime?.stop();
      await relayOutbox();
      await infra.close();
    },
  };
}
