import type { FlowsApi } from '@servicedesk/core/compose/flows';
import type { AiModelChoice, AiModelConfig } from '@servicedesk/core/flows/ai-agent';
import { PROMPT_PROVIDERS } from '@servicedesk/core/prompts/prompt';
import { z } from 'zod';
import { route, type RouteError } from '../http/route.js';
import { id } from '../http/schemas.js';

type FlowsApp = { readonly flows: FlowsApi };

const TAG = 'Flows (flow builder)';
const ADMIN_ONLY: RouteError = {
  status: 403,
  codes: ['ERR_NO_PERMISSION', 'ERR_PLAN_FEATURE_DISABLED'],
  description: 'Admins only; and the plan must include AI (`useOpenAi`)',
};
const MODEL_ERRORS: RouteError[] = [
  { status: 404, codes: ['ERR_NO_PROMPT_FOUND'], description: "`promptId` is not one of the company's prompts" },
  {
    status: 422,
    codes: [
      'ERR_FLOW_AI_CONFIG_REQUIRED',
      'ERR_PROMPT_INVALID_INSTRUCTIONS',
      'ERR_PROMPT_MODEL_NOT_ALLOWED',
      'ERR_PROMPT_INVALID_BASE_URL',
      'ERR_PROMPT_INVALID_API_KEY',
      'ERR_PROMPT_API_KEY_REQUIRED',
      'ERR_PROMPT_INVALID_TEMPERATURE',
      'ERR_PROMPT_INVALID_MAX_TOKENS',
      'ERR_PROMPT_API_KEY_UNREADABLE',
      'ERR_URL_NOT_ALLOWED',
      'ERR_LANGUAGE_MODEL_REFUSED',
    ],
    description: "The model choice or its settings are refused, the endpoint is not public, or the model's service refused the request",
  },
  { status: 503, codes: ['ERR_LANGUAGE_MODEL_UNAVAILABLE', 'ERR_LANGUAGE_MODEL_TIMEOUT'], description: 'The model did not answer (in time)' },
];

const configSchema = z
  .object({
    provider: z.enum(PROMPT_PROVIDERS).meta({ description: '`openai` (the default; needs `apiKey`) or `openai-compatible` (needs `baseUrl`)' }),
    baseUrl: z.string().max(2000).nullable().meta({ description: 'Required with `openai-compatible`' }),
    model: z.string().max(200).nullable().meta({ description: "One of the server's (`PROMPT_MODELS`); absent: the first" }),
    apiKey: z.string().max(10_000).nullable().meta({ description: 'Used for this call only, never stored; required with `openai`' }),
    instructions: z.string().max(100_000).meta({ description: 'The system prompt' }),
    temperature: z.number().meta({ description: 'Sampling temperature, 0 to 2 (default 1); the prompt rewriter uses 0.3 whatever is sent' }),
    maxTokens: z
      .number()
      .int()
      .meta({ description: "The answer's length limit in tokens, 1 to 16,000 (default 100); the prompt rewriter allows 4,000 whatever is sent" }),
  })
  .partial()
  .meta({ description: 'A model given inline (never stored)' });

const choice = {
  promptId: id.optional().meta({ description: "One of the company's prompts: its endpoint, model, key and instructions. Or `config`" }),
  config: configSchema.optional(),
};

const choiceOf = (body: { promptId?: number | undefined; config?: z.output<typeof configSchema> | undefined }): AiModelChoice => ({
  ...(body.promptId !== undefined ? { promptId: body.promptId } : {}),
  ...(body.config ? { config: Object.fromEntries(Object.entries(body.config).filter(([, v]) => v !== undefined)) as AiModelConfig } : {}),
});

const models = z.array(z.string());

const optionsSchema = z
  .object({
    providers: z.array(z.object({ id: z.enum(PROMPT_PROVIDERS), name: z.string(), models })),
    models: models.meta({ description: "The server's allowed models (`PROMPT_MODELS`), the first the default" }),
    voices: z.array(z.string()).meta({ description: 'Answers are text: `texto`' }),
    defaults: z.object({
      provider: z.enum(PROMPT_PROVIDERS),
      model: z.string().nullable(),
      temperature: z.number(),
      maxTokens: z.number().int(),
      maxMessages: z.number().int(),
      voice: z.string(),
    }),
    prompts: z.array(z.object({ id: z.number().int().positive(), name: z.string(), model: z.string(), queueId: z.number().int().positive().nullable() })),
  })
  .meta({
    id: 'AiAgentOptions',
    description: 'What the AI-agent node editor offers',
    example: {
      providers: [
        { id: 'openai', name: 'OpenAI', models: ['gpt-4o-mini'] },
        { id: 'openai-compatible', name: 'OpenAI-compatible', models: ['gpt-4o-mini'] },
      ],
      models: ['gpt-4o-mini'],
      voices: ['texto'],
      defaults: { provider: 'openai', model: 'gpt-4o-mini', temperature: 1, maxTokens: 100, maxMessages: 10, voice: 'texto' },
      prompts: [{ id: 4, name: 'Atendente virtual', model: 'gpt-4o-mini', queueId: 2 }],
    },
  });

const chatResultSchema = z
  .object({
    reply: z.string().meta({ description: 'The answer, without the hand-over phrase' }),
    usage: z.object({ promptTokens: z.number().int(), completionTokens: z.number().int(), totalTokens: z.number().int() }),
    handoff: z.boolean().meta({ description: 'The model asked for a person (the hand-over phrase)' }),
    latencyMs: z.number().int().nonnegative(),
  })
  .meta({
    id: 'AiAgentChat',
    example: { reply: 'Olá! Como posso ajudar?', usage: { promptTokens: 120, completionTokens: 9, totalTokens: 129 }, handoff: false, latencyMs: 840 },
  });

/** The AI-agent helpers of the flow editor: its options, a test chat, and a prompt rewriter. Admins only, on a plan with AI. */
export function aiAgentRoutes(app: FlowsApp) {
  const f = app.flows;
  return [
    route({
      method: 'GET',
      path: '/flowBuilder/ai-agent/options',
      auth: 'isAuth',
      feature: 'ai',
      tag: TAG,
      operationId: 'aiAgentOptions',
      summary: 'What the AI-agent editor offers (admin)',
      description: "Providers, the server's allowed models (`PROMPT_MODELS`), voices (text only), defaults, and the company's prompts (id, name).",
      response: optionsSchema,
      errors: [ADMIN_ONLY],
      handler: async ({ actor }) => f.aiAgentOptions.execute({ actor }),
    }),
    route({
      method: 'POST',
      path: '/flowBuilder/ai-agent/config-chat',
      auth: 'isAuth',
      feature: 'ai',
      tag: TAG,
      operationId: 'aiAgentConfigChat',
      summary: 'Try an AI agent on a test conversation (admin)',
      body: z
        .object({
          ...choice,
          messages: z
            .array(
              z.object({
                role: z.enum(['user', 'assistant']).meta({ description: '`user`: the contact; `assistant`: the agent' }),
                content: z.string().min(1).max(4000).meta({ description: "The turn's text", example: 'Onde está meu pedido?' }),
              }),
            )
            .max(50)
            .meta({ description: 'The test conversation so far, oldest first, up to 50 turns; the model answers after the last' }),
        })
        .meta({
          example: {
            promptId: 4,
            messages: [
              { role: 'user', content: 'Oi!' },
              { role: 'assistant', content: 'Olá! Como posso ajudar?' },
              { role: 'user', content: 'Onde está meu pedido?' },
            ],
          },
        }),
      description:
        "One answer of a prompt (`promptId`) or an inline `config` to `messages`, with the instructions and hand-over rule contacts' answers get. " +
        "Nothing is sent to anyone; a prompt's tokens are counted.",
      response: chatResultSchema,
      errors: [ADMIN_ONLY, ...MODEL_ERRORS],
      handler: async ({ actor, body }) => f.aiAgentConfigChat.execute({ ...choiceOf(body), actor, messages: body.messages }),
    }),
    route({
      method: 'POST',
      path: '/ai-agent/optimize-prompt',
      auth: 'isAuth',
      feature: 'ai',
      tag: TAG,
      operationId: 'optimizePrompt',
      summary: 'Rewrite a system prompt with the model (admin)',
      body: z
        .object({
          ...choice,
          prompt: z.string().max(100_000).meta({ description: 'The prompt to rewrite, 1 to 20,000 characters' }),
          goal: z.string().max(1000).optional().meta({
            description: 'What the assistant is for, in plain words; absent or blank: the prompt only',
            example: 'Tirar dúvidas sobre pedidos e entregas',
          }),
          language: z.string().max(50).optional().meta({ description: 'The language to write it in; absent or blank: not asked', example: 'Português' }),
          tone: z.string().max(50).optional().meta({ description: 'The tone to write it in; absent or blank: not asked', example: 'cordial' }),
        })
        .meta({
          example: {
            config: { provider: 'openai', model: 'gpt-4o-mini', apiKey: 'sk-proj-9mN2xQ7vR4tL8wZ1' },
            prompt: 'Você é um atendente. Responda dúvidas sobre pedidos.',
            goal: 'Tirar dúvidas sobre pedidos e entregas',
            language: 'Português',
            tone: 'cordial',
          },
        }),
      description:
        'The model of a prompt (`promptId`) or of an inline `config` with its key rewrites `prompt` (clear role, limits, hand-over rule kept) toward ' +
        '`goal`, `language` and `tone`. An empty answer is 503.',
      response: z
        .object({ optimizedPrompt: z.string() })
        .meta({ id: 'OptimizedPrompt', example: { optimizedPrompt: 'Você é o atendente virtual da Loja Exemplo…' } }),
      errors: [ADMIN_ONLY, ...MODEL_ERRORS],
      handler: async ({ actor, body }) =>
        f.optimizePrompt.execute({
          ...choiceOf(body),
          actor,
          prompt: body.prompt,
          ...(body.goal !== undefined ? { goal: body.goal } : {}),
          ...(body.language !== undefined ? { language: body.language } : {}),
          ...(body.tone !== undefined ? { tone: body.tone } : {}),
        }),
    }),
  ];
}
