import { companyRoutes, planRoutes } from '@servicedesk/adapters-http';
import { createTenancy, type TenancyApi } from '@servicedesk/core';
import { feature, type Feature } from './feature.js';
import { PERSISTENCE_FEATURES } from '@servicedesk/adapters-persistence/features';

/** Companies, plans, sign-up and the platform seed. */
export const tenancy: Feature<object, { tenancy: TenancyApi }> = feature({
  name: 'tenancy',
  ports: ({ infra }) => PERSISTENCE_FEATURES.tenancy.repositories(infra.db.orm),
  api: (ports) => ({ tenancy: createTenancy(ports) }),
  routes: (app) => [...companyRoutes(app), ...planRoutes(app)],
});
