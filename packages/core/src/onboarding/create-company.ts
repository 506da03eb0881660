import { assertSuper } from '../shared/actor.js';
import type { Actor } from '../shared/actor.js';
import type { CompanyOnboarding, OnboardedCompany } from './company-onboarding.js';

export interface CreateCompanyInput {
  readonly actor: Actor;
  readonly name: string;
  readonly email?: string | null;
  readonly phone?: string | null;
  readonly document?: string | null;
  readonly status?: boolean;
  readonly planId: number;
  readonly dueDate?: string | null;
  readonly recurrence?: string;
  readonly paymentMethod?: string | null;
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
