import { OpenAiChatModel, promptRoutes } from '@servicedesk/adapters-http';
import { FEATURE_TABLES, promptsRepositories } from '@servicedesk/adapters-persistence';
import { createPrompts, type PromptsApi } from '@servicedesk/core/compose/prompts';
import { feature, type Feature } from './feature.js';

/**
 * AI assistants (`/prompt`): per company, instructions for any OpenAI-compatible chat model, the
 * key sealed with the platform's SecretCipher, the model from the server's allow-list (`PROMPT_MODELS`).
 */
export const prompts: Feature<object, { prompts: PromptsApi }> = feature({
  name: 'prompts',
  ...FEATURE_TABLES.prompts,
  ports: ({ infra, config }) => ({
    ...promptsRepositories(infra.db.orm),
    languageModel: new OpenAiChatModel({ allowPrivate: config.allowPrivateUrls, timeoutMs: config.prompts.timeoutMs }),
    promptSettings: { models: config.prompts.models },
  }),
  api: (ports) => ({ prompts: createPrompts(ports) }),
  routes: (app) => promptRoutes(app),
});
