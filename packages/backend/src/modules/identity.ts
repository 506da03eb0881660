import { authRoutes, SmtpMailer, signupRoutes, userRoutes } from '@servicedesk/adapters-http';
import { createIdentity, type IdentityApi } from '@servicedesk/core';
import { feature, type Feature } from './feature.js';
import { PERSISTENCE_FEATURES, tablesOf } from '@servicedesk/adapters-persistence/features';

/**
 * Sign-in, tokens and users, and the forgotten password: reset links e-mailed through the SMTP
 * server of `SMTP_*` (none: reset requests answer `ERR_MAIL_NOT_CONFIGURED`) to the console at `CONSOLE_URL`.
 */
export const identity: Feature<object, { identity: IdentityApi }> = feature({
  name: 'identity',
  ...tablesOf(PERSISTENCE_FEATURES.passwordResets),
  ports: ({ infra, config }) => ({
    ...PERSISTENCE_FEATURES.identity.repositories(infra.db.orm),
    ...PERSISTENCE_FEATURES.passwordResets.repositories(infra.db.orm),
    mailer: config.smtp ? new SmtpMailer(config.smtp) : undefined,
    consoleUrl: config.consoleUrl,
  }),
  api: (ports) => ({ identity: createIdentity(ports) }),
  // Sign-up answers companies (tenancy's schemas) but sits under `/auth` in the route order.
  routes: (app) => [...authRoutes(app), ...signupRoutes(app), ...userRoutes(app)],
});
