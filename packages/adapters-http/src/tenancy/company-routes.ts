import type { Application } from '@servicedesk/core';
import { z } from 'zod';
import { route } from '../http/route.js';
import { id, idParam, pagedQuery } from '../http/schemas.js';
import {
  companyDiskUsageSchema,
  companyPageSchema,
  companyRowListSchema,
  companyRowPageSchema,
  companyViewSchema,
  companyWithPlanSchema,
  onboardedCompanySchema,
} from './company-schemas.js';

const superOnly = { status: 403, codes: ['ERR_NO_PERMISSION'] } as const;
const notFound = { status: 404, codes: ['ERR_NO_COMPANY_FOUND'] } as const;
const companyEvent = "Emits the realtime event `company` with `{ action: 'update', company }` to the company.";

export const recurrence = z.enum(['MENSAL', 'BIMESTRAL', 'TRIMESTRAL', 'SEMESTRAL', 'ANUAL']);

export const companyFields = z.object({
  name: z.string().trim().min(2).max(120),
  email: z.string().trim().max(254).email().nullable(),
  phone: z.string().trim().max(40).nullable(),
  document: z.string().trim().max(20).nullable(),
  status: z.boolean(),
  planId: id,
  dueDate: z.string().max(30).nullable(),
  recurrence,
  paymentMethod: z.string().trim().max(40).nullable(),
});

export const createCompanyBody = companyFields.partial().extend({
  name: companyFields.shape.name,
  planId: id,
  password: z.string().min(8).max(128),
  adminName: z.string().trim().min(2).max(120).optional(),
  adminEmail: z.string().trim().max(254).email().optional(),
});

const weekdayEn = z.enum(['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday']);
const hhmm = z.string().max(5);
/** An empty text field of the lineage's company forms means "none" (or, for `recurrence` and `planId`, "not given"). */
const blankIsNull = <T extends z.ZodType>(schema: T) => z.preprocess((v) => (v === '' ? null : v), schema);
const blankIsAbsent = <T extends z.ZodType>(schema: T) => z.preprocess((v) => (v === '' || v === null ? undefined : v), schema.optional());

/** What the company forms send (components/CompaniesManager, components/CompaniesModal): blanks for empty fields, the record sent back whole. */
const formCompanyFields = {
  name: companyFields.shape.name.optional(),
  email: blankIsNull(companyFields.shape.email).optional(),
  phone: blankIsNull(companyFields.shape.phone).optional(),
  document: blankIsNull(companyFields.shape.document).optional(),
  status: companyFields.shape.status.optional(),
  planId: blankIsAbsent(id),
  dueDate: blankIsNull(companyFields.shape.dueDate).optional(),
  recurrence: blankIsAbsent(recurrence),
  paymentMethod: blankIsNull(companyFields.shape.paymentMethod).optional(),
};

/** The fields' documentation at a use site: the same validation, each field described (the shape's types kept). */
function describedShape<S extends z.ZodRawShape>(shape: S, descriptions: { [K in keyof S]: string }): S {
  return Object.fromEntries(
    Object.entries(shape).map(([name, field]) => [name, (field as z.ZodType).meta({ description: descriptions[name]! })]),
  ) as unknown as S;
}

const RECURRENCES = '`MENSAL` monthly, `BIMESTRAL` every two months, `TRIMESTRAL` three, `SEMESTRAL` six, `ANUAL` yearly';
/** What the two forms' fields mean alike. */
const FORM_FIELDS = {
  name: "The company's name, 2 to 120 characters once trimmed",
  phone: 'Contact phone, as written; empty or null: none',
  document: 'CPF (11 digits) or CNPJ (14 digits, with valid check digits), punctuation allowed, stored as digits; empty or null: none',
  dueDate: 'The day the current period is paid until, `YYYY-MM-DD` (a datetime is cut to its day); empty or null: none',
  paymentMethod: 'How the company pays, as the billing team writes it; empty or null: none',
};
const createFormFields = describedShape(formCompanyFields, {
  ...FORM_FIELDS,
  email: "The company's contact e-mail, stored lower case; also its first admin's login unless `adminEmail` is given; empty or null: none",
  status: 'false creates the company inactive (its users cannot log in); absent: true',
  planId: "The plan the company is on; empty or absent: the platform's first plan",
  recurrence: `Billing period: ${RECURRENCES}; empty or absent: the plan's`,
});
const updateFormFields = describedShape(formCompanyFields, {
  ...FORM_FIELDS,
  email: "The company's contact e-mail, stored lower case; empty or null: none",
  status: 'false makes the company inactive: its users cannot log in and their sessions end at once; true enables it again',
  planId: 'Moves the company to this plan, its limits and features applying at once; empty or absent: unchanged',
  recurrence: `Billing period: ${RECURRENCES}; empty or absent: unchanged`,
});

const formCreateCompanyBody = z
  .object({
    ...createFormFields,
    name: companyFields.shape.name.meta({ description: FORM_FIELDS.name }),
    /** The company form's `password`, or the quick form's `passwordDefault`: the first admin's password. */
    password: z.string().max(128).optional().meta({ description: "The first admin's password, 8 to 128 characters; empty or absent: `passwordDefault`" }),
    passwordDefault: z
      .string()
      .max(128)
      .optional()
      .meta({ description: "The quick company form's name for the first admin's password, used when `password` is empty or absent" }),
    adminName: z.string().trim().min(2).max(120).optional().meta({ description: "The first admin's name, 2 to 120 characters; absent: the company's `name`" }),
    adminEmail: z
      .string()
      .trim()
      .max(254)
      .email()
      .optional()
      .meta({ description: "The first admin's login e-mail, which no user may have yet; absent: the company's `email`" }),
  })
  .transform(({ passwordDefault, password, ...rest }) => ({ ...rest, password: password || passwordDefault || '' }))
  .meta({
    example: {
      name: 'Acme Atendimento',
      email: 'contato@acme.com.br',
      phone: '+55 11 4000-1234',
      document: '11.222.333/0001-81',
      status: true,
      planId: 2,
      dueDate: '2025-02-28',
      recurrence: 'MENSAL',
      paymentMethod: '',
      password: 'troque-esta-senha',
      adminName: 'Marina Souza',
      adminEmail: 'marina@acme.com.br',
    },
  });

const updateCompanyBody = z.object(updateFormFields).meta({
  example: { name: 'Acme Atendimento Ltda', planId: 3, dueDate: '2025-03-31', recurrence: 'MENSAL', paymentMethod: 'Boleto', status: true },
});

const startOf = (range: string) => hhmm.meta({ description: `Start of the day's ${range} range, \`HH:mm\`; empty with its end: no ${range} range` });
const endOf = (range: string) => hhmm.meta({ description: `End of the day's ${range} range, \`HH:mm\`, after its start` });
const weekday = z.string().max(40).meta({ description: "The day's label as the editor shows it (`Segunda-feira`)" });
const weekdayOf = weekdayEn.meta({ description: 'The day of the week' });
/** The editor's days (`startTimeA`…`endTimeB`, what the lineage's form sends), or plain slots (`startTime`, `endTime`). */
export const schedulesBody = z
  .object({
    schedules: z
      .array(
        z.union([
          z.object({
            weekday,
            weekdayEn: weekdayOf,
            startTimeA: startOf('first'),
            endTimeA: endOf('first'),
            startTimeB: startOf('second'),
            endTimeB: endOf('second'),
          }),
          z.object({
            weekday,
            weekdayEn: weekdayOf,
            startTime: hhmm.meta({ description: 'Start of the slot, `HH:mm`; empty with `endTime`: no hours that day' }),
            endTime: hhmm.meta({ description: 'End of the slot, `HH:mm`, after `startTime`' }),
          }),
        ]),
      )
      .max(28)
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

/** Companies: super users manage every company; admins read their own and set its hours. */
export function companyRoutes(app: Pick<Application, 'tenancy'>) {
  const tag = 'Companies and plans';
  const byId = idParam('id');
  return [
    route({
      method: 'GET',
      path: '/companies/list',
      auth: 'isAuth',
      tag,
      summary: 'Every company with its plan (super)',
      description: "Super users only: every company of the platform, unpaged, each with its `plan` and `lastLogin` (its users' latest).",
      response: companyRowListSchema,
      errors: [superOnly],
      handler: async ({ actor }) => app.tenancy.listAllCompanies.execute({ actor }),
    }),
    route({
      method: 'GET',
      path: '/companies',
      auth: 'isAuth',
      tag,
      summary: 'Page through companies (super)',
      query: pagedQuery,
      description: 'Super users only. Searchable by name or e-mail; pages of 20.',
      response: companyPageSchema,
      errors: [superOnly],
      handler: async ({ actor, query }) => app.tenancy.listCompanies.execute({ actor, ...query }),
    }),
    route({
      method: 'GET',
      path: '/companies/:id',
      auth: 'isAuth',
      tag,
      summary: 'Show a company (own, or any for super)',
      params: byId,
      description: 'Any user of the company sees it; super users see any company. Another company answers 404.',
      response: companyViewSchema,
      errors: [notFound],
      handler: async ({ actor, params }) => app.tenancy.showCompany.execute({ actor, companyId: params.id }),
    }),
    route({
      method: 'POST',
      path: '/companies',
      auth: 'isAuth',
      tag,
      summary: 'Create a company with its admin (super)',
      status: 201,
      description:
        "Super users only. Creates the company and its first admin together (`adminEmail` defaults to the company's e-mail, " +
        "`adminName` to its name): either both exist afterwards or neither. The admin's password is `password` (or `passwordDefault`); " +
        'without `planId` the company gets the first plan. Empty text fields mean none; other fields the forms send are ignored.',
      body: formCreateCompanyBody,
      response: onboardedCompanySchema,
      errors: [
        superOnly,
        { status: 404, codes: ['ERR_NO_PLAN_FOUND'] },
        { status: 409, codes: ['ERR_EMAIL_ALREADY_EXISTS'] },
        {
          status: 422,
          codes: [
            'ERR_INVALID_COMPANY_NAME',
            'ERR_INVALID_NAME',
            'ERR_INVALID_EMAIL',
            'ERR_INVALID_DOCUMENT',
            'ERR_INVALID_DUE_DATE',
            'ERR_PASSWORD_TOO_SHORT',
          ],
        },
      ],
      handler: async ({ actor, body }) => app.tenancy.createCompany.execute({ actor, ...body }),
    }),
    route({
      method: 'PUT',
      path: '/companies/:id',
      auth: 'isAuth',
      tag,
      summary: 'Update a company (super)',
      params: byId,
      description:
        'Super users only: the record, plan, due date and status (inactive companies cannot log in; nobody disables their own). ' +
        'The forms send the record back whole: empty text fields mean none, read-only fields (`plan`, `schedules`...) and an empty ' +
        '`password` are ignored. ' +
        companyEvent,
      body: updateCompanyBody,
      response: companyViewSchema,
      errors: [
        { status: 403, codes: ['ERR_NO_PERMISSION', 'ERR_CANNOT_DISABLE_OWN_COMPANY'] },
        { status: 404, codes: ['ERR_NO_COMPANY_FOUND', 'ERR_NO_PLAN_FOUND'] },
        { status: 422, codes: ['ERR_INVALID_COMPANY_NAME', 'ERR_INVALID_EMAIL', 'ERR_INVALID_DOCUMENT', 'ERR_INVALID_DUE_DATE'] },
      ],
      handler: async ({ actor, params, body }) => app.tenancy.updateCompany.execute({ actor, companyId: params.id, ...body }),
    }),
    route({
      method: 'PUT',
      path: '/companies/:id/schedules',
      auth: 'isAuth',
      tag,
      summary: 'Set the business hours (admin)',
      params: byId,
      description:
        'Admins of the company, or super users. Replaces the business hours (HH:MM slots, start before end; empty times ' +
        'for a day without hours). ' +
        companyEvent,
      body: schedulesBody,
      response: companyViewSchema,
      errors: [superOnly, notFound, { status: 422, codes: ['ERR_INVALID_SCHEDULES'] }],
      handler: async ({ actor, params, body }) => app.tenancy.updateCompanySchedules.execute({ actor, companyId: params.id, schedules: body.schedules }),
    }),
    route({
      method: 'DELETE',
      path: '/companies/:id',
      auth: 'isAuth',
      tag,
      summary: 'Delete a company and all it owns (super)',
      params: byId,
      description:
        'Super users only. Removes the company with its users, contacts, tickets and the rest; ' +
        "neither one's own company nor the one holding super users can be removed.",
      response: z.object({ message: z.string().meta({ example: 'Company deleted' }) }).meta({
        id: 'CompanyDeleted',
        description: 'The company was deleted',
        example: { message: 'Company deleted' },
      }),
      errors: [superOnly, notFound, { status: 422, codes: ['ERR_CANNOT_DELETE_OWN_COMPANY', 'ERR_CANNOT_DELETE_PLATFORM_COMPANY'] }],
      handler: async ({ actor, params }) => {
        await app.tenancy.deleteCompany.execute({ actor, companyId: params.id });
        return { message: 'Company deleted' };
      },
    }),
    route({
      method: 'GET',
      path: '/companies/listPlan/:id',
      auth: 'isAuth',
      tag,
      summary: 'A company with its plan',
      params: byId,
      description: "Any user of the company (super users: any company): the frontend reads the plan's features and limits from it.",
      response: companyWithPlanSchema,
      errors: [notFound],
      handler: async ({ actor, params }) => app.tenancy.showCompanyWithPlan.execute({ actor, companyId: params.id }),
    }),
    route({
      method: 'GET',
      path: '/companiesPlan',
      auth: 'isAuth',
      tag,
      summary: 'Page through companies with their plans (super)',
      query: pagedQuery,
      description: 'Super users only: a page (20) of companies, searchable by name or e-mail, each with its `plan` and `lastLogin`.',
      response: companyRowPageSchema,
      errors: [superOnly],
      handler: async ({ actor, query }) => app.tenancy.listCompaniesWithPlans.execute({ actor, ...query }),
    }),
    route({
      method: 'GET',
      path: '/companies/:id/disk-usage',
      auth: 'isAuth',
      tag,
      summary: 'Bytes of uploads stored for the company',
      params: byId,
      description: 'Any user of the company (super users: any company): bytes of public and private uploads in blob storage.',
      response: companyDiskUsageSchema,
      errors: [notFound],
      handler: async ({ actor, params }) => app.tenancy.companyDiskUsage.execute({ actor, companyId: params.id }),
    }),
  ];
}
