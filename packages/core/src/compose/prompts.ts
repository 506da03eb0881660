import { messageContexts } from '../conversations/message-context.js';
import type { Connections } from '../connections/ports.js';
import type { Contacts } from '../contacts/ports.js';
import type { RealtimeEvent } from '../events/realtime-event.js';
import type { Users } from '../identity/ports.js';
import type { Message } from '../messages/message.js';
import type { Messages } from '../messages/ports.js';
import type { Broker } from '../outbox/broker.js';
import type { Outbox } from '../outbox/ports.js';
import { AnswerWithPrompt } from '../prompts/answer-with-prompt.js';
import { CreatePrompt, DEFAULT_PROMPT_SETTINGS, DeletePrompt, ListPrompts, ShowPrompt, UpdatePrompt, type PromptSettings } from '../prompts/manage-prompts.js';
import type { LanguageModel, Prompts } from '../prompts/ports.js';
import type { PromptAnswers } from '../prompts/prompt-answer.js';
import type { Queues } from '../queues/ports.js';
import type { RealtimeEvents } from '../realtime/ports.js';
import type { BlobStorage, Clock, IdGenerator, SecretCipher, Transaction } from '../shared/ports.js';
import type { Tags } from '../tags/ports.js';
import { PlanGuard } from '../tenancy/plan-guard.js';
import type { Companies, Plans } from '../tenancy/ports.js';
import { publishCreatedMessages } from '../tickets/publish-messages.js';
import { TicketPresenter } from '../tickets/ticket-details.js';
import type { Ticket } from '../tickets/ticket.js';
import type { Tickets } from '../tickets/ports.js';
import { endpointOf } from '../transcription/manage-credentials.js';
import type { SpeechToText, TranscriptionCredentials } from '../transcription/ports.js';
import { isAudio, MessageTranscriber } from '../transcription/transcriber.js';
import { sendPath } from './messaging.js';

/** The prompts' own ports: their tables, the chat model, and the server's allow-list of models. */
export interface PromptPorts {
  readonly prompts: Prompts;
  readonly promptAnswers: PromptAnswers;
  readonly languageModel: LanguageModel;
  readonly promptSettings?: PromptSettings;
}

interface SharedPorts {
  readonly companies: Companies;
  readonly plans: Plans;
  readonly queues: Queues;
  readonly users: Users;
  readonly tags: Tags;
  readonly connections: Connections;
  readonly contacts: Contacts;
  readonly tickets: Tickets;
  readonly messages: Messages;
  readonly outbox: Outbox;
  readonly broker: Broker;
  readonly blobs: BlobStorage;
  /** The company's default speech-to-text credential transcribes inbound audio before the model reads it. */
  readonly transcriptionCredentials: TranscriptionCredentials;
  readonly speechToText: SpeechToText;
  /** Seals the prompts' API keys at rest. */
  readonly secretCipher: SecretCipher;
  readonly realtime: RealtimeEvents<RealtimeEvent>;
  readonly tx: Transaction;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  /** See MessagingPorts. */
  readonly relayAfterCommit?: boolean;
}

/** AI assistants (prompts) per company: an admin's configuration, on plans with AI, and their answers to contacts. */
export function createPrompts(p: PromptPorts & SharedPorts) {
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
  const announce = async (ticket: Ticket, sent: readonly Message[]) => {
    const details = await presenter.one(ticket);
    await publishCreatedMessages({ realtime, contexts }, details, sent);
    await realtime.publish(ticket.companyId, { entity: 'ticket', data: { action: 'update', ticket: details } });
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
      model: p.languageModel,
      cipher: p.secretCipher,
      plan,
      tickets,
      messages,
      contacts,
      connections,
      outbound,
      tx: p.tx,
      clock,
      transcribe,
      announce,
    }),
  };
}
export type PromptsApi = ReturnType<typeof createPrompts>;
