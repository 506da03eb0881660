import type { Contacts } from '../contacts/ports.js';
import type { Messages } from '../messages/ports.js';
import type { Tickets } from '../tickets/ports.js';
import type { Prompts } from './ports.js';
import type { PromptAnswer, PromptAnswers } from './prompt-answer.js';
import { assistantMayAnswer, type PromptAnswerRecorder, type PromptAnswerResult } from './prompt-answer-recorder.js';
import type { PromptDecider } from './prompt-decider.js';

/**
 * Answers one inbound message with the ticket's assistant, outside the inbound transaction (the
 * command's consumer runs it after the commit):
 *
 * 1. A message already dealt with, a ticket a person took meanwhile, or a prompt deleted: nothing.
 * 2. The assistant decides (`PromptDecider`): the conversation's latest messages go to the model,
 *    or the ticket is handed over.
 * 3. One transaction (`PromptAnswerRecorder`): the record of the message (the second delivery of a
 *    command stops here, so a message is answered once), the tokens counted on the prompt, the
 *    answer through the one send path, and on the hand-over phrase, a model failure or timeout, the
 *    ticket moved to the prompt's queue with the bot off, where a person takes it.
 */
export class AnswerWithPrompt {
  constructor(
    private readonly deps: {
      prompts: Pick<Prompts, 'findById'>;
      answers: Pick<PromptAnswers, 'has'>;
      tickets: Pick<Tickets, 'findById'>;
      messages: Pick<Messages, 'findById'>;
      contacts: Pick<Contacts, 'findById'>;
      decider: PromptDecider;
      recorder: PromptAnswerRecorder;
    },
  ) {}

  async execute(command: PromptAnswer): Promise<PromptAnswerResult> {
    const { prompts, answers, tickets, messages, contacts } = this.deps;
    const { companyId } = command;
    if (await answers.has(companyId, command.messageId)) return { outcome: 'duplicate' };
    const ticket = await tickets.findById(companyId, command.ticketId);
    if (!ticket || !assistantMayAnswer(ticket)) return { outcome: 'skipped', reason: 'ERR_PROMPT_TICKET_TAKEN' };
    const prompt = await prompts.findById(companyId, command.promptId);
    const inbound = await messages.findById(companyId, command.messageId);
    const contact = await contacts.findById(companyId, ticket.contactId);
    if (!prompt || !inbound || !contact || inbound.ticketId !== ticket.id) return { outcome: 'skipped', reason: 'ERR_NO_PROMPT_FOUND' };
    return this.deps.recorder.record(command, prompt, contact, await this.deps.decider.decide(prompt, contact, ticket, inbound));
  }
}
