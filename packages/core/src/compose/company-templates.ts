import type { CompanyTemplates } from '../company-templates/ports.js';
import {
  CreateCompanyTemplate,
  DeleteCompanyTemplate,
  ListCompanyTemplates,
  ShowCompanyTemplate,
  UpdateCompanyTemplate,
} from '../company-templates/manage-company-templates.js';
import { TicketTemplateRenderer } from '../company-templates/render-template.js';
import type { SharedPorts } from './shared-ports.js';

/** The company templates' own port. */
export interface CompanyTemplatePorts {
  readonly companyTemplates: CompanyTemplates;
}

/** Company templates: the operators' reusable messages (global or personal), with variables and an optional file. */
export function createCompanyTemplates(p: CompanyTemplatePorts & SharedPorts) {
  const { companyTemplates: templates, blobs, realtime, tx, clock, ids } = p;
  const writes = { templates, blobs, tx, clock, ids, realtime };
  return {
    listCompanyTemplates: new ListCompanyTemplates({ templates, blobs }),
    showCompanyTemplate: new ShowCompanyTemplate({
      templates,
      blobs,
      clock,
      renderer: new TicketTemplateRenderer({
        tickets: p.tickets,
        users: p.users,
        contacts: p.contacts,
        connections: p.connections,
        queues: p.queues,
        companies: p.companies,
        settings: p.settings,
      }),
    }),
    createCompanyTemplate: new CreateCompanyTemplate(writes),
    updateCompanyTemplate: new UpdateCompanyTemplate(writes),
    deleteCompanyTemplate: new DeleteCompanyTemplate(writes),
  };
}
export type CompanyTemplatesApi = ReturnType<typeof createCompanyTemplates>;
