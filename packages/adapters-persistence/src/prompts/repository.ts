import type { MikroORM } from '@mikro-orm/core';
import type { NewPrompt, Prompt } from '@servicedesk/core/prompts/prompt';
import type { PromptQuery, Prompts, TokenUsage } from '@servicedesk/core/prompts/ports';
import type { PromptAnswerRecord, PromptAnswers } from '@servicedesk/core/prompts/prompt-answer';
import { MikroOrmRepository } from '../shared/context.js';
import { foldedOrder, searchWhere } from '../shared/search.js';
import { PromptAnswerSchema, PromptSchema } from './schema.js';

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
    const [rows, count] = await this.em.findAndCount(
      PromptSchema,
      { companyId: q.companyId, ...searchWhere(['name'], q.search) },
      {
        ...READ,
        orderBy: [foldedOrder('name'), { id: 'asc' }],
        offset: q.page.offset,
        limit: q.page.limit,
      },
    );
    return { rows, count };
  }
  async add(p: NewPrompt): Promise<Prompt> {
    const id = (await this.em.insert(PromptSchema, { ...p } as Prompt)) as number;
    return { ...p, id };
  }
  async update(p: Prompt) {
    const { name, prompt, queueId, provider, baseUrl, model, apiKeySealed, apiKeyHint, maxMessages, maxTokens, temperature, voice, updatedAt } = p;
    await this.em.nativeUpdate(
      PromptSchema,
      { id: p.id, companyId: p.companyId },
      {
        name,
        prompt,
        queueId,
        provider,
        baseUrl,
        model,
        apiKeySealed,
        apiKeyHint,
        maxMessages,
        maxTokens,
        temperature,
        voice,
        updatedAt,
      },
    );
  }
  async addUsage(companyId: number, id: number, usage: TokenUsage) {
    if (!isId(id)) return;
    await this.em.execute(
      'update prompts set prompt_tokens = prompt_tokens + ?, completion_tokens = completion_tokens + ?, total_tokens = total_tokens + ? where id = ? and company_id = ?',
      [usage.promptTokens, usage.completionTokens, usage.totalTokens, id, companyId],
    );
  }
  /** Plain SQL: `connections` and `queues` are the core's tables, which every database has. */
  async links(companyId: number, id: number) {
    if (!isId(id)) return { connections: 0, queues: 0 };
    const [row] = await this.em.execute<Array<{ connections: number; queues: number }>>(
      `select (select count(*)::int from connections where company_id = ? and prompt_id = ?) as connections,
        (select count(*)::int from queues where company_id = ? and prompt_id = ?) as queues`,
      [companyId, id, companyId, id],
    );
    return { connections: row!.connections, queues: row!.queues };
  }
  async remove(companyId: number, id: number) {
    if (!isId(id)) return false;
    return (await this.em.nativeDelete(PromptSchema, { id, companyId })) > 0;
  }
}

/** The answer records: the primary key on the message makes a second claim a no-op. */
export class MikroOrmPromptAnswers extends MikroOrmRepository implements PromptAnswers {
  async has(companyId: number, messageId: string) {
    return (await this.em.count(PromptAnswerSchema, { companyId, messageId })) > 0;
  }
  async claim(record: PromptAnswerRecord) {
    const rows = await this.em.execute(
      'insert into prompt_answers (message_id, company_id, ticket_id, prompt_id, outcome, reason, at) values (?, ?, ?, ?, ?, ?, ?) on conflict (message_id) do nothing returning message_id',
      [record.messageId, record.companyId, record.ticketId, record.promptId, record.outcome, record.reason, record.at],
    );
    return rows.length === 1;
  }
  async ofTicket(companyId: number, ticketId: number) {
    if (!isId(ticketId)) return [];
    return this.em.find(PromptAnswerSchema, { companyId, ticketId }, { ...READ, orderBy: { at: 'asc', messageId: 'asc' } });
  }
}

/** The prompts' repositories over one ORM. */
export const promptsRepositories = (orm: MikroORM) => ({ prompts: new MikroOrmPrompts(orm), promptAnswers: new MikroOrmPromptAnswers(orm) });
