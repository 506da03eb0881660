import { contactListItemRoutes, contactListRoutes } from '@servicedesk/adapters-http';
import { createContactLists, type ContactListsApi } from '@servicedesk/core/compose/contact-lists';
import { contactListJobs } from '@servicedesk/core/contact-lists/jobs';
import { feature, type Feature } from './feature.js';
import { PERSISTENCE_FEATURES, tablesOf } from '@servicedesk/adapters-persistence/features';

/**
 * Contact lists and their items (the campaigns' audiences), spreadsheet imports into them (a
 * one-off job per run of batches) and the recurring number check. Which campaigns still read a
 * list comes from the campaigns' table (`MikroOrmContactListUsage`), which the campaigns feature brings.
 */
export const contactLists: Feature<object, { contactLists: ContactListsApi }> = feature({
  name: 'contact-lists',
  ...tablesOf(PERSISTENCE_FEATURES.contactLists),
  ports: ({ infra }) => PERSISTENCE_FEATURES.contactLists.repositories(infra.db.orm),
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
