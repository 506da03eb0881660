import type { Page, PageRequest } from '../shared/paging.js';
import type { NewPrompt, Prompt } from './prompt.js';

export interface PromptQuery {
  readonly companyId: number;
  readonly page: PageRequest;
  /** Matched against the name, without regard to case or accents. */
  readonly search?: string;
}

/** A company's prompts. Every read and write is scoped by company. */
export interface Prompts {
  findById(companyId: number, id: number): Promise<Prompt | null>;
  /** By name, then id. */
  list(q: PromptQuery): Promise<Page<Prompt>>;
  add(prompt: NewPrompt): Promise<Prompt>;
  /** Saves every field but `companyId`, `createdAt` and the token counters. */
  update(prompt: Prompt): Promise<void>;
  /** Adds to the token counters in one statement (two answers at once both count). */
  addUsage(companyId: number, id: number, usage: TokenUsage): Promise<void>;
  /** How many of the company's connections and queues point to the prompt (`promptId`). */
  links(companyId: number, id: number): Promise<PromptLinks>;
  /** False when it was not there. */
  remove(companyId: number, id: number): Promise<boolean>;
}

export interface PromptLinks {
  readonly connections: number;
  readonly queues: number;
}

export interface TokenUsage {
  readonly promptTokens: number;
  readonly completionTokens: number;
  readonly totalTokens: number;
}

/** Where a chat-completions request goes: an OpenAI-compatible `POST <baseUrl>/chat/completions`. */
export interface ChatEndpoint {
  readonly baseUrl: string;
  readonly model: string;
  /** Sent as a Bearer token; null sends none (a local server). */
  readonly apiKey: string | null;
}

export interface ChatTurn {
  readonly role: 'system' | 'user' | 'assistant';
  readonly content: string;
}

export interface ChatRequest {
  readonly messages: readonly ChatTurn[];
  readonly maxTokens: number;
  readonly temperature: number;
}

export interface ChatAnswer {
  readonly text: string;
  readonly usage: TokenUsage;
}

/**
 * A chat model. Adapters refuse endpoints on loopback and private addresses unless the deployment
 * allows them, and answer with domain errors: 422 `ERR_URL_NOT_ALLOWED`, 422
 * `ERR_LANGUAGE_MODEL_REFUSED` (a 4xx but 429), 503 `ERR_LANGUAGE_MODEL_UNAVAILABLE` (no answer, a
 * 5xx, a 429, or an answer that is not a completion) and 503 `ERR_LANGUAGE_MODEL_TIMEOUT`.
 */
export interface LanguageModel {
  complete(endpoint: ChatEndpoint, request: ChatRequest): Promise<ChatAnswer>;
}
