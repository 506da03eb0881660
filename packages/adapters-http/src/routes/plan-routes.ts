import type { Application } from '@servicedesk/core';
import { z } from 'zod';
import { route } from '../http/route.js';
import { idParam } from '../http/schemas.js';
import { recurrence } from './company-routes.js';

const limit = z.number().int().min(0).max(1_000_000);
export const planBody = z.object({
  name: z.string().trim().min(1).max(80),
  users: limit,
  connections: limit,
  queues: limit,
  amount: z.union([z.string().max(20), z.number().nonnegative()]),
  recurrence,
  trial: z.boolean(),
  trialDays: limit,
  isPublic: z.boolean(),
  useCampaigns: z.boolean(),
  useSchedules: z.boolean(),
  useInternalChat: z.boolean(),
  useExternalApi: z.boolean(),
  useKanban: z.boolean(),
  useOpenAi: z.boolean(),
  useIntegrations: z.boolean(),
}).partial();

/** The lineage's flat `useX` booleans, as the core's feature map. */
export function planFields(body: z.infer<typeof planBody>) {
  const { useCampaigns, useSchedules, useInternalChat, useExternalApi, useKanban, useOpenAi, useIntegrations, ...rest } = body;
  return {
    ...rest,
    features: {
      campaigns: useCampaigns, schedules: useSchedules, internalChat: useInternalChat, externalApi: useExternalApi,
      kanban: useKanban, ai: useOpenAi, integrations: useIntegrations,
    },
  };
}

/** Plans: readable by every user (and the public ones by anyone); written by super users. */
export function planRoutes(app: Application) {
  const tag = 'Companies and plans';
  const byId = idParam('id');
  return [
    route({
      method: 'GET', path: '/plans', auth: 'isAuth', tag, summary: 'Plans, searchable', query: z.object({ searchParam: z.string().max(200).optional() }),
      handler: async ({ query }) => app.listPlans.execute({ searchParam: query.searchParam }),
    }),
    route({
      method: 'GET', path: '/plans/list', auth: 'none', tag, summary: 'Public plans, for the sign-up page',
      handler: async () => app.listPlans.execute({ onlyPublic: true }),
    }),
    route({
      method: 'GET', path: '/plans/all', auth: 'isAuth', tag, summary: 'Every plan',
      handler: async () => app.listPlans.execute({}),
    }),
    route({
      method: 'GET', path: '/plans/:id', auth: 'isAuth', tag, summary: 'Show a plan', params: byId,
      handler: async ({ params }) => app.showPlan.execute({ planId: params.id }),
    }),
    route({
      method: 'POST', path: '/plans', auth: 'isAuth', tag, summary: 'Create a plan (super)', status: 201,
      body: planBody.required({ name: true }),
      handler: async ({ actor, body }) => app.createPlan.execute({ actor, ...planFields(body), name: body.name }),
    }),
    route({
      method: 'PUT', path: '/plans/:id', auth: 'isAuth', tag, summary: 'Update a plan (super)', params: byId, body: planBody,
      handler: async ({ actor, params, body }) => app.updatePlan.execute({ actor, planId: params.id, ...planFields(body) }),
    }),
    route({
      method: 'DELETE', path: '/plans/:id', auth: 'isAuth', tag, summary: 'Delete a plan no company uses (super)', params: byId,
      handler: async ({ actor, params }) => {
        await app.deletePlan.execute({ actor, planId: params.id });
        return { message: 'Plan deleted' };
      },
    }),
  ];
}
