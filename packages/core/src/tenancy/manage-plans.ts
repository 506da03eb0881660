import { assertSuper, isSuper, type Actor } from '../shared/actor.js';
import { ConflictError, NotFoundError, ValidationError } from '../shared/errors.js';
import type { Clock } from '../shared/ports.js';
import { PLAN_FEATURES, toPlanView, type Plan, type PlanFeature, type PlanView } from './plan.js';
import type { Companies, Plans } from './ports.js';

export interface PlanFields {
  readonly name?: string;
  readonly users?: number;
  readonly connections?: number;
  readonly queues?: number;
  readonly amount?: string | number;
  readonly recurrence?: Plan['recurrence'];
  readonly trial?: boolean;
  readonly trialDays?: number;
  readonly isPublic?: boolean;
  readonly features?: Partial<Record<PlanFeature, boolean>>;
}

function cleanAmount(amount: string | number): string {
  const text = typeof amount === 'number' ? amount.toFixed(2) : amount.trim().replace(',', '.');
  if (!/^\d{1,9}(\.\d{1,2})?$/.test(text)) throw new ValidationError('ERR_INVALID_PLAN_AMOUNT');
  return Number(text).toFixed(2);
}

function cleanLimit(value: number): number {
  if (!Number.isInteger(value) || value < 0 || value > 1_000_000) throw new ValidationError('ERR_INVALID_PLAN_LIMIT');
  return value;
}

async function applyFields(plans: Plans, plan: Plan, fields: PlanFields): Promise<void> {
  if (fields.name !== undefined) {
    const name = fields.name.trim();
    if (name.length < 1 || name.length > 80) throw new ValidationError('ERR_INVALID_PLAN_NAME');
    const holder = await plans.findByName(name);
    if (holder && holder.id !== plan.id) throw new ConflictError('ERR_PLAN_NAME_ALREADY_EXISTS');
    plan.name = name;
  }
  if (fields.users !== undefined) plan.users = cleanLimit(fields.users);
  if (fields.connections !== undefined) plan.connections = cleanLimit(fields.connections);
  if (fields.queues !== undefined) plan.queues = cleanLimit(fields.queues);
  if (fields.amount !== undefined) plan.amount = cleanAmount(fields.amount);
  if (fields.recurrence !== undefined) plan.recurrence = fields.recurrence;
  if (fields.trial !== undefined) plan.trial = fields.trial;
  if (fields.trialDays !== undefined) plan.trialDays = cleanLimit(fields.trialDays);
  if (fields.isPublic !== undefined) plan.isPublic = fields.isPublic;
  for (const f of PLAN_FEATURES) if (fields.features?.[f] !== undefined) plan.features[f] = fields.features[f]!;
}

export class CreatePlan {
  constructor(private readonly deps: { plans: Plans; clock: Clock }) {}

  async execute(input: PlanFields & { actor: Actor; name: string }): Promise<PlanView> {
    assertSuper(input.actor);
    const now = this.deps.clock.now();
    const draft: Plan = {
      id: 0,
      name: '',
      users: 1,
      connections: 1,
      queues: 1,
      amount: '0.00',
      recurrence: 'MENSAL',
      trial: false,
      trialDays: 0,
      isPublic: true,
      features: Object.fromEntries(PLAN_FEATURES.map((f) => [f, true])) as Record<PlanFeature, boolean>,
      createdAt: now,
      updatedAt: now,
    };
    await applyFields(this.deps.plans, draft, input);
    const { id: _unused, ...fields } = draft;
    return toPlanView(await this.deps.plans.add(fields));
  }
}

export class UpdatePlan {
  constructor(private readonly deps: { plans: Plans; clock: Clock }) {}

  async execute(input: PlanFields & { actor: Actor; planId: number }): Promise<PlanView> {
    assertSuper(input.actor);
    const plan = await this.deps.plans.findById(input.planId);
    if (!plan) throw new NotFoundError('ERR_NO_PLAN_FOUND');
    await applyFields(this.deps.plans, plan, input);
    plan.updatedAt = this.deps.clock.now();
    await this.deps.plans.update(plan);
    return toPlanView(plan);
  }
}

/** A plan that companies are on cannot be removed: move them to another plan first. */
export class DeletePlan {
  constructor(private readonly deps: { plans: Plans; companies: Companies }) {}

  async execute(input: { actor: Actor; planId: number }): Promise<void> {
    assertSuper(input.actor);
    const plan = await this.deps.plans.findById(input.planId);
    if (!plan) throw new NotFoundError('ERR_NO_PLAN_FOUND');
    if ((await this.deps.companies.countByPlan(plan.id)) > 0) throw new ConflictError('ERR_PLAN_IN_USE');
    await this.deps.plans.remove(plan.id);
  }
}

/**
 * Which plans an actor may read: super users (and the platform integration) every plan; a company's
 * users the public plans and their company's own; nobody signed in (`null`) the public ones.
 */
async function planVisibility(companies: Companies, actor: Actor | null): Promise<(plan: Plan) => boolean> {
  if (actor && isSuper(actor)) return () => true;
  const ownPlanId = actor ? (await companies.findById(actor.companyId))?.planId : undefined;
  return (plan) => plan.isPublic || plan.id === ownPlanId;
}

/** Plan reads; another company's private plan is answered as missing. */
export class ListPlans {
  constructor(private readonly deps: { plans: Plans; companies: Companies }) {}

  async execute(input: { actor: Actor | null; searchParam?: string }): Promise<PlanView[]> {
    const visible = await planVisibility(this.deps.companies, input.actor);
    const onlyPublic = input.actor === null;
    return (await this.deps.plans.list({ search: input.searchParam, onlyPublic })).filter(visible).map(toPlanView);
  }
}

export class ShowPlan {
  constructor(private readonly deps: { plans: Plans; companies: Companies }) {}

  async execute(input: { actor: Actor; planId: number }): Promise<PlanView> {
    const plan = await this.deps.plans.findById(input.planId);
    if (!plan || !(await planVisibility(this.deps.companies, input.actor))(plan)) throw new NotFoundError('ERR_NO_PLAN_FOUND');
    return toPlanView(plan);
  }
}
