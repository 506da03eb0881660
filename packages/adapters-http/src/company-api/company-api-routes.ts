import { PLATFORM_INTEGRATION, type Application, type ErrorCode } from '@servicedesk/core';
import { z } from 'zod';
import { route, type RouteSpec } from '../http/route.js';
import { email, id, idParam, pagedQuery } from '../http/schemas.js';
import { companyFields, createCompanyBody, schedulesBody } from '../tenancy/company-routes.js';
import { createInvoiceBody, invoiceQuery, updateInvoiceBody } from './invoice-routes.js';
import { planBody, planFields } from '../tenancy/plan-routes.js';
import { userViewSchema as userSchema } from '../identity/user-schemas.js';
import { companyPageSchema, companyViewSchema, onboardedCompanySchema } from '../tenancy/company-schemas.js';
import { planListSchema, planViewSchema } from '../tenancy/plan-schemas.js';
import {
  contactCountSchema,
  deletedSchema,
  helpPageSchema,
  helpSchema,
  invoicePageSchema,
  invoiceSchema,
  messageRangeCountSchema,
  partnerPageSchema,
  partnerSchema,
  platformContactPageSchema,
} from './company-api-schemas.js';

const TAG = 'Company integration API (auth: `isAuthCompany`)';
/** The verified caller of every route here: the token names no user or company. */
const actor = PLATFORM_INTEGRATION;

/** Every route of this API has the same auth class and tag, and acts as the platform integrator. */
function api<B = unknown, Q = unknown, P = unknown, R extends z.ZodType = z.ZodType, S extends number = number>(
  spec: Omit<RouteSpec<B, Q, P, R, S>, 'auth' | 'tag'>,
): RouteSpec {
  return route<B, Q, P, R, S>({ ...spec, auth: 'isAuthCompany', tag: TAG });
}

const nullableText = (max: number) => z.string().max(max).nullable();
export const helpBody = z
  .object({
    title: z.string().trim().min(1).max(200),
    description: nullableText(10_000),
    video: nullableText(500),
    link: nullableText(500),
  })
  .partial();

export const partnerBody = z
  .object({
    name: z.string().trim().min(2).max(120),
    email: z.string().trim().max(254).email().nullable(),
    phone: nullableText(40),
    document: nullableText(20),
    commission: z.union([z.string().max(20), z.number().nonnegative()]),
    typeCommission: z.enum(['percent', 'fixed']),
    walletId: nullableText(120),
  })
  .partial();

const companyQuery = z.object({ companyId: id.optional() });
const companyPagedQuery = pagedQuery.merge(companyQuery);
const rangeQuery = companyQuery.extend({ dateFrom: z.string().trim().min(1).max(40), dateTo: z.string().trim().min(1).max(40) });
const deleted = (message: string) => ({ message });

const PLAN_FIELD_ERRORS: ErrorCode[] = ['ERR_INVALID_PLAN_NAME', 'ERR_INVALID_PLAN_AMOUNT', 'ERR_INVALID_PLAN_LIMIT'];
const COMPANY_FIELD_ERRORS: ErrorCode[] = [
  'ERR_INVALID_COMPANY_NAME',
  'ERR_INVALID_EMAIL',
  'ERR_INVALID_DOCUMENT',
  'ERR_INVALID_DUE_DATE',
  'ERR_INVALID_SCHEDULES',
  'ERR_INVALID_NAME',
  'ERR_PASSWORD_TOO_SHORT',
  'ERR_PASSWORD_TOO_LONG',
];
const HELP_FIELD_ERRORS: ErrorCode[] = ['ERR_INVALID_HELP_TITLE', 'ERR_INVALID_HELP_DESCRIPTION', 'ERR_INVALID_HELP_VIDEO', 'ERR_INVALID_HELP_LINK'];
const PARTNER_FIELD_ERRORS: ErrorCode[] = [
  'ERR_INVALID_PARTNER_NAME',
  'ERR_INVALID_EMAIL',
  'ERR_INVALID_PARTNER_PHONE',
  'ERR_INVALID_DOCUMENT',
  'ERR_INVALID_PARTNER_COMMISSION',
  'ERR_INVALID_PARTNER_COMMISSION_TYPE',
  'ERR_INVALID_PARTNER_WALLET',
];
const INVOICE_FIELD_ERRORS: ErrorCode[] = [
  'ERR_INVALID_INVOICE_DETAIL',
  'ERR_INVALID_INVOICE_VALUE',
  'ERR_INVALID_INVOICE_DUE_DATE',
  'ERR_INVALID_INVOICE_STATUS',
];

/**
 * The company integration API (`/api/*`): a platform-level integrator, authenticated by the
 * static company token, manages plans, companies, helps, partners and invoices and reads counts.
 */
export function companyApiRoutes(app: Pick<Application, 'companyApi' | 'tenancy'>) {
  const byId = idParam('id');
  return [
    api({
      method: 'GET',
      path: '/api/plans',
      summary: 'List plans',
      query: z.object({ searchParam: z.string().max(200).optional() }),
      description: 'Every plan, public or not, found by `searchParam` in the name.',
      response: planListSchema,
      handler: async ({ query }) => app.tenancy.listPlans.execute({ actor, searchParam: query.searchParam }),
    }),
    api({
      method: 'GET',
      path: '/api/plans/:id',
      summary: 'Show a plan',
      params: byId,
      description: 'One plan with its limits, price and feature flags.',
      response: planViewSchema,
      errors: [{ status: 404, codes: ['ERR_NO_PLAN_FOUND'] }],
      handler: async ({ params }) => app.tenancy.showPlan.execute({ actor, planId: params.id }),
    }),
    api({
      method: 'POST',
      path: '/api/plans',
      summary: 'Create a plan',
      status: 201,
      body: planBody.required({ name: true }),
      description: 'Adds a plan; its name must be unused.',
      response: planViewSchema,
      errors: [
        { status: 409, codes: ['ERR_PLAN_NAME_ALREADY_EXISTS'] },
        { status: 422, codes: PLAN_FIELD_ERRORS },
      ],
      handler: async ({ body }) => app.tenancy.createPlan.execute({ actor, ...planFields(body), name: body.name }),
    }),
    api({
      method: 'PUT',
      path: '/api/plans/:id',
      summary: 'Update a plan',
      params: byId,
      body: planBody,
      description: 'Changes the fields given; the companies on the plan get its new limits and features at once.',
      response: planViewSchema,
      errors: [
        { status: 404, codes: ['ERR_NO_PLAN_FOUND'] },
        { status: 409, codes: ['ERR_PLAN_NAME_ALREADY_EXISTS'] },
        { status: 422, codes: PLAN_FIELD_ERRORS },
      ],
      handler: async ({ params, body }) => app.tenancy.updatePlan.execute({ actor, planId: params.id, ...planFields(body) }),
    }),
    api({
      method: 'DELETE',
      path: '/api/plans/:id',
      summary: 'Delete a plan no company uses',
      params: byId,
      description: 'Removes the plan; a plan some company is on is refused.',
      response: deletedSchema,
      errors: [
        { status: 404, codes: ['ERR_NO_PLAN_FOUND'] },
        { status: 409, codes: ['ERR_PLAN_IN_USE'] },
      ],
      handler: async ({ params }) => {
        await app.tenancy.deletePlan.execute({ actor, planId: params.id });
        return deleted('Plan deleted');
      },
    }),

    api({
      method: 'GET',
      path: '/api/companies',
      summary: 'Page through companies',
      query: pagedQuery,
      description: 'A page (20) of every company, found by `searchParam`.',
      response: companyPageSchema,
      handler: async ({ query }) => app.tenancy.listCompanies.execute({ actor, ...query }),
    }),
    api({
      method: 'GET',
      path: '/api/companies/:id',
      summary: 'Show a company',
      params: byId,
      description: 'Any company.',
      response: companyViewSchema,
      errors: [{ status: 404, codes: ['ERR_NO_COMPANY_FOUND'] }],
      handler: async ({ params }) => app.tenancy.showCompany.execute({ actor, companyId: params.id }),
    }),
    api({
      method: 'GET',
      path: '/api/companiesEmail/:email',
      summary: 'Find a company by its e-mail',
      params: z.object({ email }),
      description: 'The company whose contact e-mail this is (compared lower-cased).',
      response: companyViewSchema,
      errors: [{ status: 404, codes: ['ERR_NO_COMPANY_FOUND'] }],
      handler: async ({ params }) => app.tenancy.findCompanyByEmail.execute({ actor, email: params.email }),
    }),
    api({
      method: 'POST',
      path: '/api/companies',
      summary: 'Create a company with its admin',
      status: 201,
      body: createCompanyBody,
      description:
        'Creates a company on a plan together with its first admin (named and addressed like the company unless ' + '`adminName`/`adminEmail` say otherwise).',
      response: onboardedCompanySchema,
      errors: [
        { status: 404, codes: ['ERR_NO_PLAN_FOUND'] },
        { status: 409, codes: ['ERR_EMAIL_ALREADY_EXISTS'] },
        { status: 422, codes: COMPANY_FIELD_ERRORS },
      ],
      handler: async ({ body }) => app.tenancy.createCompany.execute({ actor, ...body }),
    }),
    api({
      method: 'PUT',
      path: '/api/companies/:id',
      summary: 'Update a company',
      params: byId,
      body: companyFields.partial(),
      description:
        'Changes the fields given: contact data, status (inactive companies cannot log in), plan, due date, recurrence. ' +
        "The company's users get a `company` event (action `update`).",
      response: companyViewSchema,
      errors: [
        { status: 404, codes: ['ERR_NO_COMPANY_FOUND', 'ERR_NO_PLAN_FOUND'] },
        { status: 422, codes: COMPANY_FIELD_ERRORS },
      ],
      handler: async ({ params, body }) => app.tenancy.updateCompany.execute({ actor, companyId: params.id, ...body }),
    }),
    api({
      method: 'PUT',
      path: '/api/companies/:id/schedules',
      summary: "Set a company's business hours",
      params: byId,
      body: schedulesBody,
      description: "Replaces the company's business hours with the slots given; the company's users get a `company` event (action `update`).",
      response: companyViewSchema,
      errors: [
        { status: 404, codes: ['ERR_NO_COMPANY_FOUND'] },
        { status: 422, codes: ['ERR_INVALID_SCHEDULES'] },
      ],
      handler: async ({ params, body }) => app.tenancy.updateCompanySchedules.execute({ actor, companyId: params.id, schedules: body.schedules }),
    }),
    api({
      method: 'DELETE',
      path: '/api/companies/:id',
      summary: 'Delete a company and all it owns',
      params: byId,
      description:
        "Removes the company with its users, connections, contacts, tickets and the rest; the platform's own company " +
        '(the one with super users) is refused.',
      response: deletedSchema,
      errors: [
        { status: 404, codes: ['ERR_NO_COMPANY_FOUND'] },
        { status: 422, codes: ['ERR_CANNOT_DELETE_PLATFORM_COMPANY'] },
      ],
      handler: async ({ params }) => {
        await app.tenancy.deleteCompany.execute({ actor, companyId: params.id });
        return deleted('Company deleted');
      },
    }),

    api({
      method: 'GET',
      path: '/api/helps',
      summary: 'Page through helps',
      query: pagedQuery,
      description: 'A page (20) of the platform-wide help catalog, by title, found by `searchParam` in the title.',
      response: helpPageSchema,
      handler: async ({ query }) => app.companyApi.listHelps.execute({ actor, ...query }),
    }),
    api({
      method: 'GET',
      path: '/api/helps/:id',
      summary: 'Show a help',
      params: byId,
      description: 'One help article of the platform catalog.',
      response: helpSchema,
      errors: [{ status: 404, codes: ['ERR_NO_HELP_FOUND'] }],
      handler: async ({ params }) => app.companyApi.showHelp.execute({ actor, helpId: params.id }),
    }),
    api({
      method: 'POST',
      path: '/api/helps',
      summary: 'Create a help',
      status: 201,
      body: helpBody.required({ title: true }),
      description: "Adds an article to the help catalog every company's operators see; blank optional fields are stored as null (an empty `description`).",
      response: helpSchema,
      errors: [{ status: 422, codes: HELP_FIELD_ERRORS }],
      handler: async ({ body }) => app.companyApi.createHelp.execute({ actor, ...body }),
    }),
    api({
      method: 'PUT',
      path: '/api/helps/:id',
      summary: 'Update a help',
      params: byId,
      body: helpBody,
      description: 'Changes the fields given; the others stay.',
      response: helpSchema,
      errors: [
        { status: 404, codes: ['ERR_NO_HELP_FOUND'] },
        { status: 422, codes: HELP_FIELD_ERRORS },
      ],
      handler: async ({ params, body }) => app.companyApi.updateHelp.execute({ actor, helpId: params.id, ...body }),
    }),
    api({
      method: 'DELETE',
      path: '/api/helps/:id',
      summary: 'Delete a help',
      params: byId,
      description: 'Removes the article from the catalog.',
      response: deletedSchema,
      errors: [{ status: 404, codes: ['ERR_NO_HELP_FOUND'] }],
      handler: async ({ params }) => {
        await app.companyApi.deleteHelp.execute({ actor, helpId: params.id });
        return deleted('Help deleted');
      },
    }),

    api({
      method: 'GET',
      path: '/api/partners',
      summary: 'Page through partners',
      query: pagedQuery,
      description: "A page (20) of the platform's partners (resellers), by name, found by `searchParam` in the name.",
      response: partnerPageSchema,
      handler: async ({ query }) => app.companyApi.listPartners.execute({ actor, ...query }),
    }),
    api({
      method: 'GET',
      path: '/api/partners/:id',
      summary: 'Show a partner',
      params: byId,
      description: 'One partner with its commercial terms.',
      response: partnerSchema,
      errors: [{ status: 404, codes: ['ERR_NO_PARTNER_FOUND'] }],
      handler: async ({ params }) => app.companyApi.showPartner.execute({ actor, partnerId: params.id }),
    }),
    api({
      method: 'POST',
      path: '/api/partners',
      summary: 'Create a partner',
      status: 201,
      body: partnerBody.required({ name: true }),
      description:
        'Adds a reseller. The commission is stored with two decimal places (`percent` by default, at most 100 then); ' +
        'a CNPJ document must have valid check digits.',
      response: partnerSchema,
      errors: [{ status: 422, codes: PARTNER_FIELD_ERRORS }],
      handler: async ({ body }) => app.companyApi.createPartner.execute({ actor, ...body }),
    }),
    api({
      method: 'PUT',
      path: '/api/partners/:id',
      summary: 'Update a partner',
      params: byId,
      body: partnerBody,
      description: 'Changes the fields given; a `percent` commission over 100 is refused whichever field changed.',
      response: partnerSchema,
      errors: [
        { status: 404, codes: ['ERR_NO_PARTNER_FOUND'] },
        { status: 422, codes: PARTNER_FIELD_ERRORS },
      ],
      handler: async ({ params, body }) => app.companyApi.updatePartner.execute({ actor, partnerId: params.id, ...body }),
    }),
    api({
      method: 'DELETE',
      path: '/api/partners/:id',
      summary: 'Delete a partner',
      params: byId,
      description: 'Removes the partner.',
      response: deletedSchema,
      errors: [{ status: 404, codes: ['ERR_NO_PARTNER_FOUND'] }],
      handler: async ({ params }) => {
        await app.companyApi.deletePartner.execute({ actor, partnerId: params.id });
        return deleted('Partner deleted');
      },
    }),

    api({
      method: 'GET',
      path: '/api/invoices',
      summary: 'Page through invoices, of every company or one',
      query: invoiceQuery,
      description: 'A page (20) of invoices, newest first: of every company, or of `companyId`.',
      response: invoicePageSchema,
      handler: async ({ query }) => app.companyApi.listInvoices.execute({ actor, ...query }),
    }),
    api({
      method: 'GET',
      path: '/api/invoices/:id',
      summary: 'Show an invoice',
      params: byId,
      description: "Any company's invoice.",
      response: invoiceSchema,
      errors: [{ status: 404, codes: ['ERR_NO_INVOICE_FOUND'] }],
      handler: async ({ params }) => app.companyApi.showInvoice.execute({ actor, invoiceId: params.id }),
    }),
    api({
      method: 'GET',
      path: '/api/invoicesCompany/:companyId',
      summary: "Page through a company's invoices",
      params: idParam('companyId'),
      query: pagedQuery,
      description: "A page (20) of one company's invoices, newest first; an unknown company has none (an empty page, not 404).",
      response: invoicePageSchema,
      handler: async ({ params, query }) => app.companyApi.listInvoices.execute({ actor, ...query, companyId: params.companyId }),
    }),
    api({
      method: 'POST',
      path: '/api/invoices',
      summary: 'Bill a company',
      status: 201,
      body: createInvoiceBody,
      description:
        'Creates an invoice of the company (`open` unless a status is given; `paid` sets `paidAt`). ' +
        'The value is stored with two decimal places, the due date as a calendar day.',
      response: invoiceSchema,
      errors: [
        { status: 404, codes: ['ERR_NO_COMPANY_FOUND'] },
        { status: 422, codes: INVOICE_FIELD_ERRORS },
      ],
      handler: async ({ body }) => app.companyApi.createInvoice.execute({ actor, ...body }),
    }),
    api({
      method: 'PUT',
      path: '/api/invoices/:id',
      summary: 'Update an invoice',
      params: byId,
      body: updateInvoiceBody,
      description: 'Changes the fields given; becoming `paid` records `paidAt`, leaving `paid` clears it. The invoice stays with its company.',
      response: invoiceSchema,
      errors: [
        { status: 404, codes: ['ERR_NO_INVOICE_FOUND'] },
        { status: 422, codes: INVOICE_FIELD_ERRORS },
      ],
      handler: async ({ params, body }) => app.companyApi.updateInvoice.execute({ actor, invoiceId: params.id, ...body }),
    }),
    api({
      method: 'DELETE',
      path: '/api/invoices/:id',
      summary: 'Delete an invoice',
      params: byId,
      description: 'Removes the invoice.',
      response: deletedSchema,
      errors: [{ status: 404, codes: ['ERR_NO_INVOICE_FOUND'] }],
      handler: async ({ params }) => {
        await app.companyApi.deleteInvoice.execute({ actor, invoiceId: params.id });
        return deleted('Invoice deleted');
      },
    }),

    api({
      method: 'GET',
      path: '/api/users/:email',
      summary: 'Find a user by login e-mail',
      params: z.object({ email }),
      description: 'Looks the user up across every company (the e-mail is compared lower-cased).',
      response: userSchema,
      errors: [{ status: 404, codes: ['ERR_NO_USER_FOUND'] }],
      handler: async ({ params }) => app.companyApi.findUserByEmail.execute({ actor, email: params.email }),
    }),
    api({
      method: 'GET',
      path: '/api/contacts',
      summary: 'Page through contacts, of every company or one',
      query: companyPagedQuery,
      description: 'A page (20) of contacts by name, of every company or of `companyId`, found by `searchParam` in the name, number or e-mail.',
      response: platformContactPageSchema,
      handler: async ({ query }) => app.companyApi.listPlatformContacts.execute({ actor, ...query }),
    }),
    api({
      method: 'GET',
      path: '/api/contacts-count',
      summary: 'Count contacts, of every company or one',
      query: companyQuery,
      description: 'How many contacts every company (or `companyId`) has.',
      response: contactCountSchema,
      handler: async ({ query }) => app.companyApi.countPlatformContacts.execute({ actor, companyId: query.companyId }),
    }),
    api({
      method: 'GET',
      path: '/api/messagesRange',
      summary: 'Count messages between two dates (inclusive)',
      query: rangeQuery,
      description:
        'Counts the messages created between `dateFrom` and `dateTo`, both included, of every company or of `companyId`. ' +
        'A day (`2025-03-01`) is the whole day in UTC; a datetime without a zone is read as UTC. The answer echoes the bounds used.',
      response: messageRangeCountSchema,
      errors: [{ status: 422, codes: ['ERR_INVALID_DATE', 'ERR_INVALID_DATE_RANGE'] }],
      handler: async ({ query }) => app.companyApi.countMessagesInRange.execute({ actor, ...query }),
    }),
  ];
}
