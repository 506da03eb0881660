import { tagRoutes, ticketTagRoutes } from '@servicedesk/adapters-http';
import { createTags, type TagsApi } from '@servicedesk/core';
import { feature, type Feature } from './feature.js';
import { PERSISTENCE_FEATURES } from '@servicedesk/adapters-persistence/features';

/** Tags, their links to tickets and contacts, and the kanban. */
export const tags: Feature<object, { tags: TagsApi }> = feature({
  name: 'tags',
  ports: ({ infra }) => PERSISTENCE_FEATURES.tags.repositories(infra.db.orm),
  api: (ports) => ({ tags: createTags(ports) }),
  routes: (app) => [...tagRoutes(app), ...ticketTagRoutes(app)],
});
