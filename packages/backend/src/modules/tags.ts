import { tagRoutes, ticketTagRoutes } from '@servicedesk/adapters-http';
import { tagsRepositories } from '@servicedesk/adapters-persistence';
import { createTags, type TagsApi } from '@servicedesk/core';
import { feature, type Feature } from './feature.js';

/** Tags, their links to tickets and contacts, and the kanban. */
export const tags: Feature<object, { tags: TagsApi }> = feature({
  name: 'tags',
  ports: ({ infra }) => tagsRepositories(infra.db.orm),
  api: (ports) => ({ tags: createTags(ports) }),
  routes: (app) => [...tagRoutes(app), ...ticketTagRoutes(app)],
});
