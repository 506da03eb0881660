import type { PromptsApi } from '@servicedesk/core/compose/prompts';
import type { PromptInput } from '@servicedesk/core/prompts/manage-prompts';
import { PROMPT_PROVIDERS } from '@servicedesk/core/prompts/prompt';
import { z } from 'zod';
import { deletedSchema } from '../company-api/company-api-schemas.js';
import { route, type RouteError } from '../http/route.js';
import { id, idParam, pagedQuery } from '../http/schemas.js';
import { promptPageSchema, promptSchema } from './prompt-schemas.js';

type PromptsApp = { readonly prompts: PromptsApi };

const TAG = 'Files, prompts, proxies, utilities';
const ADMIN_ONLY: RouteError = {
  status: 403,
  codes: ['ERR_NO_PERMISSION', 'ERR_PLAN_FEATURE_DISABLED'],
  description: 'Admins only; and the plan must include AI (`useOpenAi`)',
};
const NOT_FOUND: RouteError = { status: 404, codes: ['ERR_NO_PROMPT_FOUND'] };
const FIELD_ERRORS: RouteError = {
  status: 422,
  codes: [
    'ERR_PROMPT_INVALID_NAME',
    'ERR_PROMPT_INVALID_INSTRUCTIONS',
    'ERR_PROMPT_INVALID_MAX_MESSAGES',
    'ERR_PROMPT_INVALID_MAX_TOKENS',
    'ERR_PROMPT_INVALID_TEMPERATURE',
    'ERR_PROMPT_VOICE_NOT_SUPPORTED',
    'ERR_PROMPT_MODEL_NOT_ALLOWED',
    'ERR_PROMPT_INVALID_BASE_URL',
    'ERR_PROMPT_INVALID_API_KEY',
    'ERR_PROMPT_API_KEY_REQUIRED',
    'ERR_PROMPT_QUEUE_REQUIRED',
  ],
};
const QUEUE_NOT_FOUND: RouteError = { status: 404, codes: ['ERR_QUEUE_NOT_FOUND'], description: '`queueId` is not a queue of the company' };

/** A number as JSON or as the text a form field holds (`"0.7"`). */
const formNumber = z.union([
  z.number(),
  z
    .string()
    .trim()
    .regex(/^-?\d+(\.\d+)?$/)
    .transform(Number),
]);

/** What the prompt form sends; on an edit the whole loaded prompt may come back (read-only fields are ignored). */
const promptBody = z
  .object({
    name: z.string().max(1000).meta({ description: 'Shown in the prompt list and the connection and queue pickers; 1 to 100 characters once trimmed' }),
    prompt: z.string().max(100_000).meta({ description: 'The instructions (system message), up to 20,000 characters' }),
    queueId: id.nullable().meta({ description: 'The queue a conversation is handed to when a human is needed (required)' }),
    provider: z.enum(PROMPT_PROVIDERS).meta({ description: '`openai` (the default) or `openai-compatible`' }),
    baseUrl: z
      .string()
      .max(2000)
      .nullable()
      .meta({ description: 'Required with `openai-compatible` (e.g. `http://llm.lan:8080/v1`); null or absent with `openai`' }),
    model: z.string().max(200).nullable().meta({ description: "One of the server's allowed models (`PROMPT_MODELS`); absent: the first of them" }),
    apiKey: z.string().max(10_000).nullable().meta({
      description:
        'Write-only: stored sealed, never shown. On an edit absent or `""` keeps the stored key (the form sends the empty field back), null removes it',
    }),
    maxMessages: formNumber.meta({ description: '1 to 50 (default 10)' }),
    maxTokens: formNumber.meta({ description: '1 to 16,000 (default 100)' }),
    temperature: formNumber.meta({ description: '0 to 2 (default 1)' }),
    voice: z.string().max(100).nullable().meta({ description: '`texto` (answers are text); a synthesised voice is refused' }),
  })
  .partial();

const PROMPT_BODY_EXAMPLE = {
  name: 'Atendente virtual',
  prompt: 'Você é o atendente da Loja Exemplo. Responda de forma breve e cordial.',
  queueId: 2,
  provider: 'openai' as const,
  model: 'gpt-4o-mini',
  apiKey: 'sk-proj-3f9c2a7b1d8e4x9Qe',
  maxMessages: 10,
  maxTokens: 300,
  temperature: 0.7,
  voice: 'texto',
};

const input = (body: z.output<typeof promptBody>): PromptInput => Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined)) as PromptInput;

/**
 * The company's AI assistants (`/prompt`, the lineage's paths): instructions for an
 * OpenAI-compatible chat model, the API key write-only, the model from the server's allow-list.
 */
export function promptRoutes(app: PromptsApp) {
  const p = app.prompts;
  const byId = idParam('promptId');
  return [
    route({
      method: 'GET',
      path: '/prompt',
      auth: 'isAuth',
      feature: 'ai',
      tag: TAG,
      operationId: 'listPrompts',
      summary: "The company's prompts (admin)",
      query: pagedQuery,
      description: 'Admins only, on a plan with AI. 20 a page, by name; `searchParam` matches the name. Keys are never shown (`hasApiKey`, `apiKeyLast4`).',
      response: promptPageSchema,
      errors: [ADMIN_ONLY],
      handler: async ({ actor, query }) =>
        p.listPrompts.execute({
          actor,
          ...(query.searchParam !== undefined ? { searchParam: query.searchParam } : {}),
          ...(query.pageNumber !== undefined ? { pageNumber: query.pageNumber } : {}),
        }),
    }),
    route({
      method: 'POST',
      path: '/prompt',
      auth: 'isAuth',
      feature: 'ai',
      tag: TAG,
      operationId: 'createPrompt',
      summary: 'Add a prompt (admin)',
      body: promptBody.required({ name: true, prompt: true }).meta({ example: PROMPT_BODY_EXAMPLE }),
      description:
        'Admins only, on a plan with AI. The key is sealed (AES-256-GCM) before it is stored and never shown again. Answers 200 with the prompt ' +
        '(as the lineage) and sends a `prompt` frame (`create`) to admins.',
      response: promptSchema,
      errors: [ADMIN_ONLY, FIELD_ERRORS, QUEUE_NOT_FOUND],
      handler: async ({ actor, body }) => p.createPrompt.execute({ ...input(body), actor, name: body.name, prompt: body.prompt }),
    }),
    route({
      method: 'GET',
      path: '/prompt/:promptId',
      auth: 'isAuth',
      feature: 'ai',
      tag: TAG,
      operationId: 'showPrompt',
      summary: 'One prompt (admin)',
      params: byId,
      description: "Admins only, on a plan with AI. Another company's prompt is not found.",
      response: promptSchema,
      errors: [ADMIN_ONLY, NOT_FOUND],
      handler: async ({ actor, params }) => p.showPrompt.execute({ actor, promptId: params.promptId }),
    }),
    route({
      method: 'PUT',
      path: '/prompt/:promptId',
      auth: 'isAuth',
      feature: 'ai',
      tag: TAG,
      operationId: 'updatePrompt',
      summary: 'Edit a prompt (admin)',
      params: byId,
      body: promptBody.meta({ example: { name: 'Atendente virtual (noite)', maxTokens: 200, temperature: 0.5, apiKey: '' } }),
      description:
        'Admins only, on a plan with AI. Only the fields sent change; the key only when a non-empty `apiKey` is sent. Sends a `prompt` frame (`update`).',
      response: promptSchema,
      errors: [ADMIN_ONLY, NOT_FOUND, FIELD_ERRORS, QUEUE_NOT_FOUND],
      handler: async ({ actor, params, body }) => p.updatePrompt.execute({ ...input(body), actor, promptId: params.promptId }),
    }),
    route({
      method: 'DELETE',
      path: '/prompt/:promptId',
      auth: 'isAuth',
      feature: 'ai',
      tag: TAG,
      operationId: 'deletePrompt',
      summary: 'Remove a prompt (admin)',
      params: byId,
      description:
        'Admins only, on a plan with AI, once no connection or queue points to it. Answers `{ "message": "Prompt deleted" }` and sends a ' +
        '`prompt` frame (`delete`, `promptId`).',
      response: deletedSchema,
      errors: [ADMIN_ONLY, NOT_FOUND, { status: 409, codes: ['ERR_PROMPT_IN_USE'], description: 'Connections or queues still point to it (`promptId`)' }],
      handler: async ({ actor, params }) => {
        await p.deletePrompt.execute({ actor, promptId: params.promptId });
        return { message: 'Prompt deleted' };
      },
    }),
  ];
}
