import type { Clock, IdGenerator } from '../shared/ports.js';
import type { Outbox } from '../outbox/ports.js';
import type { PromptAnswer } from '../prompts/prompt-answer.js';
import { enqueuePromptAnswer } from '../prompts/prompt-answer.js';
import { enqueueIntegrationDelivery } from './deliver-integration-event.js';

/**
 * What the inbound routing hands to others, as commands in the outbox (written in the message's
 * transaction, carried out after it commits): an assistant's answer, an integration's delivery.
 */
export class RoutingCommands {
  constructor(private readonly deps: { outbox: Outbox; ids: IdGenerator; clock: Clock }) {}

  /** The ticket's assistant answers the message (the model is called after the commit). */
  askAssistant(input: Omit<PromptAnswer, 'type'>): Promise<void> {
    return enqueuePromptAnswer(this.deps, input);
  }

  /** The message goes to its queue's integration. */
  toIntegration(input: Parameters<typeof enqueueIntegrationDelivery>[1]): Promise<void> {
    return enqueueIntegrationDelivery(this.deps, input);
  }
}
