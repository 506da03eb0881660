import type { Settings } from '../settings/ports.js';
import { settingDefinition } from '../settings/catalog.js';
import { ForbiddenError, NotFoundError } from '../shared/errors.js';
import type { Clock } from '../shared/ports.js';
import type { CompanyOnboarding, OnboardedCompany } from './company-onboarding.js';
import type { Plans } from '../tenancy/ports.js';

export interface SignupInput {
  readonly companyName: string;
  readonly name: string;
  readonly email: string;
  readonly password: string;
  readonly phone?: string | null;
  readonly document?: string | null;
  readonly planId: number;
}

/**
 * Self-service sign-up: a new company on a public plan, with its admin. Super users can turn
 * it off with the global setting `userCreation`. Trial plans start paid until the trial ends.
 */
export class Signup {
  constructor(private readonly deps: { onboarding: CompanyOnboarding; plans: Plans; settings: Settings; clock: Clock }) {}

  async execute(input: SignupInput): Promise<OnboardedCompany> {
    const { onboarding, plans, settings, clock } = this.deps;
    const allowed = (await settings.get(null, 'userCreation')) ?? settingDefinition('userCreation')!.defaultValue;
    if (allowed !== 'enabled') throw new ForbiddenError('ERR_SIGNUP_DISABLED');
    const plan = await plans.findById(input.planId);
    if (!plan || !plan.isPublic) throw new NotFoundError('ERR_NO_PLAN_FOUND');
    const days = plan.trial ? plan.trialDays : 0;
    const dueDate = new Date(clock.now().getTime() + days * 86_400_000).toISOString().slice(0, 10);
    return onboarding.onboard({
      name: input.companyName,
      email: input.email,
      phone: input.phone ?? null,
      document: input.document ?? null,
      planId: plan.id,
      dueDate,
      recurrence: plan.recurrence,
      status: true,
      admin: { name: input.name, email: input.email, password: input.password },
    });
  }
}
