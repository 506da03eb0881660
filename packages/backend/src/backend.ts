import { createRequire } from 'node:module';
import { bearerToken, builtConsole, createHttpServer, type HttpServer, type RouteSpec } from '@servicedesk/adapters-http';
import {
  assembleRuntime,
  assertPortFree,
  assertWritableDir,
  channelAdminSeedFromEnv,
  during,
  prepareChannelSchema,
  RuntimeChannelQueries,
  type ChannelRuntime,
  type SandboxConnector,
} from '@servicedesk/channel-runtime';
import { hostname } from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { DETACHED_CHANNEL_QUERIES, JobRunner, realtimeViewer, type BrokerEnvelope, type BrokerSubscription } from '@servicedesk/core';
import { inBackground } from '@servicedesk/adapters-persistence';
import { pino, type Logger } from 'pino';
import { resolveJwtSecret, type BackendConfig } from './config.js';
import { createContainer, requestScope, resolveBackend } from './container.js';
import { openInfrastructure, routeBlobsByCompany, type Infrastructure } from './infrastructure.js';
import { databaseSchema, type BackendApplication } from './modules.js';
import type { Feature } from './modules/feature.js';

const PACKAGE = createRequire(import.meta.url)('@servicedesk/backend/package.json') as { version: string };

/** Where `vite build` writes the operator console (packages/console), served at /app/ when built. */
function consoleDist(): string {
  try {
    return path.join(path.dirname(createRequire(import.meta.url).resolve('@servicedesk/console/package.json')), 'dist', 'web');
  } catch {
    return '';
  }
}
export const BACKEND_VERSION = PACKAGE.version;
/** Job polling: never slower than this, nor than the most frequent recurring job. */
const MAX_JOB_POLL_MS = 1000;

export interface RunningBackend {
  readonly url: string;
  readonly port: number;
  readonly http: HttpServer;
  readonly app: BackendApplication;
  /** Every HTTP route the backend serves, in the order of the module list. */
  readonly routes: readonly RouteSpec[];
  readonly infra: Infrastructure;
  readonly logger: Logger;
  /** The embedded channel runtime, when it runs in this process. */
  readonly runtime: ChannelRuntime | null;
  readonly sandbox: SandboxConnector | null;
  /** Runs the features' background jobs in this instance. */
  readonly jobs: JobRunner;
  /** Relays the outbox now (also runs periodically). */
  relayOutbox(): Promise<void>;
  close(): Promise<void>;
}

export interface StartOptions {
  readonly logger?: Logger;
  readonly infra?: Infrastructure;
  /** Check every route's answer against its response schema (500 on a mismatch); the black-box tests turn it on. */
  readonly validateResponses?: boolean;
  /** The features served, `FEATURES` unless given (a test adds one of its own). */
  readonly features?: readonly Feature<any, any>[];
}

/** Migrates, seeds and serves: the whole backend start-up, shared by `npm start` and the black-box tests. */
export async function startBackend(config: BackendConfig, options: StartOptions = {}): Promise<RunningBackend> {
  const logger = options.logger ?? pino({ level: config.logLevel });
  // Nothing is migrated, seeded or claimed before the port is known to be free and DATA_DIR writable.
  await assertPortFree('PORT', config.port, config.host);
  if (!config.databaseUrl || config.blobStorage === 'local' || !config.jwtSecret) await assertWritableDir('DATA_DIR', config.dataDir);
  const jwtSecret = await during('DATA_DIR', 'cannot keep the generated JWT secret', () => resolveJwtSecret(config));
  // Every blob of the product goes through the routing by company (a company's own bucket, else the default store).
  const infra = routeBlobsByCompany(options.infra ?? (await openInfrastructure(config, databaseSchema(options.features), logger)), config, jwtSecret, logger);
  const applied = await infra.db.migrate();
  if (applied.length) logger.info({ migrations: applied }, 'database migrated');
  let runtime: ChannelRuntime | null = null;
  let sandbox: SandboxConnector | null = null;
  let recordInbound: (events: readonly BrokerEnvelope[]) => Promise<void> = async () => {
    throw new Error('inbound message before the backend started');
  };
  if (config.channelRuntime === 'embedded') {
    // The channel component keeps its own schema and admin, in the same database as the backend.
    const prepared = await prepareChannelSchema(infra.db, channelAdminSeedFromEnv(process.env));
    if (prepared.migrations.length) logger.info(prepared, 'channel schema migrated');
    ({ runtime, sandbox } = assembleRuntime({
      broker: infra.broker,
      database: infra.db,
      logger: logger.child({ component: 'channel-runtime' }),
      graphApiUrl: config.graphApiUrl,
      connectors: config.channelConnectors,
      sendDeadlineMs: config.sendDeadlineMs,
      sandboxEcho: config.sandboxEcho,
      // Without BROKER_URL the broker is in-process and a crash loses what it holds: what the
      // connectors take goes to the outbox first (JetStream's acknowledgement is durable itself).
      ...(config.brokerUrl ? {} : { recordInbound: (events: readonly BrokerEnvelope[]) => recordInbound(events) }),
    }));
  }
  const container = createContainer(
    {
      config,
      infra,
      jwtSecret,
      log: logger,
      startedAt: new Date(),
      version: BACKEND_VERSION,
      channelQueries: runtime ? new RuntimeChannelQueries(runtime) : (infra.remoteQueries ?? DETACHED_CHANNEL_QUERIES),
    },
    options.features,
  );
  const { app, routes, consumers, jobs, ports } = resolveBackend(container);
  const scope = requestScope(infra.db);
  // Consumers, jobs and the relay are background work: on the embedded database (one connection)
  // a request waiting for it goes first.
  const backgroundScope = <T>(work: () => Promise<T>) => inBackground(() => scope(work));
  // In a unit of work of its own, as the relay after each commit runs: now, and at close.
  const relayOutbox = () =>
    ports.tx
      .runApart(() => app.outbox.relayOutbox.execute())
      .then(
        () => undefined,
        (err) => logger.warn({ err }, 'outbox relay failed; will retry'),
      );
  // In a unit of work of its own: a connector calls from wherever its provider's event arrived.
  recordInbound = (events) => scope(() => app.outbox.recordEvents.execute(events));
  const seeded = await scope(() =>
    app.tenancy.seedPlatform.execute({
      adminEmail: config.adminEmail,
      adminPassword: config.adminPassword,
      passwordIsDefault: config.adminPasswordIsDefault,
    }),
  );
  if (seeded.createdAdmin) logger.info({ email: config.adminEmail, mustChangePassword: config.adminPasswordIsDefault }, 'seeded the super admin');

  infra.broker.onGiveUp = (envelope, err) =>
    logger.error({ err, id: envelope.id, subject: envelope.subject }, 'broker message given up after repeated failures');
  const subscriptions: BrokerSubscription[] = [];
  for (const consumer of consumers) {
    subscriptions.push(
      await infra.broker.subscribe(consumer.durable, consumer.subject, (envelope) => backgroundScope(() => consumer.handle(envelope)), consumer.options),
    );
  }
  await runtime?.start();
  // Background work of every feature, claimed in the database: any number of instances share it.
  const runner = new JobRunner({
    store: ports.jobStore,
    transaction: ports.tx,
    definitions: jobs,
    clock: ports.clock,
    scope: backgroundScope,
    owner: `backend-${hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`,
    logger: logger.child({ component: 'jobs' }),
    pollMs: Math.max(50, Math.min(MAX_JOB_POLL_MS, ...jobs.flatMap((j) => (j.every ? [j.every] : [])))),
    // PGlite has one connection: a job's transaction would hold it while a second job waits.
    concurrency: infra.db.kind === 'pglite' ? 1 : 4,
  });
  await runner.start();
  void relayOutbox();

  const http = await createHttpServer({
    app,
    logger,
    routes,
    connectionAuth: (ctx) => app.connections.authenticateConnection.execute(bearerToken(ctx)),
    cache: infra.cache,
    fanout: infra.fanout,
    blobs: infra.blobs,
    realtimeViewer: (actor) => realtimeViewer(ports, actor),
    realtimeTicket: (companyId, ticketId) => ports.tickets.findById(companyId, ticketId),
    frontendUrls: config.frontendUrls,
    trustProxy: config.trustProxy,
    companyToken: config.companyToken,
    info: { title: 'Service Desk backend', version: BACKEND_VERSION },
    requestScope: scope,
    consoleDir: builtConsole(consoleDist()),
    ...(options.validateResponses ? { validateResponses: true } : {}),
  });
  const port = await during('PORT', `cannot listen on ${config.host}:${config.port}`, () => http.listen(config.port, config.host));
  const url = `http://${config.host === '0.0.0.0' ? '127.0.0.1' : config.host}:${port}`;
  logger.info({ url, database: infra.db.kind, routes: http.routes.length }, 'backend listening');
  logger.info(
    { console: http.consoleServed ? `${url}/app/` : null, login: `POST ${url}/auth/login`, email: config.adminEmail, docs: `${url}/docs` },
    `${http.consoleServed ? `console: ${url}/app/; ` : ''}log in: POST ${url}/auth/login with {"email":"${config.adminEmail}","password":…}${config.adminPasswordIsDefault ? ` (the default password ${config.adminPassword} must be changed at first access)` : ' (ADMIN_PASSWORD)'}; API reference at ${url}/docs`,
  );
  return {
    url,
    port,
    http,
    app,
    routes,
    infra,
    logger,
    runtime,
    sandbox,
    jobs: runner,
    relayOutbox: () => relayOutbox(),
    async close() {
      await http.close();
      await runner.stop();
      for (const s of subscriptions) await s.stop();
      await runtime?.stop();
      await relayOutbox();
      await infra.close();
    },
  };
}
