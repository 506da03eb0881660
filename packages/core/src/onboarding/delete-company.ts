import { assertSuper, type Actor } from '../shared/actor.js';
import { ValidationError } from '../shared/errors.js';
import type { Companies } from '../tenancy/ports.js';
import type { Users } from '../identity/ports.js';
import { visibleCompany } from '../tenancy/read-companies.js';

/**
 * Removes a company and everything it owns. Nobody removes their own company, nor the company
 * that holds super users (the platform's own), which would lock the platform out.
 */
export class DeleteCompany {
  constructor(private readonly deps: { companies: Companies; users: Users }) {}

  async execute(input: { actor: Actor; companyId: number }): Promise<void> {
    assertSuper(input.actor);
    if (input.companyId === input.actor.companyId) throw new ValidationError('ERR_CANNOT_DELETE_OWN_COMPANY');
    const company = await visibleCompany(this.deps.companies, input.actor, input.companyId);
    const members = await this.deps.users.listAll(company.id);
    if (members.some((u) => u.profile === 'super')) throw new ValidationError('ERR_CANNOT_DELETE_PLATFORM_COMPANY');
    await this.deps.companies.remove(company.id);
  }
}
