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

/**
 * A copy of an object schema with its fields described, for schemas shared with other routes
 * (plans, companies, invoices): the validation stays theirs, only the documentation is added here.
 */
function described<S extends z.ZodRawShape>(schema: z.ZodObject<S>, descriptions: { [K in keyof S]?: string }): z.ZodObject<S> {
  const shape = Object.fromEntries(
    Object.entries(schema.shape).map(([name, field]) => {
      const description = descriptions[name as keyof S];
      return [name, description === undefined ? field : (field as z.ZodType).meta({ description })];
    }),
  );
  return schema.extend(shape) as unknown as z.ZodObject<S>;
}

const nullableText = (max: number) => z.string().max(max).nullable();
export const helpBody = z
  .object({
    title: z.string().trim().min(1).max(200).meta({ description: 'The article title, trimmed' }),
    description: nullableText(10_000).meta({ description: 'The article text (Markdown); null or blank: empty' }),
    video: nullableText(500).meta({ description: 'The address of a video; null or blank: none' }),
    link: nullableText(500).meta({ description: 'A link to more reading; null or blank: none' }),
  })
  .partial();
const HELP_EXAMPLE = {
  title: 'Connecting a WhatsApp number',
  description: 'Scan the QR code from **Connections**.',
  video: 'https://videos.example.com/connect',
  link: null,
};

/** CPF (11 digits) is kept as given, a CNPJ (14) must have valid check digits (`cleanDocument`). */
const DOCUMENT = 'CPF (11 digits) or CNPJ (14 digits, with valid check digits), punctuation allowed, stored as digits; null or blank: none';

export const partnerBody = z
  .object({
    name: z.string().trim().min(2).max(120).meta({ description: "The partner's name, trimmed" }),
    email: z.string().trim().max(254).email().nullable().meta({ description: 'Contact e-mail, stored lower case; null: none' }),
    phone: nullableText(40).meta({ description: 'Contact phone, as written; null or blank: none' }),
    document: nullableText(20).meta({ description: DOCUMENT }),
    commission: z.union([z.string().max(20), z.number().nonnegative()]).meta({
      description:
        'A percentage (at most 100) or an amount, by `typeCommission`: up to two decimal places, as a number or text (`"10.5"`, `"10,5"`); new partners: 0',
    }),
    typeCommission: z.enum(['percent', 'fixed']).meta({ description: 'A `percent` of the sale or a `fixed` amount; new partners: `percent`' }),
    walletId: nullableText(120).meta({ description: "The partner's wallet at the payment provider, for split payments; null or blank: none" }),
  })
  .partial();
const PARTNER_EXAMPLE = {
  name: 'Acme Resellers',
  email: 'sales@acme.example',
  phone: '+55 11 91234-5678',
  document: '11.222.333/0001-81',
  commission: '10.00',
  typeCommission: 'percent',
  walletId: 'wal_8f2c',
};

const feature = (what: string) => `Whether companies on the plan may use ${what}; new plans: true`;
const limit = (what: string) => `How many ${what} a company on the plan may have; new plans: 1`;
const apiPlanBody = described(planBody, {
  name: 'The plan name, trimmed; no other plan may have it (ignoring case)',
  users: limit('users'),
  connections: limit('connections'),
  queues: limit('queues'),
  amount: 'Price per recurrence: up to two decimal places, as a number or text (`"199.90"`, `"199,90"`); new plans: 0.00',
  recurrence: 'Billing period: `MENSAL` monthly, `BIMESTRAL` every two months, `TRIMESTRAL` three, `SEMESTRAL` six, `ANUAL` yearly; new plans: `MENSAL`',
  trial: 'Whether a company signing up on the plan gets `trialDays` free before its first due date; new plans: false',
  trialDays: 'Length of the free trial in days, used when `trial` is true; new plans: 0',
  isPublic: 'Whether the plan is offered on the public sign-up page; new plans: true',
  useCampaigns: feature('campaigns'),
  useSchedules: feature('scheduled messages'),
  useInternalChat: feature('the internal chat'),
  useExternalApi: feature('the external message API'),
  useKanban: feature('the ticket kanban'),
  useOpenAi: feature('AI prompts'),
  useIntegrations: feature('queue integrations'),
});
const PLAN_EXAMPLE = {
  name: 'Profissional',
  users: 10,
  connections: 3,
  queues: 5,
  amount: '199.90',
  recurrence: 'MENSAL',
  trial: true,
  trialDays: 7,
  isPublic: true,
  useCampaigns: true,
  useSchedules: true,
  useInternalChat: true,
  useExternalApi: false,
  useKanban: true,
  useOpenAi: false,
  useIntegrations: false,
};

const COMPANY_FIELDS = {
  name: "The company's name, trimmed",
  phone: 'Contact phone, as written; null or blank: none',
  document: DOCUMENT,
  dueDate:
    'The day (`YYYY-MM-DD`; a datetime is cut to its day) the current period is paid until: the billing cycle invoices ahead of it and ' +
    'suspends sending once it is overdue; null or blank: none',
  paymentMethod: 'How the company pays, as the billing team writes it; null: none',
};
const apiUpdateCompanyBody = described(companyFields.partial(), {
  ...COMPANY_FIELDS,
  email: "The company's contact e-mail, stored lower case; null: none",
  status: 'false makes the company inactive: its users cannot log in and their sessions end at once; true enables it again',
  planId: 'Moves the company to this plan; its limits and features apply at once',
  recurrence: 'Billing period, one of the `Recurrence` values',
});
const apiCreateCompanyBody = described(createCompanyBody, {
  ...COMPANY_FIELDS,
  email: "The company's contact e-mail, stored lower case; also its first admin's login unless `adminEmail` is given",
  status: 'false creates the company inactive (its users cannot log in); absent: true',
  planId: 'The plan the company is on',
  recurrence: "Billing period, one of the `Recurrence` values; absent: the plan's",
  password: "The first admin's password",
  adminName: "The first admin's name; absent: the company's `name`",
  adminEmail: "The first admin's login e-mail, which no user may have yet; absent: the company's `email`",
});
const COMPANY_EXAMPLE = {
  name: 'Acme Atendimento',
  email: 'contato@acme.com.br',
  phone: '+55 11 4000-1234',
  document: '11.222.333/0001-81',
  planId: 2,
  dueDate: '2025-02-28',
  recurrence: 'MENSAL',
};

const [editorDays, storedSlots] = schedulesBody.shape.schedules.element.options;
const WEEKDAY = {
  weekday: "The day's label as the editor shows it (`Segunda-feira`)",
  weekdayEn: 'The day of the week',
};
const range = (which: 'first' | 'second', end: 'Start' | 'End') => `${end} of the day's ${which} range, \`HH:mm\`; blank with its pair: no ${which} range`;
const apiSchedulesBody = z
  .object({
    schedules: schedulesBody.shape.schedules
      .clone({
        ...schedulesBody.shape.schedules.def,
        element: z.union([
          described(editorDays, {
            ...WEEKDAY,
            startTimeA: range('first', 'Start'),
            endTimeA: range('first', 'End'),
            startTimeB: range('second', 'Start'),
            endTimeB: range('second', 'End'),
          }),
          described(storedSlots, {
            ...WEEKDAY,
            startTime: 'Start of the slot, `HH:mm`; blank with `endTime`: no hours that day',
            endTime: 'End of the slot, `HH:mm`, after `startTime`',
          }),
        ]),
      })
      .meta({
        description:
          "The week's hours, replacing the old ones: a day with up to two ranges (`A`, `B`: a morning and an afternoon) as the editor " +
          'sends it, or one slot (`startTime`, `endTime`) per entry; 28 slots in all at most',
      }),
  })
  .meta({
    example: {
      schedules: [
        { weekday: 'Domingo', weekdayEn: 'sunday', startTimeA: '', endTimeA: '', startTimeB: '', endTimeB: '' },
        { weekday: 'Segunda-feira', weekdayEn: 'monday', startTimeA: '08:00', endTimeA: '12:00', startTimeB: '13:00', endTimeB: '18:00' },
      ],
    },
  });

const INVOICE_FIELDS = {
  detail: 'What the invoice is for, as the company sees it; trimmed',
  status: '`open` (awaiting payment), `paid` or `cancelled`; becoming `paid` records `paidAt`',
  value: 'The amount: up to two decimal places, as a number or text (`"199.90"`, `"199,90"`)',
  dueDate: 'The day it falls due, `YYYY-MM-DD` (a datetime is cut to its day)',
};
const apiCreateInvoiceBody = described(createInvoiceBody, {
  ...INVOICE_FIELDS,
  status: `${INVOICE_FIELDS.status}; absent: \`open\``,
  companyId: 'The company billed',
});
const apiUpdateInvoiceBody = described(updateInvoiceBody, INVOICE_FIELDS);
const INVOICE_EXAMPLE = { detail: 'Plan Pro, March 2025', value: '199.90', dueDate: '2025-03-10' };

const companyFilter = (what: string) => id.optional().meta({ description: `Only this company's ${what}; absent: every company's` });
const apiInvoiceQuery = described(invoiceQuery, { companyId: "Only this company's invoices; absent: every company's" });
const companyQuery = z.object({ companyId: companyFilter('contacts') });
const companyPagedQuery = pagedQuery.merge(companyQuery);
const rangeQuery = z.object({
  companyId: companyFilter('messages'),
  dateFrom: z
    .string()
    .trim()
    .min(1)
    .max(40)
    .meta({ description: 'First day (`YYYY-MM-DD`, from 00:00 UTC) or instant (ISO datetime; without a zone, UTC), included', example: '2025-03-01' }),
  dateTo: z
    .string()
    .trim()
    .min(1)
    .max(40)
    .meta({ description: 'Last day (`YYYY-MM-DD`, up to 23:59:59.999 UTC) or instant, included; not before `dateFrom`', example: '2025-03-31' }),
});
const emailParam = (whose: string, example: string) => z.object({ email: email.meta({ description: `${whose} (compared lower-cased)`, example }) });
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
      query: z.object({
        searchParam: z
          .string()
          .max(200)
          .optional()
          .meta({ description: 'Text to look for in the plan name (ignoring case and accents); empty or absent: every plan' }),
      }),
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
      body: apiPlanBody.required({ name: true }).meta({ example: PLAN_EXAMPLE }),
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
      body: apiPlanBody.meta({ example: { amount: '219.90', users: 12 } }),
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
      params: emailParam("The company's contact e-mail", 'contato@acme.com.br'),
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
      body: apiCreateCompanyBody.meta({ example: { ...COMPANY_EXAMPLE, password: 'S3nha-forte', adminName: 'Ana Lima', adminEmail: 'ana@acme.com.br' } }),
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
      body: apiUpdateCompanyBody.meta({ example: { status: false, dueDate: '2025-03-31' } }),
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
      body: apiSchedulesBody,
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
      body: helpBody.required({ title: true }).meta({ example: HELP_EXAMPLE }),
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
      body: helpBody.meta({ example: { link: 'https://help.example.com/connections' } }),
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
      body: partnerBody.required({ name: true }).meta({ example: PARTNER_EXAMPLE }),
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
      body: partnerBody.meta({ example: { commission: 12.5, typeCommission: 'percent' } }),
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
      query: apiInvoiceQuery,
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
      body: apiCreateInvoiceBody.meta({ example: { ...INVOICE_EXAMPLE, companyId: 3 } }),
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
      body: apiUpdateInvoiceBody.meta({ example: { status: 'paid' } }),
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
      params: emailParam("The user's login e-mail", 'ana@acme.com.br'),
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
