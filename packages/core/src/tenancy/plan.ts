/** Feature flags a plan switches on; routes of a feature answer 403 when the company's plan lacks it. */
export const PLAN_FEATURES = ['campaigns', 'schedules', 'internalChat', 'externalApi', 'kanban', 'ai', 'integrations'] as const;
export type PlanFeature = (typeof PLAN_FEATURES)[number];

export interface Plan {
  id: number;
  name: string;
  /** Limits: maximum users, connections and queues of a company on this plan. */
  users: number;
  connections: number;
  queues: number;
  /** Price per recurrence, as a decimal string to keep cents exact. */
  amount: string;
  recurrence: 'MENSAL' | 'BIMESTRAL' | 'TRIMESTRAL' | 'SEMESTRAL' | 'ANUAL';
  trial: boolean;
  trialDays: number;
  /** Offered on the public sign-up page (`GET /plans/list`). */
  isPublic: boolean;
  features: Record<PlanFeature, boolean>;
  createdAt: Date;
  updatedAt: Date;
}

export type NewPlan = Omit<Plan, 'id'>;

export type PlanLimit = 'users' | 'connections' | 'queues';

export interface PlanView extends Omit<Plan, 'features' | 'createdAt' | 'updatedAt'> {
  useCampaigns: boolean;
  useSchedules: boolean;
  useInternalChat: boolean;
  useExternalApi: boolean;
  useKanban: boolean;
  useOpenAi: boolean;
  useIntegrations: boolean;
  createdAt: string;
  updatedAt: string;
}

/** Lineage field names for each feature, as the frontend knows them. */
export const FEATURE_FIELDS: Record<PlanFeature, keyof PlanView> = {
  campaigns: 'useCampaigns',
  schedules: 'useSchedules',
  internalChat: 'useInternalChat',
  externalApi: 'useExternalApi',
  kanban: 'useKanban',
  ai: 'useOpenAi',
  integrations: 'useIntegrations',
};

export function toPlanView(p: Plan): PlanView {
  const { features, createdAt, updatedAt, ...rest } = p;
  const view = { ...rest, createdAt: createdAt.toISOString(), updatedAt: updatedAt.toISOString() } as PlanView;
  for (const f of PLAN_FEATURES) (view as unknown as Record<string, unknown>)[FEATURE_FIELDS[f]] = features[f];
  return view;
}
