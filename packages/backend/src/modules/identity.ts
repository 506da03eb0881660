import { authRoutes, userRoutes } from '@servicedesk/adapters-http';
import { identityRepositories } from '@servicedesk/adapters-persistence';
import { createIdentity, type IdentityApi } from '@servicedesk/core';
import { feature, type Feature } from './feature.js';

/** Sign-in, tokens and users. */
export const identity: Feature<object, { identity: IdentityApi }> = feature({
  name: 'identity',
  ports: ({ infra }) => identityRepositories(infra.db.orm),
  api: (ports) => ({ identity: createIdentity(ports) }),
  routes: (app) => [...authRoutes(app), ...userRoutes(app)],
});
