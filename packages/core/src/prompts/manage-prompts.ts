import type { Queues } from '../queues/ports.js';
import type { RealtimeEvents } from '../realtime/ports.js';
import { assertAdmin, type Actor } from '../shared/actor.js';
import { ConflictError, NotFoundError, ValidationError } from '../shared/errors.js';
import { hasMore, pageFromNumber } from '../shared/paging.js';
import type { Clock, SecretCipher } from '../shared/ports.js';
import type { PlanGuard } from '../tenancy/plan-guard.js';
import {
  assertPromptComplete,
  cleanInstructions,
  cleanMaxMessages,
  cleanMaxTokens,
  cleanPromptApiKey,
  cleanPromptBaseUrl,
  cleanPromptModel,
  cleanPromptName,
  cleanTemperature,
  cleanVoice,
  PROMPT_LIMITS,
  sealPromptApiKey,
  toPromptView,
  type Prompt,
  type PromptProvider,
  type PromptView,
} from './prompt.js';
import type { PromptEvent } from './prompt-events.js';
import type { Prompts } from './ports.js';

/** Which models prompts may use: the server's allow-list, the first being the default. */
export interface PromptSettings {
  readonly models: readonly string[];
}

export const DEFAULT_PROMPT_SETTINGS: PromptSettings = { models: ['gpt-4o-mini', 'gpt-4o', 'gpt-4.1-mini', 'gpt-4.1'] };

/** The fields of a prompt being created or edited; on an edit, absent keeps what is stored. */
export interface PromptInput {
  readonly name?: string;
  readonly prompt?: string;
  /** Required on create; null is refused (`ERR_PROMPT_QUEUE_REQUIRED`). */
  readonly queueId?: number | null;
  readonly provider?: PromptProvider;
  /** Null or absent with `openai`: OpenAI's own. Required with `openai-compatible`. */
  readonly baseUrl?: string | null;
  /** One of the allow-list; null or absent: its first. */
  readonly model?: string | null;
  /** Write-only. On create a string is the key. On an edit a non-empty string replaces it, absent or `""` keeps it (a form sends back the empty field it was shown), null removes it. */
  readonly apiKey?: string | null;
  readonly maxMessages?: number;
  readonly maxTokens?: number;
  readonly temperature?: number;
  readonly voice?: string | null;
}

interface Deps {
  readonly prompts: Prompts;
  readonly queues: Pick<Queues, 'findById' | 'findByIds'>;
  readonly cipher: SecretCipher;
  readonly plan: Pick<PlanGuard, 'assertFeature'>;
  readonly realtime: RealtimeEvents<PromptEvent>;
  readonly clock: Clock;
  readonly settings: PromptSettings;
}

/** Prompts are an admin's business, on a plan with AI (`useOpenAi`); answers the admin's company. */
async function managedCompany(plan: Deps['plan'], actor: Actor): Promise<number> {
  assertAdmin(actor);
  await plan.assertFeature(actor.companyId, 'ai');
  return actor.companyId;
}

/** The company's prompt, or 404 `ERR_NO_PROMPT_FOUND` (also for another company's). */
export async function findPrompt(prompts: Prompts, companyId: number, id: number): Promise<Prompt> {
  const found = await prompts.findById(companyId, id);
  if (!found) throw new NotFoundError('ERR_NO_PROMPT_FOUND');
  return found;
}

async function viewOf(queues: Deps['queues'], p: Prompt): Promise<PromptView> {
  const queue = p.queueId === null ? null : await queues.findById(p.companyId, p.queueId);
  return toPromptView(p, queue);
}

/** The hand-over queue must be one of the company's (404 `ERR_QUEUE_NOT_FOUND`). */
async function assertQueue(queues: Deps['queues'], companyId: number, queueId: number): Promise<number> {
  if (!(await queues.findById(companyId, queueId))) throw new NotFoundError('ERR_QUEUE_NOT_FOUND');
  return queueId;
}

/** A page of the company's prompts found by name (20 a page, by name), each with its queue. */
export class ListPrompts {
  constructor(private readonly deps: Pick<Deps, 'prompts' | 'queues' | 'plan'>) {}

  async execute(input: { readonly actor: Actor; readonly searchParam?: string; readonly pageNumber?: number }) {
    const companyId = await managedCompany(this.deps.plan, input.actor);
    const page = pageFromNumber(input.pageNumber);
    const result = await this.deps.prompts.list({ companyId, page, ...(input.searchParam?.trim() ? { search: input.searchParam } : {}) });
    const ids = [...new Set(result.rows.flatMap((p) => (p.queueId === null ? [] : [p.queueId])))];
    const queues = new Map((ids.length ? await this.deps.queues.findByIds(companyId, ids) : []).map((q) => [q.id, q]));
    const prompts: PromptView[] = result.rows.map((p) => toPromptView(p, p.queueId === null ? null : (queues.get(p.queueId) ?? null)));
    return { prompts, count: result.count, hasMore: hasMore(page, result.count) };
  }
}

export class ShowPrompt {
  constructor(private readonly deps: Pick<Deps, 'prompts' | 'queues' | 'plan'>) {}

  async execute(input: { readonly actor: Actor; readonly promptId: number }): Promise<PromptView> {
    const companyId = await managedCompany(this.deps.plan, input.actor);
    return viewOf(this.deps.queues, await findPrompt(this.deps.prompts, companyId, input.promptId));
  }
}

/** Admins create a prompt (`prompt` event, action `create`); the key is sealed before it is stored. */
export class CreatePrompt {
  constructor(private readonly deps: Deps) {}

  async execute(input: PromptInput & { readonly actor: Actor; readonly name: string; readonly prompt: string }): Promise<PromptView> {
    const { prompts, queues, cipher, realtime, clock, settings } = this.deps;
    const companyId = await managedCompany(this.deps.plan, input.actor);
    const provider = input.provider ?? 'openai';
    const name = cleanPromptName(input.name);
    const instructions = cleanInstructions(input.prompt);
    const baseUrl = cleanPromptBaseUrl(provider, input.baseUrl);
    const model = cleanPromptModel(input.model, settings.models);
    const maxMessages = cleanMaxMessages(input.maxMessages ?? PROMPT_LIMITS.maxMessages.default);
    const maxTokens = cleanMaxTokens(input.maxTokens ?? PROMPT_LIMITS.maxTokens.default);
    const temperature = cleanTemperature(input.temperature ?? PROMPT_LIMITS.temperature.default);
    const voice = cleanVoice(input.voice);
    const sealed = sealPromptApiKey(cipher, companyId, cleanPromptApiKey(input.apiKey));
    assertPromptComplete({ provider, ...sealed });
    if (input.queueId === undefined || input.queueId === null) throw new ValidationError('ERR_PROMPT_QUEUE_REQUIRED');
    const queueId = await assertQueue(queues, companyId, input.queueId);
    const now = clock.now();
    const added = await prompts.add({
      companyId,
      name,
      prompt: instructions,
      queueId,
      provider,
      baseUrl,
      model,
      ...sealed,
      maxMessages,
      maxTokens,
      temperature,
      voice,
      promptTokens: 0,
      completionTokens: 0,
      totalTokens: 0,
      createdAt: now,
      updatedAt: now,
    });
    const view = await viewOf(queues, added);
    await realtime.publish(companyId, { entity: 'prompt', data: { action: 'create', prompt: view } });
    return view;
  }
}

/** Admins edit a prompt: only the fields given change; the key only when a new one is sent (`prompt` event, action `update`). */
export class UpdatePrompt {
  constructor(private readonly deps: Deps) {}

  async execute(input: PromptInput & { readonly actor: Actor; readonly promptId: number }): Promise<PromptView> {
    const { prompts, queues, cipher, realtime, clock, settings } = this.deps;
    const companyId = await managedCompany(this.deps.plan, input.actor);
    const current = await findPrompt(prompts, companyId, input.promptId);
    const next: Prompt = { ...current };
    if (input.name !== undefined) next.name = cleanPromptName(input.name);
    if (input.prompt !== undefined) next.prompt = cleanInstructions(input.prompt);
    if (input.provider !== undefined) next.provider = input.provider;
    if (input.baseUrl !== undefined || input.provider !== undefined) {
      next.baseUrl = cleanPromptBaseUrl(next.provider, input.baseUrl !== undefined ? input.baseUrl : input.provider === 'openai' ? null : current.baseUrl);
    }
    if (input.model !== undefined) next.model = cleanPromptModel(input.model, settings.models);
    if (input.maxMessages !== undefined) next.maxMessages = cleanMaxMessages(input.maxMessages);
    if (input.maxTokens !== undefined) next.maxTokens = cleanMaxTokens(input.maxTokens);
    if (input.temperature !== undefined) next.temperature = cleanTemperature(input.temperature);
    if (input.voice !== undefined) next.voice = cleanVoice(input.voice);
    if (input.apiKey === null) Object.assign(next, sealPromptApiKey(cipher, companyId, null));
    else if (input.apiKey !== undefined && input.apiKey !== '') Object.assign(next, sealPromptApiKey(cipher, companyId, cleanPromptApiKey(input.apiKey)));
    assertPromptComplete(next);
    if (input.queueId === null) throw new ValidationError('ERR_PROMPT_QUEUE_REQUIRED');
    if (input.queueId !== undefined) next.queueId = await assertQueue(queues, companyId, input.queueId);
    next.updatedAt = clock.now();
    await prompts.update(next);
    const view = await viewOf(queues, await findPrompt(prompts, companyId, current.id));
    await realtime.publish(companyId, { entity: 'prompt', data: { action: 'update', prompt: view } });
    return view;
  }
}

/**
 * Admins remove a prompt no connection or queue points to (409 `ERR_PROMPT_IN_USE` otherwise: they
 * would silently stop being answered). `prompt` event, action `delete`.
 */
export class DeletePrompt {
  constructor(private readonly deps: Pick<Deps, 'prompts' | 'plan' | 'realtime'>) {}

  async execute(input: { readonly actor: Actor; readonly promptId: number }): Promise<void> {
    const { prompts } = this.deps;
    const companyId = await managedCompany(this.deps.plan, input.actor);
    await findPrompt(prompts, companyId, input.promptId);
    const links = await prompts.links(companyId, input.promptId);
    if (links.connections > 0 || links.queues > 0) throw new ConflictError('ERR_PROMPT_IN_USE');
    if (!(await prompts.remove(companyId, input.promptId))) throw new NotFoundError('ERR_NO_PROMPT_FOUND');
    await this.deps.realtime.publish(companyId, { entity: 'prompt', data: { action: 'delete', promptId: input.promptId } });
  }
}
