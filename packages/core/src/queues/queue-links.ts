import { NotFoundError } from '../shared/errors.js';
import type { PlanGuard } from '../tenancy/plan-guard.js';
import { checkPrompt, type PromptLookup } from './manage-queues.js';
import type { QueueIntegrations } from './ports.js';

/** What a queue's conversations are handed to besides its operators: an integration, an AI assistant. */
export class QueueLinks {
  constructor(
    private readonly deps: {
      readonly integrations: Pick<QueueIntegrations, 'findById'>;
      readonly planGuard: Pick<PlanGuard, 'assertFeature'>;
      readonly prompts?: PromptLookup;
    },
  ) {}

  /** An integration must be the company's, and the plan must allow integrations (403 otherwise). */
  async integration(companyId: number, integrationId: number | null): Promise<number | null> {
    if (integrationId === null) return null;
    await this.deps.planGuard.assertFeature(companyId, 'integrations');
    if (!(await this.deps.integrations.findById(companyId, integrationId))) throw new NotFoundError('ERR_INTEGRATION_NOT_FOUND');
    return integrationId;
  }

  /** A prompt of the company's (404 `ERR_NO_PROMPT_FOUND`), or null. */
  prompt(companyId: number, promptId: number | null): Promise<number | null> {
    return checkPrompt(this.deps.prompts, companyId, promptId);
  }
}
