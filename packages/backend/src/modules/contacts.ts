import { contactImportRoutes, contactRoutes } from '@servicedesk/adapters-http';
import { createContacts, type ContactsApi } from '@servicedesk/core';
import { feature, type Feature } from './feature.js';
import { PERSISTENCE_FEATURES } from '@servicedesk/adapters-persistence/features';

/** Contacts, their identifiers and imports. */
export const contacts: Feature<object, { contacts: ContactsApi }> = feature({
  name: 'contacts',
  ports: ({ infra }) => PERSISTENCE_FEATURES.contacts.repositories(infra.db.orm),
  api: (ports) => ({ contacts: createContacts(ports) }),
  routes: (app) => [...contactRoutes(app), ...contactImportRoutes(app)],
});
