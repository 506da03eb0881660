import { ForbiddenError } from '../shared/errors.js';
import type { CompanySuspensions } from './ports.js';

/** Nobody of a company suspended for an overdue invoice sends (operators, admins, the message API) until it pays. */
export async function assertMaySend(suspensions: CompanySuspensions | undefined, companyId: number): Promise<void> {
  if (suspensions && (await suspensions.isSuspended(companyId))) throw new ForbiddenError('ERR_COMPANY_SUSPENDED');
}
