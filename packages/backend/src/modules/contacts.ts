import { contactImportRoutes, contactRoutes } from '@servicedesk/adapters-http';
import { contactsRepositories } from '@servicedesk/adapters-persistence';
import { createContacts, type ContactsApi } from '@servicedesk/core';
import { feature, type Feature } from './feature.js';

/** Contacts, their identifiers and imports. */
export const contacts: Feature<object, { contacts: ContactsApi }> = feature({
  name: 'contacts',
  ports: ({ infra }) => contactsRepositories(infra.db.orm),
  api: (ports) => ({ contacts: createContacts(ports) }),
  routes: (app) => [...contactRoutes(app), ...contactImportRoutes(app)],
});
