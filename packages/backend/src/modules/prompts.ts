import { OpenAiChatModel, promptRoutes } from '@servicedesk/adapters-http';
import { createPrompts, type PromptsApi } from '@servicedesk/core/compose/prompts';
import { PROMPT_ANSWER_SUBJECTS, type PromptAnswer } from '@servicedesk/core/prompts/prompt-answer';
import { feature, type Feature } from './feature.js';
import { PERSISTENCE_FEATURES, tablesOf } from '@servicedesk/adapters-persistence/features';

/**
 * AI assistants (`/prompt`): per company, instructions for any OpenAI-compatible chat model, the
 * key sealed with the platform's SecretCipher, the model from the server's allow-list (`PROMPT_MODELS`).
 * The inbound path writes a `PromptAnswer` command per message an assistant should answer; this
 * backend consumes it, calls the model and answers or hands the ticket over (the reason logged).
 */
export const prompts: Feature<object, { prompts: PromptsApi }> = feature({
  name: 'prompts',
  ...tablesOf(PERSISTENCE_FEATURES.prompts),
  ports: ({ infra, config }) => ({
    ...PERSISTENCE_FEATURES.prompts.repositories(infra.db.orm),
    languageModel: new OpenAiChatModel({ allowPrivate: config.allowPrivateUrls, timeoutMs: config.prompts.timeoutMs }),
    promptSettings: { models: config.prompts.models },
  }),
  api: (ports) => ({ prompts: createPrompts(ports) }),
  routes: (app) => promptRoutes(app),
  consumers: (app, { config, log }) => [
    {
      durable: 'backend-prompt-answers',
      subject: PROMPT_ANSWER_SUBJECTS,
      handle: async (envelope) => {
        const command = envelope.payload as PromptAnswer;
        const { outcome, reason } = await app.prompts.answerWithPrompt.execute(command);
        const entry = { outcome, reason, companyId: command.companyId, ticketId: command.ticketId, promptId: command.promptId };
        if (outcome === 'handed-over') log.warn(entry, 'prompt handed the ticket to a person');
        else if (outcome === 'skipped') log.info(entry, 'prompt answer skipped');
      },
      // A database failure throws and the command comes back; the model's failures hand over instead.
      options: { maxDeliver: config.integrationMaxDeliver, retryDelayMs: config.integrationRetryDelayMs },
    },
  ],
});
