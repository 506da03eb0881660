import { readConfig, resolveJwtSecret } from '../config.js';
import { createContainer, openInfrastructure, requestScope, TYPES } from '../container.js';
import type { Application } from '@servicedesk/core';

/** `npm run seed`: migrates, then creates the default plan, first company and super admin if missing. */
const config = readConfig();
const infra = await openInfrastructure(config);
await infra.db.migrate();
const app = createContainer(config, infra, await resolveJwtSecret(config)).get<Application>(TYPES.Application);
const result = await requestScope(infra.db)(() => app.seedPlatform.execute({
  adminEmail: config.adminEmail, adminPassword: config.adminPassword, passwordIsDefault: config.adminPasswordIsDefault,
}));
console.log(JSON.stringify(result));
await infra.close();
