import { messageContexts } from '../conversations/message-context.js';
import type { Message } from '../messages/message.js';
import { AnswerWithPrompt } from '../prompts/answer-with-prompt.js';
import { PromptAnswerRecorder } from '../prompts/prompt-answer-recorder.js';
import { PromptDecider } from '../prompts/prompt-decider.js';
import { CreatePrompt, DEFAULT_PROMPT_SETTINGS, DeletePrompt, ListPrompts, ShowPrompt, UpdatePrompt, type PromptSettings } from '../prompts/manage-prompts.js';
import type { LanguageModel, Prompts } from '../prompts/ports.js';
import type { PromptAnswers } from '../prompts/prompt-answer.js';
import { PlanGuard } from '../tenancy/plan-guard.js';
import { TicketPresenter } from '../tickets/ticket-details.js';
import type { Ticket } from '../tickets/ticket.js';
import { endpointOf } from '../transcription/manage-credentials.js';
import { isAudio, MessageTranscriber } from '../transcription/transcriber.js';
import { sendPath } from './messaging.js';
import type { Needs } from './shared-ports.js';
import { ConversationAnnouncer } from '../tickets/conversation-announcer.js';

/** The prompts' own ports: their tables, the chat model, and the server's allow-list of models. */
export interface PromptPorts {
  readonly prompts: Prompts;
  readonly promptAnswers: PromptAnswers;
  readonly languageModel: LanguageModel;
  readonly promptSettings?: PromptSettings;
}

/** AI assistants (prompts) per company: an admin's configuration, on plans with AI, and their answers to contacts. */
export function createPrompts(p: PromptPorts & Needs<'secretCipher'>) {
  const { contacts, connections, users, tags, queues, tickets, messages, realtime, clock } = p;
  const plan = new PlanGuard({ companies: p.companies, plans: p.plans });
  const deps = {
    prompts: p.prompts,
    queues,
    cipher: p.secretCipher,
    plan,
    realtime,
    clock,
    settings: p.promptSettings ?? DEFAULT_PROMPT_SETTINGS,
  };
  const { outbound } = sendPath(p);
  const presenter = new TicketPresenter({ contacts, connections, users, realtime, tags, queues });
  const contexts = messageContexts({ tickets, contacts, queues, messages });
  const transcriber = new MessageTranscriber({ messages, blobs: p.blobs, speechToText: p.speechToText, realtime, clock, contexts });
  const transcribe = async (message: Message) => {
    const credential = await p.transcriptionCredentials.findDefault(message.companyId);
    if (!credential || !isAudio(message)) return null;
    return transcriber.transcribe(endpointOf(p.secretCipher, credential), message, credential.language);
  };
  const announcer = new ConversationAnnouncer({ presenter, realtime, contexts });
  const announce = async (ticket: Ticket, sent: readonly Message[]) => {
    await announcer.sent(ticket, {}, sent);
  };
  return {
    listPrompts: new ListPrompts(deps),
    showPrompt: new ShowPrompt(deps),
    createPrompt: new CreatePrompt(deps),
    updatePrompt: new UpdatePrompt(deps),
    deletePrompt: new DeletePrompt(deps),
    answerWithPrompt: new AnswerWithPrompt({
      prompts: p.prompts,
      answers: p.promptAnswers,
      tickets,
      messages,
      contacts,
      decider: new PromptDecider({ plan, messages, model: p.languageModel, cipher: p.secretCipher, transcribe }),
      recorder: new PromptAnswerRecorder({ answers: p.promptAnswers, prompts: p.prompts, tickets, connections, outbound, tx: p.tx, clock, announce }),
    }),
  };
}
export type PromptsApi = ReturnType<typeof createPrompts>;
