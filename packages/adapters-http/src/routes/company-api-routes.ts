import { PLATFORM_INTEGRATION, type Application } from '@servicedesk/core';
import { z } from 'zod';
import { route, type RouteSpec } from '../http/route.js';
import { email, id, idParam, pagedQuery } from '../http/schemas.js';
import { companyFields, createCompanyBody, schedulesBody } from './company-routes.js';
import { createInvoiceBody, invoiceQuery, updateInvoiceBody } from './invoice-routes.js';
import { planBody, planFields } from './plan-routes.js';

const TAG = 'Company integration API (auth: `isAuthCompany`)';
/** The verified caller of every route here: the token names no user or company. */
const actor = PLATFORM_INTEGRATION;

/** Every route of this API has the same auth class and tag, and acts as the platform integrator. */
function api<B = unknown, Q = unknown, P = unknown>(spec: Omit<RouteSpec<B, Q, P>, 'auth' | 'tag'>): RouteSpec {
  return route<B, Q, P>({ ...spec, auth: 'isAuthCompany', tag: TAG });
}

const nullableText = (max: number) => z.string().max(max).nullable();
export const helpBody = z.object({
  title: z.string().trim().min(1).max(200),
  description: nullableText(10_000),
  video: nullableText(500),
  link: nullableText(500),
}).partial();

export const partnerBody = z.object({
  name: z.string().trim().min(2).max(120),
  email: z.string().trim().max(254).email().nullable(),
  phone: nullableText(40),
  document: nullableText(20),
  commission: z.union([z.string().max(20), z.number().nonnegative()]),
  typeCommission: z.enum(['percent', 'fixed']),
  walletId: nullableText(120),
}).partial();

const companyQuery = z.object({ companyId: id.optional() });
const companyPagedQuery = pagedQuery.merge(companyQuery);
const rangeQuery = companyQuery.extend({ dateFrom: z.string().trim().min(1).max(40), dateTo: z.string().trim().min(1).max(40) });
const deleted = (message: string) => ({ message });

/**
 * The company integration API (`/api/*`): a platform-level integrator, authenticated by the
 * static company token, manages plans, companies, helps, partners and invoices and reads counts.
 */
export function companyApiRoutes(app: Application) {
  const byId = idParam('id');
  return [
    api({ method: 'GET', path: '/api/plans', summary: 'List plans', query: z.object({ searchParam: z.string().max(200).optional() }),
      handler: async ({ query }) => app.listPlans.execute({ searchParam: query.searchParam }) }),
    api({ method: 'GET', path: '/api/plans/:id', summary: 'Show a plan', params: byId,
      handler: async ({ params }) => app.showPlan.execute({ planId: params.id }) }),
    api({ method: 'POST', path: '/api/plans', summary: 'Create a plan', status: 201, body: planBody.required({ name: true }),
      handler: async ({ body }) => app.createPlan.execute({ actor, ...planFields(body), name: body.name }) }),
    api({ method: 'PUT', path: '/api/plans/:id', summary: 'Update a plan', params: byId, body: planBody,
      handler: async ({ params, body }) => app.updatePlan.execute({ actor, planId: params.id, ...planFields(body) }) }),
    api({ method: 'DELETE', path: '/api/plans/:id', summary: 'Delete a plan no company uses', params: byId,
      handler: async ({ params }) => { await app.deletePlan.execute({ actor, planId: params.id }); return deleted('Plan deleted'); } }),

    api({ method: 'GET', path: '/api/companies', summary: 'Page through companies', query: pagedQuery,
      handler: async ({ query }) => app.listCompanies.execute({ actor, ...query }) }),
    api({ method: 'GET', path: '/api/companies/:id', summary: 'Show a company', params: byId,
      handler: async ({ params }) => app.showCompany.execute({ actor, companyId: params.id }) }),
    api({ method: 'GET', path: '/api/companiesEmail/:email', summary: 'Find a company by its e-mail', params: z.object({ email }),
      handler: async ({ params }) => app.findCompanyByEmail.execute({ actor, email: params.email }) }),
    api({ method: 'POST', path: '/api/companies', summary: 'Create a company with its admin', status: 201, body: createCompanyBody,
      handler: async ({ body }) => app.createCompany.execute({ actor, ...body }) }),
    api({ method: 'PUT', path: '/api/companies/:id', summary: 'Update a company', params: byId, body: companyFields.partial(),
      handler: async ({ params, body }) => app.updateCompany.execute({ actor, companyId: params.id, ...body }) }),
    api({ method: 'PUT', path: '/api/companies/:id/schedules', summary: "Set a company's business hours", params: byId, body: schedulesBody,
      handler: async ({ params, body }) => app.updateCompanySchedules.execute({ actor, companyId: params.id, schedules: body.schedules }) }),
    api({ method: 'DELETE', path: '/api/companies/:id', summary: 'Delete a company and all it owns', params: byId,
      handler: async ({ params }) => { await app.deleteCompany.execute({ actor, companyId: params.id }); return deleted('Company deleted'); } }),

    api({ method: 'GET', path: '/api/helps', summary: 'Page through helps', query: pagedQuery,
      handler: async ({ query }) => app.listHelps.execute({ actor, ...query }) }),
    api({ method: 'GET', path: '/api/helps/:id', summary: 'Show a help', params: byId,
      handler: async ({ params }) => app.showHelp.execute({ actor, helpId: params.id }) }),
    api({ method: 'POST', path: '/api/helps', summary: 'Create a help', status: 201, body: helpBody.required({ title: true }),
      handler: async ({ body }) => app.createHelp.execute({ actor, ...body }) }),
    api({ method: 'PUT', path: '/api/helps/:id', summary: 'Update a help', params: byId, body: helpBody,
      handler: async ({ params, body }) => app.updateHelp.execute({ actor, helpId: params.id, ...body }) }),
    api({ method: 'DELETE', path: '/api/helps/:id', summary: 'Delete a help', params: byId,
      handler: async ({ params }) => { await app.deleteHelp.execute({ actor, helpId: params.id }); return deleted('Help deleted'); } }),

    api({ method: 'GET', path: '/api/partners', summary: 'Page through partners', query: pagedQuery,
      handler: async ({ query }) => app.listPartners.execute({ actor, ...query }) }),
    api({ method: 'GET', path: '/api/partners/:id', summary: 'Show a partner', params: byId,
      handler: async ({ params }) => app.showPartner.execute({ actor, partnerId: params.id }) }),
    api({ method: 'POST', path: '/api/partners', summary: 'Create a partner', status: 201, body: partnerBody.required({ name: true }),
      handler: async ({ body }) => app.createPartner.execute({ actor, ...body }) }),
    api({ method: 'PUT', path: '/api/partners/:id', summary: 'Update a partner', params: byId, body: partnerBody,
      handler: async ({ params, body }) => app.updatePartner.execute({ actor, partnerId: params.id, ...body }) }),
    api({ method: 'DELETE', path: '/api/partners/:id', summary: 'Delete a partner', params: byId,
      handler: async ({ params }) => { await app.deletePartner.execute({ actor, partnerId: params.id }); return deleted('Partner deleted'); } }),

    api({ method: 'GET', path: '/api/invoices', summary: 'Page through invoices, of every company or one', query: invoiceQuery,
      handler: async ({ query }) => app.listInvoices.execute({ actor, ...query }) }),
    api({ method: 'GET', path: '/api/invoices/:id', summary: 'Show an invoice', params: byId,
      handler: async ({ params }) => app.showInvoice.execute({ actor, invoiceId: params.id }) }),
    api({ method: 'GET', path: '/api/invoicesCompany/:companyId', summary: "Page through a company's invoices",
      params: idParam('companyId'), query: pagedQuery,
      handler: async ({ params, query }) => app.listInvoices.execute({ actor, ...query, companyId: params.companyId }) }),
    api({ method: 'POST', path: '/api/invoices', summary: 'Bill a company', status: 201, body: createInvoiceBody,
      handler: async ({ body }) => app.createInvoice.execute({ actor, ...body }) }),
    api({ method: 'PUT', path: '/api/invoices/:id', summary: 'Update an invoice', params: byId, body: updateInvoiceBody,
      handler: async ({ params, body }) => app.updateInvoice.execute({ actor, invoiceId: params.id, ...body }) }),
    api({ method: 'DELETE', path: '/api/invoices/:id', summary: 'Delete an invoice', params: byId,
      handler: async ({ params }) => { await app.deleteInvoice.execute({ actor, invoiceId: params.id }); return deleted('Invoice deleted'); } }),

    api({ method: 'GET', path: '/api/users/:email', summary: 'Find a user by login e-mail', params: z.object({ email }),
      handler: async ({ params }) => app.findUserByEmail.execute({ actor, email: params.email }) }),
    api({ method: 'GET', path: '/api/contacts', summary: 'Page through contacts, of every company or one', query: companyPagedQuery,
      handler: async ({ query }) => app.listPlatformContacts.execute({ actor, ...query }) }),
    api({ method: 'GET', path: '/api/contacts-count', summary: 'Count contacts, of every company or one', query: companyQuery,
      handler: async ({ query }) => app.countPlatformContacts.execute({ actor, companyId: query.companyId }) }),
    api({ method: 'GET', path: '/api/messagesRange', summary: 'Count messages between two dates (inclusive)', query: rangeQuery,
      handler: async ({ query }) => app.countMessagesInRange.execute({ actor, ...query }) }),
  ];
}
