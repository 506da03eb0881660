import type { Application } from '@servicedesk/core';
import { z } from 'zod';
import { route } from '../http/route.js';
import { id, idParam, pagedQuery } from '../http/schemas.js';

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

export const schedulesBody = z.object({
  schedules: z.array(z.object({
    weekday: z.string().max(40),
    weekdayEn: z.enum(['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday']),
    startTime: z.string().max(5),
    endTime: z.string().max(5),
  })).max(28),
});

/** Companies: super users manage every company; admins read their own and set its hours. */
export function companyRoutes(app: Application) {
  const tag = 'Companies and plans';
  const byId = idParam('id');
  return [
    route({
      method: 'GET', path: '/companies/list', auth: 'isAuth', tag, summary: 'Every company (super)',
      handler: async ({ actor }) => app.listAllCompanies.execute({ actor }),
    }),
    route({
      method: 'GET', path: '/companies', auth: 'isAuth', tag, summary: 'Page through companies (super)', query: pagedQuery,
      handler: async ({ actor, query }) => app.listCompanies.execute({ actor, ...query }),
    }),
    route({
      method: 'GET', path: '/companies/:id', auth: 'isAuth', tag, summary: 'Show a company (own, or any for super)', params: byId,
      handler: async ({ actor, params }) => app.showCompany.execute({ actor, companyId: params.id }),
    }),
    route({
      method: 'POST', path: '/companies', auth: 'isAuth', tag, summary: 'Create a company with its admin (super)', status: 201,
      body: createCompanyBody,
      handler: async ({ actor, body }) => app.createCompany.execute({ actor, ...body }),
    }),
    route({
      method: 'PUT', path: '/companies/:id', auth: 'isAuth', tag, summary: 'Update a company (super)', params: byId,
      body: companyFields.partial(),
      handler: async ({ actor, params, body }) => app.updateCompany.execute({ actor, companyId: params.id, ...body }),
    }),
    route({
      method: 'PUT', path: '/companies/:id/schedules', auth: 'isAuth', tag, summary: 'Set the business hours (admin)', params: byId,
      body: schedulesBody,
      handler: async ({ actor, params, body }) => app.updateCompanySchedules.execute({ actor, companyId: params.id, schedules: body.schedules }),
    }),
    route({
      method: 'DELETE', path: '/companies/:id', auth: 'isAuth', tag, summary: 'Delete a company and all it owns (super)', params: byId,
      handler: async ({ actor, params }) => {
        await app.deleteCompany.execute({ actor, companyId: params.id });
        return { message: 'Company deleted' };
      },
    }),
    route({
      method: 'GET', path: '/companies/listPlan/:id', auth: 'isAuth', tag, summary: 'A company with its plan', params: byId,
      handler: async ({ actor, params }) => app.showCompanyWithPlan.execute({ actor, companyId: params.id }),
    }),
    route({
      method: 'GET', path: '/companiesPlan', auth: 'isAuth', tag, summary: 'Every company with its plan (super)',
      handler: async ({ actor }) => app.listCompaniesWithPlans.execute({ actor }),
    }),
    route({
      method: 'GET', path: '/companies/:id/disk-usage', auth: 'isAuth', tag, summary: 'Bytes of uploads stored for the company', params: byId,
      handler: async ({ actor, params }) => app.companyDiskUsage.execute({ actor, companyId: params.id }),
    }),
  ];
}
