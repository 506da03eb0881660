import type { Contacts } from '../contacts/ports.js';
import type { LanguageModel, Prompts } from '../prompts/ports.js';
import { openPromptApiKey } from '../prompts/prompt.js';
import { systemTurn } from '../prompts/prompt-decider.js';
import { DomainError } from '../shared/errors.js';
import type { SecretCipher } from '../shared/ports.js';
import type { FlowCallPayload } from './flow-jobs.js';
import type { FlowAiResult, FlowInput } from './flow-run.js';
import type { FlowHttp, FlowRun } from './flow-runs.js';

/** A run's calls, made by a job outside any transaction: an HTTP node's request, an AI agent's turn. Their result is the engine's next input. */
export class FlowCalls {
  constructor(
    private readonly deps: {
      readonly http: FlowHttp;
      readonly model: LanguageModel;
      readonly prompts: Pick<Prompts, 'findById'>;
      readonly cipher: SecretCipher;
      readonly contacts: Pick<Contacts, 'findById'>;
    },
  ) {}

  async make(run: FlowRun, p: FlowCallPayload): Promise<FlowInput> {
    if (p.kind === 'http') {
      const httpResult = await this.deps.http.call(p.request).catch((err: unknown) => ({ error: err instanceof Error ? err.message : 'request failed' }));
      return { httpResult };
    }
    return { aiResult: await this.askModel(run, p) };
  }

  /** The model's answer to an AI agent's turn: a company prompt (its key opened, its instructions first) or the node's keyless model. */
  private async askModel(run: FlowRun, p: Extract<FlowCallPayload, { kind: 'ai' }>): Promise<FlowAiResult> {
    try {
      const contact = await this.deps.contacts.findById(run.companyId, run.contactId);
      if (p.promptId !== null) {
        const prompt = await this.deps.prompts.findById(run.companyId, p.promptId);
        if (!prompt) return { error: 'ERR_NO_PROMPT_FOUND' };
        const endpoint = { baseUrl: prompt.baseUrl, model: prompt.model, apiKey: openPromptApiKey(this.deps.cipher, prompt) };
        const messages = [systemTurn(prompt, { name: contact?.name ?? '' }), ...p.messages];
        return { text: (await this.deps.model.complete(endpoint, { messages, maxTokens: prompt.maxTokens, temperature: prompt.temperature })).text };
      }
      if (!p.model) return { error: 'ERR_FLOW_AI_CONFIG_REQUIRED' };
      const m = p.model;
      const messages = [systemTurn({ prompt: m.instructions, maxTokens: m.maxTokens }, { name: contact?.name ?? '' }), ...p.messages];
      const answer = await this.deps.model.complete(
        { baseUrl: m.baseUrl, model: m.model, apiKey: null },
        { messages, maxTokens: m.maxTokens, temperature: m.temperature },
      );
      return { text: answer.text };
    } catch (err) {
      return { error: err instanceof DomainError ? err.code : 'ERR_LANGUAGE_MODEL_UNAVAILABLE' };
    }
  }
}
