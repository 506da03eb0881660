import type { MikroORM } from '@mikro-orm/core';
import type { NewPrompt, Prompt } from '@servicedesk/core/prompts/prompt';
import type { PromptQuery, Prompts, TokenUsage } from '@servicedesk/core/prompts/ports';
import { MikroOrmRepository } from '../shared/context.js';
import { foldedOrder, searchWhere } from '../shared/search.js';
import { PromptSchema } from './schema.js';

const READ = { disableIdentityMap: true } as const;
/** A positive int4: anything else names no row (and must not reach an int4 parameter). */
const isId = (id: number) => Number.isSafeInteger(id) && id > 0 && id <= 2_147_483_647;

/** Temperatures come back as JS numbers; counters as numbers (the bigint type's number mode). */
export class MikroOrmPrompts extends MikroOrmRepository implements Prompts {
  async findById(companyId: number, id: number) {
    if (!isId(id)) return null;
    return this.em.findOne(PromptSchema, { id, companyId }, READ);
  }
  async list(q: PromptQuery) {
    const [rows, count] = await this.em.findAndCount(PromptSchema, { companyId: q.companyId, ...searchWhere(['name'], q.search) }, {
      ...READ, orderBy: [foldedOrder('name'), { id: 'asc' }], offset: q.page.offset, limit: q.page.limit,
    });
    return { rows, count };
  }
  async add(p: NewPrompt): Promise<Prompt> {
    const id = (await this.em.insert(PromptSchema, { ...p } as Prompt)) as number;
    return { ...p, id };
  }
  async update(p: Prompt) {
    const { name, prompt, queueId, provider, baseUrl, model, apiKeySealed, apiKeyHint, maxMessages, maxTokens, temperature, voice, updatedAt } = p;
    await this.em.nativeUpdate(PromptSchema, { id: p.id, companyId: p.companyId }, {
      name, prompt, queueId, provider, baseUrl, model, apiKeySealed, apiKeyHint, maxMessages, maxTokens, temperature, voice, updatedAt,
    });
  }
  async addUsage(companyId: number, id: number, usage: TokenUsage) {
    if (!isId(id)) return;
    await this.em.execute(
      'update prompts set prompt_tokens = prompt_tokens + ?, completion_tokens = completion_tokens + ?, total_tokens = total_tokens + ? where id = ? and company_id = ?',
      [usage.promptTokens, usage.completionTokens, usage.totalTokens, id, companyId],
    );
  }
  async remove(companyId: number, id: number) {
    if (!isId(id)) return false;
    return (await this.em.nativeDelete(PromptSchema, { id, companyId })) > 0;
  }
}

/** The prompts' repository over one ORM. */
export const promptsRepositories = (orm: MikroORM) => ({ prompts: new MikroOrmPrompts(orm) });
