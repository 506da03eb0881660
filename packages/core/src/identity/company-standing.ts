import type { Companies, CompanySuspensions } from '../tenancy/ports.js';
import { assertCompanyActive, assertNotSuspended } from './authenticate.js';
import type { User } from './user.js';

/** Whether a user's company lets them work: it is active, and (for its operators) not suspended. */
export class CompanyStanding {
  constructor(private readonly deps: { readonly companies: Companies; readonly suspensions?: CompanySuspensions }) {}

  /** 401 `ERR_SESSION_EXPIRED` for an inactive company, then 403 `ERR_COMPANY_SUSPENDED` for a suspended one. */
  async assert(user: User): Promise<void> {
    await assertCompanyActive(this.deps.companies, user);
    await assertNotSuspended(this.deps.suspensions, user);
  }
}
