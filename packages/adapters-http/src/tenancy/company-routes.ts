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
/** The editor's days (`startTimeA`…`endTimeB`, what the lineage's form sends), or plain slots (`startTime`, `endTime`). */
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

const formCreateCompanyBody = z
  .object({
    ...formCompanyFields,
    name: companyFields.shape.name,
    /** The company form's `password`, or the quick form's `passwordDefault`: the first admin's password. */
    password: z.string().max(128).optional(),
    passwordDefault: z.string().max(128).optional(),
    adminName: z.string().trim().min(2).max(120).optional(),
    adminEmail: z.string().trim().max(254).email().optional(),
  })
  .transform(({ passwordDefault, password, ...rest }) => ({ ...rest, password: password || passwordDefault || '' }));

export const schedulesBody = z.object({
  schedules: z
    .array(
      z.union([
        z.object({ weekday: z.string().max(40), weekdayEn, startTimeA: hhmm, endTimeA: hhmm, startTimeB: hhmm, endTimeB: hhmm }),
        z.object({ weekday: z.string().max(40), weekdayEn, startTime: hhmm, endTime: hhmm }),
      ]),
    )
    .max(28),
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
      body: z.object(formCompanyFields),
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
