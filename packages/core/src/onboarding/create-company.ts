import { assertSuper, type Actor } from '../shared/actor.js';
import { NotFoundError } from '../shared/errors.js';
import type { Plans } from '../tenancy/ports.js';
import type { CompanyOnboarding, OnboardCompanyInput, OnboardedCompany } from './company-onboarding.js';

export interface CreateCompanyInput extends Omit<OnboardCompanyInput, 'admin' | 'planId'> {
  readonly actor: Actor;
  /** Absent (the lineage's quick company form has no plan field): the platform's first plan. */
  readonly planId?: number;
  /** The first admin; its e-mail defaults to the company's. */
  readonly adminName?: string;
  readonly adminEmail?: string;
  readonly password: string;
}

/** Super users (and the integration API) create companies, each with its first admin. */
export class CreateCompany {
  constructor(private readonly deps: { onboarding: CompanyOnboarding; plans: Plans }) {}

  async execute(input: CreateCompanyInput): Promise<OnboardedCompany> {
    assertSuper(input.actor);
    const { actor, adminName, adminEmail, password, planId, ...company } = input;
    const firstPlan = planId === undefined ? (await this.deps.plans.list({})).sort((a, b) => a.id - b.id)[0] : undefined;
    if (planId === undefined && !firstPlan) throw new NotFoundError('ERR_NO_PLAN_FOUND');
    return this.deps.onboarding.onboard({
      ...company,
      planId: planId ?? firstPlan!.id,
      admin: { name: adminName ?? input.name, email: adminEmail ?? input.email ?? '', password },
    });
  }
}
