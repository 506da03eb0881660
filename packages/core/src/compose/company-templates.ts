import type { CompanyTemplates } from '../company-templates/ports.js';
import {
  CreateCompanyTemplate,
  DeleteCompanyTemplate,
  ListCompanyTemplates,
  ShowCompanyTemplate,
  UpdateCompanyTemplate,
} from '../company-templates/manage-company-templates.js';
import type { Connections } from '../connections/ports.js';
import type { Contacts } from '../contacts/ports.js';
import type { RealtimeEvent } from '../events/realtime-event.js';
import type { Users } from '../identity/ports.js';
import type { Queues } from '../queues/ports.js';
import type { RealtimeEvents } from '../realtime/ports.js';
import type { Settings } from '../settings/ports.js';
import type { BlobStorage, Clock, IdGenerator, Transaction } from '../shared/ports.js';
import type { Companies } from '../tenancy/ports.js';
import type { Tickets } from '../tickets/ports.js';

/** The company templates' own port. */
export interface CompanyTemplatePorts {
  readonly companyTemplates: CompanyTemplates;
}

interface SharedPorts {
  readonly blobs: BlobStorage;
  readonly realtime: RealtimeEvents<RealtimeEvent>;
  readonly tx: Transaction;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  /** What a template's variables are filled from, for a ticket (`GET /company-templates/:id?ticketId=`). */
  readonly tickets: Tickets;
  readonly users: Users;
  readonly contacts: Contacts;
  readonly connections: Connections;
  readonly queues: Queues;
  readonly companies: Companies;
  readonly settings: Settings;
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
      tickets: p.tickets,
      users: p.users,
      contacts: p.contacts,
      connections: p.connections,
      queues: p.queues,
      companies: p.companies,
      settings: p.settings,
    }),
    createCompanyTemplate: new CreateCompanyTemplate(writes),
    updateCompanyTemplate: new UpdateCompanyTemplate(writes),
    deleteCompanyTemplate: new DeleteCompanyTemplate(writes),
  };
}
export type CompanyTemplatesApi = ReturnType<typeof createCompanyTemplates>;
