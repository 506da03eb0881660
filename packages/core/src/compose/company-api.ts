import { FindUserByEmail } from '../company-api/find-user-by-email.js';
import { CreateHelp, DeleteHelp, ListHelps, ShowHelp, UpdateHelp } from '../company-api/manage-helps.js';
import { CreateInvoice, DeleteInvoice, ListInvoices, ShowInvoice, UpdateInvoice } from '../company-api/manage-invoices.js';
import { CreatePartner, DeletePartner, ListPartners, ShowPartner, UpdatePartner } from '../company-api/manage-partners.js';
import { CountMessagesInRange, CountPlatformContacts, ListPlatformContacts } from '../company-api/platform-activity.js';
import type { Helps, Invoices, Partners, PlatformActivity } from '../company-api/ports.js';
import type { SharedPorts } from './shared-ports.js';

export interface CompanyApiPorts {
  readonly invoices: Invoices;
  readonly helps: Helps;
  readonly partners: Partners;
  readonly platformActivity: PlatformActivity;
}

/** The company integration API: helps, partners, invoices and platform activity (`app.companyApi`). */
export function createCompanyApi(p: CompanyApiPorts & SharedPorts) {
  const { helps, partners, invoices, users, companies, clock } = p;
  return {
    listHelps: new ListHelps({ helps }),
    showHelp: new ShowHelp({ helps }),
    createHelp: new CreateHelp({ helps, clock }),
    updateHelp: new UpdateHelp({ helps, clock }),
    deleteHelp: new DeleteHelp({ helps }),
    listPartners: new ListPartners({ partners }),
    showPartner: new ShowPartner({ partners }),
    createPartner: new CreatePartner({ partners, clock }),
    updatePartner: new UpdatePartner({ partners, clock }),
    deletePartner: new DeletePartner({ partners }),
    listInvoices: new ListInvoices({ invoices }),
    showInvoice: new ShowInvoice({ invoices }),
    createInvoice: new CreateInvoice({ invoices, companies, clock }),
    updateInvoice: new UpdateInvoice({ invoices, clock }),
    deleteInvoice: new DeleteInvoice({ invoices }),
    findUserByEmail: new FindUserByEmail({ users }),
    listPlatformContacts: new ListPlatformContacts({ activity: p.platformActivity }),
    countPlatformContacts: new CountPlatformContacts({ activity: p.platformActivity }),
    countMessagesInRange: new CountMessagesInRange({ activity: p.platformActivity }),
  };
}

export type CompanyApiApi = ReturnType<typeof createCompanyApi>;
