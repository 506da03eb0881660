import type { Application } from '@servicedesk/core';
import { z } from 'zod';
import { route } from '../http/route.js';
import { idParam } from '../http/schemas.js';
import { recurrence } from './company-routes.js';
import { planListSchema, planViewSchema } from './plan-schemas.js';

const superOnly = { status: 403, codes: ['ERR_NO_PERMISSION'] } as const;
const notFound = { status: 404, codes: ['ERR_NO_PLAN_FOUND'] } as const;
const invalid = { status: 422, codes: ['ERR_INVALID_PLAN_NAME', 'ERR_INVALID_PLAN_AMOUNT', 'ERR_INVALID_PLAN_LIMIT'] } as const;

const limit = z.number().int().min(0).max(1_000_000);
const maxOf = (what: string) => limit.meta({ description: `How many ${what} a company on the plan may have; new plans: 1` });
const feature = (what: string) => z.boolean().meta({ description: `Whether companies on the plan may use ${what}; new plans: true` });
export const planBody = z
  .object({
    name: z.string().trim().min(1).max(80).meta({ description: 'The plan name, trimmed; no other plan may have it (ignoring case)', example: 'Profissional' }),
    users: maxOf('users'),
    connections: maxOf('connections'),
    queues: maxOf('queues'),
    amount: z.union([z.string().max(20), z.number().nonnegative()]).meta({
      description: 'Price per recurrence: up to two decimal places, as a number or text (`"199.90"`, `"199,90"`); new plans: 0.00',
      example: '199.90',
    }),
    recurrence: recurrence.meta({
      description: 'Billing period: `MENSAL` monthly, `BIMESTRAL` every two months, `TRIMESTRAL` three, `SEMESTRAL` six, `ANUAL` yearly; new plans: `MENSAL`',
    }),
    trial: z.boolean().meta({ description: 'Whether a company signing up on the plan gets `trialDays` free before its first due date; new plans: false' }),
    trialDays: limit.meta({ description: 'Length of the free trial in days, used when `trial` is true; new plans: 0' }),
    isPublic: z
      .boolean()
      .meta({ description: "Whether the plan is offered on the public sign-up page and readable by every company's users; new plans: true" }),
    useCampaigns: feature('campaigns'),
    useSchedules: feature('scheduled messages'),
    useInternalChat: feature('the internal chat'),
    useExternalApi: feature('the external message API'),
    useKanban: feature('the ticket kanban'),
    useOpenAi: feature('AI prompts'),
    useIntegrations: feature('queue integrations'),
  })
  .partial();

const PLAN_EXAMPLE = {
  name: 'Profissional',
  users: 10,
  connections: 3,
  queues: 5,
  amount: '199.90',
  recurrence: 'MENSAL' as const,
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

/** The lineage's flat `useX` booleans, as the core's feature map. */
export function planFields(body: z.infer<typeof planBody>) {
  const { useCampaigns, useSchedules, useInternalChat, useExternalApi, useKanban, useOpenAi, useIntegrations, ...rest } = body;
  return {
    ...rest,
    features: {
      campaigns: useCampaigns,
      schedules: useSchedules,
      internalChat: useInternalChat,
      externalApi: useExternalApi,
      kanban: useKanban,
      ai: useOpenAi,
      integrations: useIntegrations,
    },
  };
}

/** Plans: public ones readable by anyone, a company's own by its users, all by super users; written by super users. */
export function planRoutes(app: Pick<Application, 'tenancy'>) {
  const tag = 'Companies and plans';
  const byId = idParam('id');
  return [
    route({
      method: 'GET',
      path: '/plans',
      auth: 'isAuth',
      tag,
      summary: 'Plans, searchable',
      query: z.object({
        searchParam: z
          .string()
          .max(200)
          .optional()
          .meta({ description: 'Part of the plan name, ignoring case and accents; absent or blank: every plan the caller may read', example: 'prof' }),
      }),
      description: "Super users: every plan, optionally filtered by name. Other users: the public plans and their company's own.",
      response: planListSchema,
      handler: async ({ actor, query }) => app.tenancy.listPlans.execute({ actor, searchParam: query.searchParam }),
    }),
    route({
      method: 'GET',
      path: '/plans/list',
      auth: 'none',
      tag,
      summary: 'Public plans, for the sign-up page',
      description: 'Public: the plans offered on the sign-up page (`isPublic`).',
      response: planListSchema,
      handler: async () => app.tenancy.listPlans.execute({ actor: null }),
    }),
    route({
      method: 'GET',
      path: '/plans/all',
      auth: 'isAuth',
      tag,
      summary: 'Every plan',
      description: "Super users: every plan, public or not. Other users: the public plans and their company's own.",
      response: planListSchema,
      handler: async ({ actor }) => app.tenancy.listPlans.execute({ actor }),
    }),
    route({
      method: 'GET',
      path: '/plans/:id',
      auth: 'isAuth',
      tag,
      summary: 'Show a plan',
      params: byId,
      description: "Super users: any plan. Other users: a public plan or their company's own; another company's private plan answers 404.",
      response: planViewSchema,
      errors: [notFound],
      handler: async ({ actor, params }) => app.tenancy.showPlan.execute({ actor, planId: params.id }),
    }),
    route({
      method: 'POST',
      path: '/plans',
      auth: 'isAuth',
      tag,
      summary: 'Create a plan (super)',
      status: 201,
      description: 'Super users only. Fields left out take defaults: limits of 1, amount 0.00, monthly, no trial, public, every feature on.',
      body: planBody.required({ name: true }).meta({ example: PLAN_EXAMPLE }),
      response: planViewSchema,
      errors: [superOnly, { status: 409, codes: ['ERR_PLAN_NAME_ALREADY_EXISTS'] }, invalid],
      handler: async ({ actor, body }) => app.tenancy.createPlan.execute({ actor, ...planFields(body), name: body.name }),
    }),
    route({
      method: 'PUT',
      path: '/plans/:id',
      auth: 'isAuth',
      tag,
      summary: 'Update a plan (super)',
      params: byId,
      body: planBody.meta({ example: { amount: '219.90', users: 15, useOpenAi: true } }),
      description: 'Super users only; only the fields sent change. Companies on the plan get its new limits and features at once.',
      response: planViewSchema,
      errors: [superOnly, notFound, { status: 409, codes: ['ERR_PLAN_NAME_ALREADY_EXISTS'] }, invalid],
      handler: async ({ actor, params, body }) => app.tenancy.updatePlan.execute({ actor, planId: params.id, ...planFields(body) }),
    }),
    route({
      method: 'DELETE',
      path: '/plans/:id',
      auth: 'isAuth',
      tag,
      summary: 'Delete a plan no company uses (super)',
      params: byId,
      description: 'Super users only. A plan companies are on cannot be removed (`ERR_PLAN_IN_USE`): move them to another plan first.',
      response: z
        .object({ message: z.string().meta({ example: 'Plan deleted' }) })
        .meta({ id: 'PlanDeleted', description: 'The plan was deleted', example: { message: 'Plan deleted' } }),
      errors: [superOnly, notFound, { status: 409, codes: ['ERR_PLAN_IN_USE'] }],
      handler: async ({ actor, params }) => {
        await app.tenancy.deletePlan.execute({ actor, planId: params.id });
        return { message: 'Plan deleted' };
      },
    }),
  ];
}
