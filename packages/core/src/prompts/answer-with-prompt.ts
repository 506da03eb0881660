import type { Connections } from '../connections/ports.js';
import type { Contact } from '../contacts/contact.js';
import type { Contacts } from '../contacts/ports.js';
import type { Message } from '../messages/message.js';
import type { OutboundMessages } from '../messages/outbound.js';
import type { Messages } from '../messages/ports.js';
import { DomainError } from '../shared/errors.js';
import type { Clock, SecretCipher, Transaction } from '../shared/ports.js';
import type { PlanGuard } from '../tenancy/plan-guard.js';
import type { Ticket } from '../tickets/ticket.js';
import type { Tickets } from '../tickets/ports.js';
import { isAudio } from '../transcription/transcriber.js';
import type { ChatTurn, LanguageModel, Prompts, TokenUsage } from './ports.js';
import { openPromptApiKey, type Prompt } from './prompt.js';
import { HANDOVER_PHRASE, type PromptAnswer, type PromptAnswers, type PromptOutcome } from './prompt-answer.js';

/** A ticket an assistant may talk on: waiting, nobody's, the bot still on, not a group. */
export function assistantMayAnswer(ticket: Pick<Ticket, 'status' | 'userId' | 'botActive' | 'isGroup'>): boolean {
  return ticket.status === 'pending' && ticket.userId === null && ticket.botActive && !ticket.isGroup;
}

/** What the model is told besides the company's instructions: who it talks to and how to ask for a person. */
export function systemTurn(prompt: Pick<Prompt, 'prompt' | 'maxTokens'>, contact: Pick<Contact, 'name'>): ChatTurn {
  const rules = [
    `You are answering ${contact.name || 'a contact'} in a messaging conversation. Answer in at most ${prompt.maxTokens} tokens.`,
    `When the contact asks for a person, or you cannot help, begin your answer with "${HANDOVER_PHRASE}".`,
  ];
  return { role: 'system', content: `${prompt.prompt}\n\n${rules.join('\n')}` };
}

/** The answer's text for the contact, and whether the model asked for a person (the phrase itself is not sent). */
export function readAnswer(text: string): { readonly reply: string; readonly handOver: boolean } {
  const at = text.toLowerCase().indexOf(HANDOVER_PHRASE.toLowerCase());
  if (at < 0) return { reply: text.trim(), handOver: false };
  const reply = `${text.slice(0, at)} ${text.slice(at + HANDOVER_PHRASE.length)}`.replace(/^[\s.:,;!-]+/, '').trim();
  return { reply, handOver: true };
}

export interface PromptAnswerResult {
  readonly outcome: PromptOutcome | 'duplicate';
  /** Why it was handed over or skipped. */
  readonly reason?: string;
}

/** What happened, to be written in one transaction. */
interface Decision {
  readonly outcome: PromptOutcome;
  readonly reason: string | null;
  readonly reply: string | null;
  readonly usage: TokenUsage | null;
}

const NO_ANSWER = { reply: null, usage: null } as const;

/**
 * Answers one inbound message with the ticket's assistant, outside the inbound transaction (the
 * command's consumer runs it after the commit):
 *
 * 1. A message already dealt with, a ticket a person took meanwhile, or a prompt deleted: nothing.
 * 2. The conversation's latest `maxMessages` (up to this one, private notes left out) go to the
 *    model after the company's instructions; audio counts by its transcript, the inbound audio is
 *    transcribed first (no transcript: handed over).
 * 3. One transaction: the record of the message (the second delivery of a command stops here, so a
 *    message is answered once), the tokens counted on the prompt, the answer through the one send
 *    path, and on the hand-over phrase, a model failure or timeout, the ticket moved to the prompt's
 *    queue with the bot off, where a person takes it.
 */
export class AnswerWithPrompt {
  constructor(
    private readonly deps: {
      prompts: Prompts;
      answers: PromptAnswers;
      model: LanguageModel;
      cipher: SecretCipher;
      plan: PlanGuard;
      tickets: Tickets;
      messages: Messages;
      contacts: Contacts;
      connections: Connections;
      outbound: OutboundMessages;
      tx: Transaction;
      clock: Clock;
      /** The audio's transcript (stored on the message), or null when the company has no speech-to-text. */
      transcribe: (message: Message) => Promise<string | null>;
      /** Tells the operators, after the commit, about the ticket and the messages sent. */
      announce: (ticket: Ticket, sent: readonly Message[]) => Promise<void>;
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
    return this.finish(command, prompt, contact, await this.decide(prompt, contact, ticket, inbound));
  }

  private async decide(prompt: Prompt, contact: Contact, ticket: Ticket, inbound: Message): Promise<Decision> {
    const handOver = (reason: string, usage: TokenUsage | null = null): Decision => ({ outcome: 'handed-over', reason, reply: null, usage });
    const plan = await this.deps.plan.planOf(ticket.companyId).catch(() => null);
    if (!plan?.features.ai) return handOver('ERR_PLAN_FEATURE_DISABLED');
    let turns: ChatTurn[];
    try {
      turns = await this.conversation(prompt, ticket, inbound);
    } catch (err) {
      return handOver(err instanceof DomainError ? err.code : 'ERR_PROMPT_AUDIO_NOT_TRANSCRIBED');
    }
    if (turns.length === 0) return handOver('ERR_PROMPT_AUDIO_NOT_TRANSCRIBED');
    let text: string;
    let usage: TokenUsage;
    try {
      const apiKey = openPromptApiKey(this.deps.cipher, prompt);
      ({ text, usage } = await this.deps.model.complete(
        { baseUrl: prompt.baseUrl, model: prompt.model, apiKey },
        { messages: [systemTurn(prompt, contact), ...turns], maxTokens: prompt.maxTokens, temperature: prompt.temperature },
      ));
    } catch (err) {
      return handOver(err instanceof DomainError ? err.code : 'ERR_LANGUAGE_MODEL_UNAVAILABLE');
    }
    const answer = readAnswer(text);
    if (answer.handOver) return { outcome: 'handed-over', reason: 'ERR_PROMPT_HANDOVER_REQUESTED', reply: answer.reply || null, usage };
    if (!answer.reply) return handOver('ERR_LANGUAGE_MODEL_UNAVAILABLE', usage);
    return { outcome: 'answered', reason: null, reply: answer.reply, usage };
  }

  /** The latest `maxMessages` of the ticket up to the inbound one, oldest first, as chat turns. */
  private async conversation(prompt: Prompt, ticket: Ticket, inbound: Message): Promise<ChatTurn[]> {
    const { rows } = await this.deps.messages.list({ companyId: ticket.companyId, ticketId: ticket.id, page: { offset: 0, limit: prompt.maxMessages + 10 } });
    const window = rows.filter((m) => !m.isPrivate && !m.isDeleted && m.createdAt.getTime() <= inbound.createdAt.getTime()).slice(0, prompt.maxMessages);
    if (!window.some((m) => m.id === inbound.id)) window.unshift(inbound);
    const turns: ChatTurn[] = [];
    for (const m of window.reverse()) {
      let text = m.transcription ?? m.body;
      if (isAudio(m) && m.transcription === null) {
        // Only the message being answered is transcribed now; older audio without a transcript is left out.
        if (m.id !== inbound.id) continue;
        const heard = await this.deps.transcribe(m);
        if (heard === null || !heard.trim()) return [];
        text = heard;
      }
      if (text.trim()) turns.push({ role: m.fromMe ? 'assistant' : 'user', content: text.trim() });
    }
    return turns;
  }

  private async finish(command: PromptAnswer, prompt: Prompt, contact: Contact, decision: Decision): Promise<PromptAnswerResult> {
    const { answers, tickets, prompts, connections, outbound, tx, clock } = this.deps;
    const { companyId } = command;
    const done = await tx.run(async () => {
      const now = clock.now();
      const ticket = await tickets.findById(companyId, command.ticketId);
      // A person took the ticket while the model was thinking: nothing goes out.
      const outcome: PromptOutcome = ticket && assistantMayAnswer(ticket) ? decision.outcome : 'skipped';
      const reason = outcome === 'skipped' ? 'ERR_PROMPT_TICKET_TAKEN' : decision.reason;
      const claimed = await answers.claim({
        companyId,
        messageId: command.messageId,
        ticketId: command.ticketId,
        promptId: prompt.id,
        outcome,
        reason,
        at: now,
      });
      if (!claimed) return null;
      if (decision.usage) await prompts.addUsage(companyId, prompt.id, decision.usage);
      if (!ticket || outcome === 'skipped') return { outcome, reason, ticket: null, sent: [] };
      const connection = await connections.findById(companyId, ticket.connectionId);
      const sent = decision.reply && connection ? [await outbound.enqueue({ connection, ticket, contact, body: decision.reply })] : [];
      const handedOver = outcome === 'handed-over';
      if (!sent.length && !handedOver) return { outcome, reason, ticket: null, sent };
      const next: Ticket = {
        ...ticket,
        updatedAt: now,
        ...(sent.length ? { lastMessage: decision.reply! } : {}),
        ...(handedOver ? { queueId: prompt.queueId ?? ticket.queueId, queueOptionId: null, botActive: false } : {}),
      };
      await tickets.update(next);
      return { outcome, reason, ticket: next, sent };
    });
    if (!done) return { outcome: 'duplicate' };
    const { ticket, sent } = done;
    if (ticket) await this.deps.announce(ticket, sent).catch(() => undefined);
    return done.reason ? { outcome: done.outcome, reason: done.reason } : { outcome: done.outcome };
  }
}
