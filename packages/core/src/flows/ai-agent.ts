import { readAnswer, systemTurn } from '../prompts/prompt-decider.js';
import { findPrompt, type PromptSettings } from '../prompts/manage-prompts.js';
import type { ChatEndpoint, ChatTurn, LanguageModel, Prompts, TokenUsage } from '../prompts/ports.js';
import {
  cleanInstructions,
  cleanMaxTokens,
  cleanPromptApiKey,
  cleanPromptBaseUrl,
  cleanPromptModel,
  cleanTemperature,
  openPromptApiKey,
  PROMPT_LIMITS,
  PROMPT_PROVIDERS,
  TEXT_VOICE,
  type PromptProvider,
} from '../prompts/prompt.js';
import { assertAdmin, type Actor } from '../shared/actor.js';
import { ServiceUnavailableError, ValidationError } from '../shared/errors.js';
import type { Clock, SecretCipher } from '../shared/ports.js';
import type { PlanGuard } from '../tenancy/plan-guard.js';

/** A model given in the request, never stored: for trying settings before they become a prompt. */
export interface AiModelConfig {
  readonly provider?: PromptProvider;
  readonly baseUrl?: string | null;
  readonly model?: string | null;
  readonly apiKey?: string | null;
  readonly instructions?: string;
  readonly temperature?: number;
  readonly maxTokens?: number;
}

/** Which model to ask: one of the company's prompts, or a configuration given inline. */
export interface AiModelChoice {
  readonly promptId?: number;
  readonly config?: AiModelConfig;
}

interface Deps {
  readonly prompts: Prompts;
  readonly model: LanguageModel;
  readonly cipher: SecretCipher;
  readonly plan: Pick<PlanGuard, 'assertFeature'>;
  readonly clock: Clock;
  readonly settings: PromptSettings;
}

/** The model to call and how, resolved from a prompt (its key opened) or an inline configuration (cleaned as a prompt's fields are). */
interface Resolved {
  readonly endpoint: ChatEndpoint;
  readonly instructions: string;
  readonly temperature: number;
  readonly maxTokens: number;
  readonly promptId: number | null;
}

/** The AI routes are an admin's, on a plan with AI (`useOpenAi`). */
async function aiCompany(plan: Deps['plan'], actor: Actor): Promise<number> {
  assertAdmin(actor);
  await plan.assertFeature(actor.companyId, 'ai');
  return actor.companyId;
}

async function resolve(deps: Deps, companyId: number, choice: AiModelChoice, needsInstructions: boolean): Promise<Resolved> {
  if ((choice.promptId === undefined) === (choice.config === undefined)) throw new ValidationError('ERR_FLOW_AI_CONFIG_REQUIRED');
  if (choice.promptId !== undefined) {
    const p = await findPrompt(deps.prompts, companyId, choice.promptId);
    return {
      endpoint: { baseUrl: p.baseUrl, model: p.model, apiKey: openPromptApiKey(deps.cipher, p) },
      instructions: p.prompt,
      temperature: p.temperature,
      maxTokens: p.maxTokens,
      promptId: p.id,
    };
  }
  const c = choice.config!;
  const provider = c.provider ?? 'openai';
  const apiKey = cleanPromptApiKey(c.apiKey);
  if (provider === 'openai' && apiKey === null) throw new ValidationError('ERR_PROMPT_API_KEY_REQUIRED');
  return {
    endpoint: { baseUrl: cleanPromptBaseUrl(provider, c.baseUrl), model: cleanPromptModel(c.model, deps.settings.models), apiKey },
    instructions: needsInstructions || c.instructions !== undefined ? cleanInstructions(c.instructions ?? '') : '',
    temperature: cleanTemperature(c.temperature ?? PROMPT_LIMITS.temperature.default),
    maxTokens: cleanMaxTokens(c.maxTokens ?? PROMPT_LIMITS.maxTokens.default),
    promptId: null,
  };
}

/** Calls the model; the tokens count on the prompt used, if any. */
async function ask(deps: Deps, companyId: number, r: Resolved, messages: readonly ChatTurn[], overrides: { maxTokens?: number; temperature?: number } = {}) {
  const started = deps.clock.now().getTime();
  const answer = await deps.model.complete(r.endpoint, {
    messages,
    maxTokens: overrides.maxTokens ?? r.maxTokens,
    temperature: overrides.temperature ?? r.temperature,
  });
  if (r.promptId !== null) await deps.prompts.addUsage(companyId, r.promptId, answer.usage);
  return { ...answer, latencyMs: Math.max(0, deps.clock.now().getTime() - started) };
}

/**
 * `GET /flowBuilder/ai-agent/options`: what the AI-agent editor offers: the providers and the
 * server's allowed models (`PROMPT_MODELS`, the first the default), voices (text only), the
 * defaults, and the company's prompts to pick from.
 */
export class AiAgentOptions {
  constructor(private readonly deps: Pick<Deps, 'prompts' | 'plan' | 'settings'>) {}

  async execute(input: { readonly actor: Actor }) {
    const companyId = await aiCompany(this.deps.plan, input.actor);
    const models = [...this.deps.settings.models];
    const { rows } = await this.deps.prompts.list({ companyId, page: { offset: 0, limit: 1000 } });
    return {
      providers: PROMPT_PROVIDERS.map((id) => ({ id, name: id === 'openai' ? 'OpenAI' : 'OpenAI-compatible', models })),
      models,
      voices: [TEXT_VOICE],
      defaults: {
        provider: 'openai' as PromptProvider,
        model: models[0] ?? null,
        temperature: PROMPT_LIMITS.temperature.default,
        maxTokens: PROMPT_LIMITS.maxTokens.default,
        maxMessages: PROMPT_LIMITS.maxMessages.default,
        voice: TEXT_VOICE,
      },
      prompts: rows.map((p) => ({ id: p.id, name: p.name, model: p.model, queueId: p.queueId })),
    };
  }
}

export interface ConfigChatResult {
  readonly reply: string;
  readonly usage: TokenUsage;
  /** The model asked for a person (the hand-over phrase, not part of `reply`). */
  readonly handoff: boolean;
  readonly latencyMs: number;
}

/**
 * `POST /flowBuilder/ai-agent/config-chat`: one answer of a prompt (or an inline configuration) to
 * a test conversation, with the instructions and the hand-over rule its answers to contacts get.
 * Nothing is sent to anyone; a prompt's tokens are counted.
 */
export class AiAgentConfigChat {
  constructor(private readonly deps: Deps) {}

  async execute(input: AiModelChoice & { readonly actor: Actor; readonly messages: readonly ChatTurn[] }): Promise<ConfigChatResult> {
    const companyId = await aiCompany(this.deps.plan, input.actor);
    const r = await resolve(this.deps, companyId, input, true);
    const turns = input.messages.filter((m) => m.role !== 'system');
    const answer = await ask(this.deps, companyId, r, [systemTurn({ prompt: r.instructions, maxTokens: r.maxTokens }, { name: '' }), ...turns]);
    const { reply, handOver } = readAnswer(answer.text);
    return { reply, usage: answer.usage, handoff: handOver, latencyMs: answer.latencyMs };
  }
}

/** The fixed instruction the rewriting model is given. */
export const OPTIMIZER_INSTRUCTIONS = [
  'You rewrite system prompts for customer-service assistants that talk to customers in a messaging app.',
  'Make the role clear, state what the assistant may and may not do, keep answers short, and keep every fact and rule the original states.',
  'If the original tells the assistant how to ask for a human, keep that rule word for word.',
  'Answer with the rewritten prompt only: no preamble, no explanation, no quotes.',
].join('\n');

/**
 * `POST /ai-agent/optimize-prompt`: the model (a prompt's, or an inline configuration with its key)
 * rewrites a system prompt toward a goal, a language and a tone. An empty answer is 503.
 */
export class OptimizePrompt {
  constructor(private readonly deps: Deps) {}

  async execute(
    input: AiModelChoice & {
      readonly actor: Actor;
      readonly prompt: string;
      readonly goal?: string;
      readonly language?: string;
      readonly tone?: string;
    },
  ): Promise<{ optimizedPrompt: string }> {
    const companyId = await aiCompany(this.deps.plan, input.actor);
    const original = cleanInstructions(input.prompt);
    const r = await resolve(this.deps, companyId, input, false);
    const wishes = [
      input.goal?.trim() ? `Goal: ${input.goal.trim()}` : '',
      input.language?.trim() ? `Write it in: ${input.language.trim()}` : '',
      input.tone?.trim() ? `Tone: ${input.tone.trim()}` : '',
    ].filter(Boolean);
    const answer = await ask(
      this.deps,
      companyId,
      r,
      [
        { role: 'system', content: OPTIMIZER_INSTRUCTIONS },
        { role: 'user', content: [...wishes, 'The prompt to rewrite:', original].join('\n\n') },
      ],
      { maxTokens: PROMPT_LIMITS.maxTokens.max / 4, temperature: 0.3 },
    );
    const optimizedPrompt = answer.text.trim().slice(0, PROMPT_LIMITS.instructions);
    if (!optimizedPrompt) throw new ServiceUnavailableError('ERR_LANGUAGE_MODEL_UNAVAILABLE');
    return { optimizedPrompt };
  }
}
