import { exitOnStartupFailure } from '@servicedesk/channel-runtime';
import { DETACHED_CHANNEL_QUERIES } from '@servicedesk/core';
import { pino } from 'pino';
import { BACKEND_VERSION } from '../backend.js';
import { readConfig, resolveJwtSecret } from '../config.js';
import { createContainer, requestScope, resolveBackend } from '../container.js';
import { openInfrastructure } from '../infrastructure.js';
import { databaseSchema } from '../modules.js';

/** `npm run seed`: migrates, then creates the default plan, first company and super admin if missing. Failures are one line and exit 1. */
async function seed() {
  const config = readConfig();
  const infra = await openInfrastructure(config, databaseSchema());
  await infra.db.migrate();
  const { app } = resolveBackend(
    createContainer({
      config,
      infra,
      jwtSecret: await resolveJwtSecret(config),
      channelQueries: DETACHED_CHANNEL_QUERIES,
      startedAt: new Date(),
      version: BACKEND_VERSION,
      log: pino({ level: config.logLevel }),
    }),
  );
  const result = await requestScope(infra.db)(() =>
    app.tenancy.seedPlatform.execute({
      adminEmail: config.adminEmail,
      adminPassword: config.adminPassword,
      passwordIsDefault: config.adminPasswordIsDefault,
    }),
  );
  console.log(JSON.stringify(result));
  await infra.close();
}

await seed().catch(exitOnStartupFailure);
