import type { RealtimeEvent } from '../events/realtime-event.js';
import { CreatePrompt, DEFAULT_PROMPT_SETTINGS, DeletePrompt, ListPrompts, ShowPrompt, UpdatePrompt, type PromptSettings } from '../prompts/manage-prompts.js';
import type { LanguageModel, Prompts } from '../prompts/ports.js';
import type { Queues } from '../queues/ports.js';
import type { RealtimeEvents } from '../realtime/ports.js';
import type { Clock, SecretCipher } from '../shared/ports.js';
import { PlanGuard } from '../tenancy/plan-guard.js';
import type { Companies, Plans } from '../tenancy/ports.js';

/** The prompts' own ports: their table, the chat model, and the server's allow-list of models. */
export interface PromptPorts {
  readonly prompts: Prompts;
  readonly languageModel: LanguageModel;
  readonly promptSettings?: PromptSettings;
}

interface SharedPorts {
  readonly companies: Companies;
  readonly plans: Plans;
  readonly queues: Queues;
  /** Seals the prompts' API keys at rest. */
  readonly secretCipher: SecretCipher;
  readonly realtime: RealtimeEvents<RealtimeEvent>;
  readonly clock: Clock;
}

/** AI assistants (prompts) per company: an admin's configuration, on plans with AI. */
export function createPrompts(p: PromptPorts & SharedPorts) {
  const plan = new PlanGuard({ companies: p.companies, plans: p.plans });
  const deps = {
    prompts: p.prompts, queues: p.queues, cipher: p.secretCipher, plan, realtime: p.realtime, clock: p.clock, settings: p.promptSettings ?? DEFAULT_PROMPT_SETTINGS,
  };
  return {
    listPrompts: new ListPrompts(deps),
    showPrompt: new ShowPrompt(deps),
    createPrompt: new CreatePrompt(deps),
    updatePrompt: new UpdatePrompt(deps),
    deletePrompt: new DeletePrompt(deps),
  };
}
export type PromptsApi = ReturnType<typeof createPrompts>;
