import { companyTemplateRoutes } from '@servicedesk/adapters-http';
import { createCompanyTemplates, type CompanyTemplatesApi } from '@servicedesk/core/compose/company-templates';
import { feature, type Feature } from './feature.js';
import { PERSISTENCE_FEATURES, tablesOf } from '@servicedesk/adapters-persistence/features';

/**
 * Company templates (`/company-templates`): the composer's reusable messages per company, global or
 * personal, their files public blobs under `public/company-<id>/templates/`, typed by their bytes.
 */
export const companyTemplates: Feature<object, { companyTemplates: CompanyTemplatesApi }> = feature({
  name: 'company-templates',
  ...tablesOf(PERSISTENCE_FEATURES.companyTemplates),
  ports: ({ infra }) => PERSISTENCE_FEATURES.companyTemplates.repositories(infra.db.orm),
  api: (ports) => ({ companyTemplates: createCompanyTemplates(ports) }),
  routes: (app) => companyTemplateRoutes(app),
});
