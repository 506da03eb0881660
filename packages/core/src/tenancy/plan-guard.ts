import type { ErrorCode } from '../shared/error-codes.js';
import { ForbiddenError, NotFoundError } from '../shared/errors.js';
import type { PlanFeature, PlanLimit } from './plan.js';
import type { Companies, Plans } from './ports.js';

/** Lineage error codes for exceeded limits, which frontends already translate. */
const LIMIT_CODES: Record<PlanLimit, ErrorCode> = {
  users: 'ERR_USER_CREATION_COUNT',
  connections: 'ERR_CONNECTION_CREATION_COUNT',
  queues: 'ERR_QUEUE_CREATION_COUNT',
};

/** Enforces a company's plan: its limits and its feature flags, both as 403. */
export class PlanGuard {
  constructor(private readonly deps: { companies: Companies; plans: Plans }) {}

  async planOf(companyId: number) {
    const company = await this.deps.companies.findById(companyId);
    if (!company) throw new NotFoundError('ERR_NO_COMPANY_FOUND');
    const plan = await this.deps.plans.findById(company.planId);
    if (!plan) throw new NotFoundError('ERR_NO_PLAN_FOUND');
    return plan;
  }

  /** Throws 403 when adding one more would exceed the plan's limit. */
  async assertRoomFor(companyId: number, limit: PlanLimit, currentCount: number): Promise<void> {
    const plan = await this.planOf(companyId);
    if (currentCount >= plan[limit]) throw new ForbiddenError(LIMIT_CODES[limit]);
  }

  async assertFeature(companyId: number, feature: PlanFeature): Promise<void> {
    const plan = await this.planOf(companyId);
    if (!plan.features[feature]) throw new ForbiddenError('ERR_PLAN_FEATURE_DISABLED', { feature });
  }
}
