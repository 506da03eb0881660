import { z } from 'zod';

/** The JSON view of a plan (`toPlanView`), shared by the plan, company and company-API routes. */

export const recurrenceSchema = z.enum(['MENSAL', 'BIMESTRAL', 'TRIMESTRAL', 'SEMESTRAL', 'ANUAL']).meta({
  id: 'Recurrence',
  description: 'Billing period: monthly, every two, three or six months, yearly',
  example: 'MENSAL',
});

export const planViewExample = {
  id: 2,
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
  createdAt: '2025-01-02T09:30:00.000Z',
  updatedAt: '2025-01-31T12:00:00.000Z',
};

const limit = (what: string) =>
  z
    .number()
    .int()
    .nonnegative()
    .meta({ description: `Maximum ${what} of a company on this plan` });
const feature = (what: string) => z.boolean().meta({ description: `Whether companies on this plan may use ${what}` });

export const planViewSchema = z
  .object({
    id: z.number().int().positive(),
    name: z.string().meta({ description: 'Unique plan name' }),
    users: limit('users'),
    connections: limit('connections'),
    queues: limit('queues'),
    amount: z
      .string()
      .regex(/^\d+\.\d{2}$/)
      .meta({ description: 'Price per recurrence, a decimal string with two places', example: '199.90' }),
    recurrence: recurrenceSchema,
    trial: z.boolean().meta({ description: 'New sign-ups start with a free trial' }),
    trialDays: z.number().int().nonnegative(),
    isPublic: z.boolean().meta({ description: 'Offered on the public sign-up page' }),
    useCampaigns: feature('campaigns'),
    useSchedules: feature('scheduled messages'),
    useInternalChat: feature('the internal chat'),
    useExternalApi: feature('the external message API'),
    useKanban: feature('the kanban board'),
    useOpenAi: feature('AI prompts'),
    useIntegrations: feature('queue integrations'),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: 'Plan', description: 'A subscription plan: its limits, price and feature flags', example: planViewExample });

export const planListSchema = z.array(planViewSchema).meta({ id: 'PlanList', description: 'Plans', example: [planViewExample] });
