import { BigIntType, EntitySchema } from '@mikro-orm/core';
import { PROMPT_PROVIDERS, type Prompt } from '@servicedesk/core/prompts/prompt';
import type { PromptAnswerRecord } from '@servicedesk/core/prompts/prompt-answer';
import { foreignKeysOf } from '../shared/columns.js';

const prompts = foreignKeysOf('prompts');
/** A token counter: bigint in the table, a number in the domain (exact up to 2^53). */
const tokens = { type: new BigIntType('number'), default: 0 } as const;

/** As m0023 creates `prompts`. */
export const PromptSchema = new EntitySchema<Prompt>({
  name: 'Prompt',
  tableName: 'prompts',
  properties: {
    id: { type: 'number', primary: true, autoincrement: true },
    companyId: prompts('company_id', 'Company', 'cascade'),
    name: { type: 'string', length: 100 },
    prompt: { type: 'text' },
    queueId: prompts('queue_id', 'Queue', 'set null', { nullable: true }),
    provider: { type: 'string', enum: true, items: [...PROMPT_PROVIDERS], columnType: 'varchar(20)' },
    baseUrl: { type: 'string', length: 500 },
    model: { type: 'string', length: 100 },
    apiKeySealed: { type: 'text', nullable: true },
    apiKeyHint: { type: 'string', length: 4, nullable: true },
    maxMessages: { type: 'number' },
    maxTokens: { type: 'number' },
    temperature: { type: 'double' },
    voice: { type: 'string', length: 60 },
    promptTokens: tokens,
    completionTokens: tokens,
    totalTokens: tokens,
    createdAt: { type: 'Date' },
    updatedAt: { type: 'Date' },
  },
  indexes: [
    { name: 'prompts_company_id_idx', properties: ['companyId'] },
    { name: 'prompts_queue_id_idx', properties: ['queueId'] },
  ],
});

const answers = foreignKeysOf('prompt_answers');

/** As m0023 creates `prompt_answers`: the prompt id is kept as written (a deleted prompt's records stay). */
export const PromptAnswerSchema = new EntitySchema<PromptAnswerRecord>({
  name: 'PromptAnswer',
  tableName: 'prompt_answers',
  properties: {
    messageId: { type: 'uuid', primary: true },
    companyId: answers('company_id', 'Company', 'cascade'),
    ticketId: answers('ticket_id', 'Ticket', 'cascade'),
    promptId: { type: 'number' },
    outcome: { type: 'string', enum: true, items: ['answered', 'handed-over', 'skipped'], columnType: 'varchar(20)' },
    reason: { type: 'string', length: 60, nullable: true },
    at: { type: 'Date' },
  },
  indexes: [{ name: 'prompt_answers_ticket_idx', properties: ['companyId', 'ticketId', 'at'] }],
});

export const PROMPT_SCHEMAS = [PromptSchema, PromptAnswerSchema];
