import type { NewPrompt, Prompt } from '../prompts/prompt.js';
import type { PromptAnswerRecord, PromptAnswers } from '../prompts/prompt-answer.js';
import type { ChatAnswer, ChatEndpoint, ChatRequest, LanguageModel, PromptLinks, PromptQuery, Prompts, TokenUsage } from '../prompts/ports.js';
import { ServiceUnavailableError } from '../shared/errors.js';
import { foldForSearch } from '../shared/text.js';
import type { InMemoryConnections } from './messaging.js';
import type { InMemoryQueues } from './queues.js';
import { compareFolded, InMemoryTable, slice } from './table.js';

const byName = (a: Prompt, b: Prompt) => compareFolded(a.name, b.name) || a.id - b.id;

/** Prompts in memory, ordered as the SQL adapter orders them; with the connections and queues, their links are counted. */
export class InMemoryPrompts implements Prompts {
  readonly table = new InMemoryTable<Prompt>();

  constructor(private readonly holders: { connections?: InMemoryConnections; queues?: InMemoryQueues } = {}) {}

  async findById(companyId: number, id: number) {
    return this.table.find((p) => p.id === id && p.companyId === companyId);
  }
  async list(q: PromptQuery) {
    const term = q.search?.trim() ? foldForSearch(q.search) : '';
    const rows = this.table.filter((p) => p.companyId === q.companyId && (!term || foldForSearch(p.name).includes(term))).sort(byName);
    return slice(rows, q.page);
  }
  async add(p: NewPrompt) {
    return this.table.insert(p);
  }
  async update(p: Prompt) {
    const stored = this.table.get(p.id);
    if (!stored || stored.companyId !== p.companyId) return;
    const { promptTokens, completionTokens, totalTokens, createdAt, companyId } = stored;
    this.table.replace({ ...p, companyId, createdAt, promptTokens, completionTokens, totalTokens });
  }
  async addUsage(companyId: number, id: number, usage: TokenUsage) {
    const stored = this.table.get(id);
    if (!stored || stored.companyId !== companyId) return;
    this.table.replace({
      ...stored,
      promptTokens: stored.promptTokens + usage.promptTokens,
      completionTokens: stored.completionTokens + usage.completionTokens,
      totalTokens: stored.totalTokens + usage.totalTokens,
    });
  }
  async links(companyId: number, id: number): Promise<PromptLinks> {
    const points = (row: { companyId: number; promptId: number | null }) => row.companyId === companyId && row.promptId === id;
    return {
      connections: this.holders.connections?.table.filter(points).length ?? 0,
      queues: this.holders.queues?.table.filter(points).length ?? 0,
    };
  }
  async remove(companyId: number, id: number) {
    if (!(await this.findById(companyId, id))) return false;
    this.table.delete(id);
    return true;
  }
}

/**
 * A chat model for tests: answers with `answer(request)` (by default, echoes the last user turn) and
 * records each call; `down` makes it unavailable.
 */
export class InMemoryLanguageModel implements LanguageModel {
  readonly calls: Array<{ endpoint: ChatEndpoint; request: ChatRequest }> = [];
  down = false;
  answer: (request: ChatRequest) => string = (r) => `echo: ${[...r.messages].reverse().find((m) => m.role === 'user')?.content ?? ''}`;

  async complete(endpoint: ChatEndpoint, request: ChatRequest): Promise<ChatAnswer> {
    this.calls.push({ endpoint, request: structuredClone(request) });
    if (this.down) throw new ServiceUnavailableError('ERR_LANGUAGE_MODEL_UNAVAILABLE');
    const text = this.answer(request);
    return { text, usage: { promptTokens: 10, completionTokens: 5, totalTokens: 15 } };
  }
}

/** The prompts' answer records in memory: one per inbound message. */
export class InMemoryPromptAnswers implements PromptAnswers {
  readonly records: PromptAnswerRecord[] = [];

  async has(companyId: number, messageId: string) {
    return this.records.some((r) => r.companyId === companyId && r.messageId === messageId);
  }
  async claim(record: PromptAnswerRecord) {
    if (this.records.some((r) => r.messageId === record.messageId)) return false;
    this.records.push({ ...record });
    return true;
  }
  async ofTicket(companyId: number, ticketId: number) {
    return this.records.filter((r) => r.companyId === companyId && r.ticketId === ticketId).sort((a, b) => a.at.getTime() - b.at.getTime());
  }
}
