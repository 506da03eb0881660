import { assertSuper, type Actor } from '../shared/actor.js';
import type { CompanyOnboarding, OnboardCompanyInput, OnboardedCompany } from './company-onboarding.js';

export interface CreateCompanyInput extends Omit<OnboardCompanyInput, 'admin'> {
  readonly actor: Actor;
  /** The first admin; its e-mail defaults to the company's. */
  readonly adminName?: string;
  readonly adminEmail?: string;
  readonly password: string;
}

/** Super users (and the integration API) create companies, each with its first admin. */
export class CreateCompany {
  constructor(private readonly deps: { onboarding: CompanyOnboarding }) {}

  async execute(input: CreateCompanyInput): Promise<OnboardedCompany> {
    assertSuper(input.actor);
    const { actor, adminName, adminEmail, password, ...company } = input;
    return this.deps.onboarding.onboard({
      ...company,
      admin: { name: adminName ?? input.name, email: adminEmail ?? input.email ?? '', password },
    });
  }
}
