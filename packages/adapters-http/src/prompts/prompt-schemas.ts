import { PROMPT_PROVIDERS } from '@servicedesk/core/prompts/prompt';
import { z } from 'zod';
import { queueSummarySchema } from '../queues/queue-schemas.js';

/** What the prompt routes answer (packages/core/src/prompts): prompts with their key write-only. */

const timestamp = z.iso.datetime();

const PROMPT_EXAMPLE = {
  id: 4,
  companyId: 1,
  name: 'Atendente virtual',
  prompt: 'Você é o atendente da Loja Exemplo. Responda de forma breve e cordial.',
  queueId: 2,
  queue: { id: 2, name: 'Suporte', color: '#7c7c7c' },
  provider: 'openai' as const,
  baseUrl: 'https://api.openai.com/v1',
  model: 'gpt-4o-mini',
  hasApiKey: true,
  apiKeyLast4: 'x9Qe',
  maxMessages: 10,
  maxTokens: 300,
  temperature: 0.7,
  voice: 'texto',
  promptTokens: 1520,
  completionTokens: 410,
  totalTokens: 1930,
  createdAt: '2025-11-27T18:00:00.000Z',
  updatedAt: '2025-11-27T18:00:00.000Z',
};

const count = z.number().int().nonnegative();

export const promptSchema = z
  .object({
    id: z.number().int().positive(),
    companyId: z.number().int().positive(),
    name: z.string(),
    prompt: z.string().meta({ description: 'The instructions the model is given (system message)' }),
    queueId: z
      .number()
      .int()
      .positive()
      .nullable()
      .meta({ description: 'Where the conversation is handed to when a human is needed (null once that queue was deleted)' }),
    queue: queueSummarySchema.nullable(),
    provider: z
      .enum(PROMPT_PROVIDERS)
      .meta({ description: '`openai`, or `openai-compatible` for any service with the same API (Azure OpenAI, a local server…)' }),
    baseUrl: z.string().meta({ description: 'Requests go to `<baseUrl>/chat/completions`' }),
    model: z.string().meta({ description: "One of the server's allowed models (`PROMPT_MODELS`)" }),
    hasApiKey: z.boolean().meta({ description: 'A key is stored (it is never shown)' }),
    apiKeyLast4: z.string().nullable().meta({ description: "The key's last four characters (null for none or a short key)" }),
    maxMessages: z.number().int().meta({ description: "How many of the conversation's latest messages go with each inbound one" }),
    maxTokens: z.number().int(),
    temperature: z.number(),
    voice: z.string().meta({ description: 'Always `texto`: answers are text' }),
    promptTokens: count.meta({ description: 'Tokens sent to the model so far' }),
    completionTokens: count.meta({ description: 'Tokens the model answered so far' }),
    totalTokens: count,
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .meta({ id: 'Prompt', description: 'An AI assistant of the company; the API key is write-only', example: PROMPT_EXAMPLE });

export const promptPageSchema = z
  .object({
    prompts: z.array(promptSchema),
    count: count,
    hasMore: z.boolean(),
  })
  .meta({
    id: 'PromptPage',
    description: "A page of the company's prompts (20 a page, by name)",
    example: { prompts: [PROMPT_EXAMPLE], count: 1, hasMore: false },
  });
