import { companyTemplateRoutes } from '@servicedesk/adapters-http';
import { companyTemplatesRepositories, FEATURE_TABLES } from '@servicedesk/adapters-persistence';
import { createCompanyTemplates, type CompanyTemplatesApi } from '@servicedesk/core/compose/company-templates';
import { feature, type Feature } from './feature.js';

/**
 * Company templates (`/company-templates`): the composer's reusable messages per company, global or
 * personal, their files public blobs under `public/company-<id>/templates/`, typed by their bytes.
 */
export const companyTemplates: Feature<object, { companyTemplates: CompanyTemplatesApi }> = feature({
  name: 'company-templates',
  ...FEATURE_TABLES.companyTemplates,
  ports: ({ infra }) => companyTemplatesRepositories(infra.db.orm),
  api: (ports) => ({ companyTemplates: createCompanyTemplates(ports) }),
  routes: (app) => companyTemplateRoutes(app),
});
