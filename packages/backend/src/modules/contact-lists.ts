import { contactListItemRoutes, contactListRoutes } from '@servicedesk/adapters-http';
import { contactListsRepositories } from '@servicedesk/adapters-persistence/contact-lists/repository';
import { MikroOrmContactListUsage } from '@servicedesk/adapters-persistence/contact-lists/usage';
import { createContactLists, type ContactListsApi } from '@servicedesk/core/compose/contact-lists';
import { contactListJobs } from '@servicedesk/core/contact-lists/jobs';
import { FEATURE_TABLES } from '@servicedesk/adapters-persistence';
import { feature, type Feature } from './feature.js';

/**
 * Contact lists and their items (the campaigns' audiences), spreadsheet imports into them (a
 * one-off job per run of batches) and the recurring number check. Which campaigns still read a
 * list comes from the campaigns' table (`MikroOrmContactListUsage`), which the campaigns feature brings.
 */
export const contactLists: Feature<object, { contactLists: ContactListsApi }> = feature({
  name: 'contact-lists',
  ...FEATURE_TABLES.contactLists,
  ports: ({ infra }) => ({ ...contactListsRepositories(infra.db.orm), contactListUsage: new MikroOrmContactListUsage(infra.db.orm) }),
  api: (ports) => ({ contactLists: createContactLists(ports) }),
  routes: (app) => [...contactListRoutes(app), ...contactListItemRoutes(app)],
  jobs: (app, { config }) =>
    contactListJobs(app.contactLists, {
      checkEveryMs: config.contactListChecks.everyMs,
      perCompany: config.contactListChecks.perCompany,
      retryErrorsAfterMs: config.contactListChecks.retryErrorsAfterMs,
      companies: 10,
    }),
});
