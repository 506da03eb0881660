import { createRequire } from 'node:module';
import {
  authRoutes, companyRoutes, createHttpServer, planRoutes, settingRoutes, userRoutes, versionRoutes, type HttpServer, type RouteSpec,
} from '@servicedesk/adapters-http';
import { companyApiRoutes, invoiceRoutes } from '@servicedesk/adapters-http';
import type { Application } from '@servicedesk/core';
import { pino, type Logger } from 'pino';
import { resolveJwtSecret, type BackendConfig } from './config.js';
import { createContainer, openInfrastructure, requestScope, TYPES, type Infrastructure } from './container.js';

const PACKAGE = createRequire(import.meta.url)('@servicedesk/backend/package.json') as { version: string };
export const BACKEND_VERSION = PACKAGE.version;

/** Every HTTP route of the backend, in the groups of the seed's inventory. */
export function backendRoutes(app: Application, startedAt: Date): RouteSpec[] {
  return [
    ...versionRoutes({ name: 'servicedesk-backend', version: BACKEND_VERSION, startedAt }),
    ...authRoutes(app),
    ...userRoutes(app),
    ...companyRoutes(app),
    ...planRoutes(app),
    ...settingRoutes(app),
    ...companyApiRoutes(app),
    ...invoiceRoutes(app),
  ];
}

export interface RunningBackend {
  readonly url: string;
  readonly port: number;
  readonly http: HttpServer;
  readonly app: Application;
  readonly infra: Infrastructure;
  readonly logger: Logger;
  close(): Promise<void>;
}

/** Migrates, seeds and serves: the whole backend start-up, shared by `npm start` and the black-box tests. */
export async function startBackend(config: BackendConfig, options: { logger?: Logger; infra?: Infrastructure } = {}): Promise<RunningBackend> {
  const logger = options.logger ?? pino({ level: config.logLevel });
  const infra = options.infra ?? (await openInfrastructure(config));
  const applied = await infra.db.migrate();
  if (applied.length) logger.info({ migrations: applied }, 'database migrated');
  const container = createContainer(config, infra, await resolveJwtSecret(config));
  const app = container.get<Application>(TYPES.Application);
  const scope = requestScope(infra.db);
  const seeded = await scope(() => app.seedPlatform.execute({
    adminEmail: config.adminEmail, adminPassword: config.adminPassword, passwordIsDefault: config.adminPasswordIsDefault,
  }));
  if (seeded.createdAdmin) logger.info({ email: config.adminEmail, mustChangePassword: config.adminPasswordIsDefault }, 'seeded the super admin');

  const http = await createHttpServer({
    app, logger, routes: backendRoutes(app, new Date()), cache: infra.cache, fanout: infra.fanout, blobs: infra.blobs,
    frontendUrls: config.frontendUrls, trustProxy: config.trustProxy, companyToken: config.companyToken,
    info: { title: 'Service Desk backend', version: BACKEND_VERSION }, requestScope: scope,
  });
  const port = await http.listen(config.port, config.host);
  const url = `http://${config.host === '0.0.0.0' ? '127.0.0.1' : config.host}:${port}`;
  logger.info({ url, database: infra.db.kind, routes: http.routes.length }, 'backend listening');
  return {
    url, port, http, app, infra, logger,
    async close() {
      await http.close();
      await infra.close();
    },
  };
}
