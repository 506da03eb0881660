import { contactListItemRoutes, contactListRoutes } from '@servicedesk/adapters-http';
import { M0014ContactLists } from '@servicedesk/adapters-persistence/contact-lists/m0014-contact-lists';
import { M0016ContactListJobs } from '@servicedesk/adapters-persistence/contact-lists/m0016-contact-list-jobs';
import { contactListsRepositories } from '@servicedesk/adapters-persistence/contact-lists/repository';
import { CONTACT_LIST_SCHEMAS } from '@servicedesk/adapters-persistence/contact-lists/schema';
import { MikroOrmContactListUsage } from '@servicedesk/adapters-persistence/contact-lists/usage';
import { createContactLists, type ContactListsApi } from '@servicedesk/core/compose/contact-lists';
import { contactListJobs } from '@servicedesk/core/contact-lists/jobs';
import { feature, type Feature } from './feature.js';

/**
 * Contact lists and their items (the campaigns' audiences), spreadsheet imports into them (a
 * one-off job per run of batches) and the recurring number check. Which campaigns still read a
 * list comes from the campaigns' table (`MikroOrmContactListUsage`), which the campaigns feature brings.
 */
export const contactLists: Feature<object, { contactLists: ContactListsApi }> = feature({
  name: 'contact-lists',
  entities: CONTACT_LIST_SCHEMAS,
  migrations: [{ name: 'm0014-contact-lists', class: M0014ContactLists }, { name: 'm0016-contact-list-jobs', class: M0016ContactListJobs }],
  ports: ({ infra }) => ({ ...contactListsRepositories(infra.db.orm), contactListUsage: new MikroOrmContactListUsage(infra.db.orm) }),
  api: (ports) => ({ contactLists: createContactLists(ports) }),
  routes: (app) => [...contactListRoutes(app), ...contactListItemRoutes(app)],
  jobs: (app, { config }) => contactListJobs(app.contactLists, {
    checkEveryMs: config.contactListChecks.everyMs, perCompany: config.contactListChecks.perCompany,
    retryErrorsAfterMs: config.contactListChecks.retryErrorsAfterMs, companies: 10,
  }),
});
