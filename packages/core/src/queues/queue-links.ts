import { NotFoundError } from '../shared/errors.js';
import type { PlanGuard } from '../tenancy/plan-guard.js';
import type { QueueIntegrations } from './ports.js';

/**
 * What connections and queues need of the prompts to point to one (the `Prompts` port fits it;
 * declared here because the prompts folder depends on this one).
 */
export interface PromptLookup {
  findById(companyId: number, id: number): Promise<{ readonly id: number } | null>;
}

/**
 * A prompt id to point to: null, or one of the company's prompts (404 `ERR_NO_PROMPT_FOUND`,
 * also when no prompts are wired).
 */
export async function checkPrompt(prompts: PromptLookup | undefined, companyId: number, promptId: number | null): Promise<number | null> {
  if (promptId === null) return null;
  if (!prompts || !(await prompts.findById(companyId, promptId))) throw new NotFoundError('ERR_NO_PROMPT_FOUND');
  return promptId;
}

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
