import { BigIntType, EntitySchema } from '@mikro-orm/core';
import { PROMPT_PROVIDERS, type Prompt } from '@servicedesk/core/prompts/prompt';
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

export const PROMPT_SCHEMAS = [PromptSchema];
