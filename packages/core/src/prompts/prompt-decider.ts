import type { Contact } from '../contacts/contact.js';
import type { Message } from '../messages/message.js';
import type { Messages } from '../messages/ports.js';
import { DomainError } from '../shared/errors.js';
import type { SecretCipher } from '../shared/ports.js';
import type { PlanGuard } from '../tenancy/plan-guard.js';
import type { Ticket } from '../tickets/ticket.js';
import { isAudio } from '../transcription/transcriber.js';
import type { ChatTurn, LanguageModel, TokenUsage } from './ports.js';
import { openPromptApiKey, type Prompt } from './prompt.js';
import { HANDOVER_PHRASE, type PromptOutcome } from './prompt-answer.js';

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

/** What happened, to be written in one transaction. */
export interface PromptDecision {
  readonly outcome: PromptOutcome;
  readonly reason: string | null;
  readonly reply: string | null;
  readonly usage: TokenUsage | null;
}

/**
 * What an assistant makes of one inbound message, outside any transaction: the plan must have AI,
 * the conversation's latest `maxMessages` (up to this one, private notes left out) go to the model
 * after the company's instructions, audio counting by its transcript (the inbound audio is
 * transcribed first; no transcript: handed over). The hand-over phrase, a model failure or timeout
 * hand the ticket over.
 */
export class PromptDecider {
  constructor(
    private readonly deps: {
      plan: PlanGuard;
      messages: Pick<Messages, 'list'>;
      model: LanguageModel;
      cipher: SecretCipher;
      /** The audio's transcript (stored on the message), or null when the company has no speech-to-text. */
      transcribe: (message: Message) => Promise<string | null>;
    },
  ) {}

  async decide(prompt: Prompt, contact: Contact, ticket: Ticket, inbound: Message): Promise<PromptDecision> {
    const handOver = (reason: string, usage: TokenUsage | null = null): PromptDecision => ({ outcome: 'handed-over', reason, reply: null, usage });
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
}
