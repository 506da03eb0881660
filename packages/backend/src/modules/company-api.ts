import { companyApiRoutes, invoiceRoutes } from '@servicedesk/adapters-http';
import { createCompanyApi, type CompanyApiApi } from '@servicedesk/core';
import { feature, type Feature } from './feature.js';
import { PERSISTENCE_FEATURES } from '@servicedesk/adapters-persistence/features';

/** The company integration API (`/api/*` behind COMPANY_TOKEN) and the invoices companies read. */
export const companyApi: Feature<object, { companyApi: CompanyApiApi }> = feature({
  name: 'company-api',
  ports: ({ infra }) => PERSISTENCE_FEATURES.companyApi.repositories(infra.db.orm),
  api: (ports) => ({ companyApi: createCompanyApi(ports) }),
  routes: (app) => [...companyApiRoutes(app), ...invoiceRoutes(app)],
});
