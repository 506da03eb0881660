import { companyRoutes, planRoutes } from '@servicedesk/adapters-http';
import { tenancyRepositories } from '@servicedesk/adapters-persistence';
import { createTenancy, type TenancyApi } from '@servicedesk/core';
import { feature, type Feature } from './feature.js';

/** Companies, plans, sign-up and the platform seed. */
export const tenancy: Feature<object, { tenancy: TenancyApi }> = feature({
  name: 'tenancy',
  ports: ({ infra }) => tenancyRepositories(infra.db.orm),
  api: (ports) => ({ tenancy: createTenancy(ports) }),
  routes: (app) => [...companyRoutes(app), ...planRoutes(app)],
});
