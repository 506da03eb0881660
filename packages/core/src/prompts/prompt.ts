import { ValidationError } from '../shared/errors.js';
import type { SecretCipher } from '../shared/ports.js';

/**
 * An AI assistant a company binds to a connection or a queue: instructions for a chat model, the
 * model and where it is served (any OpenAI-compatible `POST <baseUrl>/chat/completions`), the queue a
 * conversation is handed to when the assistant asks for a human, and the tokens it has used.
 */
export const PROMPT_PROVIDERS = ['openai', 'openai-compatible'] as const;
export type PromptProvider = (typeof PROMPT_PROVIDERS)[number];

export const OPENAI_CHAT_BASE_URL = 'https://api.openai.com/v1';
/** The only answer mode: in text (the lineage's `voice: "texto"`). */
export const TEXT_VOICE = 'texto';

export const PROMPT_LIMITS = {
  name: 100,
  instructions: 20_000,
  maxMessages: { min: 1, max: 50, default: 10 },
  maxTokens: { min: 1, max: 16_000, default: 100 },
  temperature: { min: 0, max: 2, default: 1 },
} as const;

const MAX_BASE_URL = 500;
const MAX_API_KEY = 500;
/** Keys shorter than this show no hint: four characters would give away too much of them. */
const MIN_KEY_FOR_HINT = 12;

export interface Prompt {
  id: number;
  companyId: number;
  name: string;
  /** The system instructions. */
  prompt: string;
  /** Where the conversation goes when the assistant hands it to a human (null once that queue is deleted). */
  queueId: number | null;
  provider: PromptProvider;
  /** Without a trailing slash: requests go to `<baseUrl>/chat/completions`. */
  baseUrl: string;
  /** One of the server's allowed models. */
  model: string;
  /** The API key as the SecretCipher sealed it; null when the service needs none. */
  apiKeySealed: string | null;
  apiKeyHint: string | null;
  /** How many of the conversation's latest messages are sent with each inbound one. */
  maxMessages: number;
  maxTokens: number;
  temperature: number;
  voice: string;
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
  createdAt: Date;
  updatedAt: Date;
}

export type NewPrompt = Omit<Prompt, 'id'>;

/** A prompt as the API shows it: the key is write-only (`hasApiKey`, `apiKeyLast4`). */
export interface PromptView {
  id: number;
  companyId: number;
  name: string;
  prompt: string;
  queueId: number | null;
  queue: { id: number; name: string; color: string } | null;
  provider: PromptProvider;
  baseUrl: string;
  model: string;
  hasApiKey: boolean;
  apiKeyLast4: string | null;
  maxMessages: number;
  maxTokens: number;
  temperature: number;
  voice: string;
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
  createdAt: string;
  updatedAt: string;
}

export function toPromptView(p: Prompt, queue: { id: number; name: string; color: string } | null): PromptView {
  return {
    id: p.id,
    companyId: p.companyId,
    name: p.name,
    prompt: p.prompt,
    queueId: p.queueId,
    queue: queue ? { id: queue.id, name: queue.name, color: queue.color } : null,
    provider: p.provider,
    baseUrl: p.baseUrl,
    model: p.model,
    hasApiKey: p.apiKeySealed !== null,
    apiKeyLast4: p.apiKeyHint,
    maxMessages: p.maxMessages,
    maxTokens: p.maxTokens,
    temperature: p.temperature,
    voice: p.voice,
    promptTokens: p.promptTokens,
    completionTokens: p.completionTokens,
    totalTokens: p.totalTokens,
    createdAt: p.createdAt.toISOString(),
    updatedAt: p.updatedAt.toISOString(),
  };
}

export function cleanPromptName(name: string): string {
  const trimmed = name.trim();
  if (trimmed.length < 1 || trimmed.length > PROMPT_LIMITS.name) throw new ValidationError('ERR_PROMPT_INVALID_NAME');
  return trimmed;
}

export function cleanInstructions(text: string): string {
  const trimmed = text.trim();
  if (trimmed.length < 1 || trimmed.length > PROMPT_LIMITS.instructions) throw new ValidationError('ERR_PROMPT_INVALID_INSTRUCTIONS');
  return trimmed;
}

function inRange(value: number, range: { readonly min: number; readonly max: number }, integer: boolean): boolean {
  return Number.isFinite(value) && (!integer || Number.isInteger(value)) && value >= range.min && value <= range.max;
}

export function cleanMaxMessages(n: number): number {
  if (!inRange(n, PROMPT_LIMITS.maxMessages, true)) throw new ValidationError('ERR_PROMPT_INVALID_MAX_MESSAGES');
  return n;
}

export function cleanMaxTokens(n: number): number {
  if (!inRange(n, PROMPT_LIMITS.maxTokens, true)) throw new ValidationError('ERR_PROMPT_INVALID_MAX_TOKENS');
  return n;
}

export function cleanTemperature(n: number): number {
  if (!inRange(n, PROMPT_LIMITS.temperature, false)) throw new ValidationError('ERR_PROMPT_INVALID_TEMPERATURE');
  return Math.round(n * 100) / 100;
}

/** Answers are given in text; a synthesised voice is refused rather than silently ignored. */
export function cleanVoice(voice: string | null | undefined): string {
  if (voice === null || voice === undefined || voice.trim() === '' || voice.trim() === TEXT_VOICE) return TEXT_VOICE;
  throw new ValidationError('ERR_PROMPT_VOICE_NOT_SUPPORTED');
}

/** A model of the server's allow-list (blank: the first, the default). */
export function cleanPromptModel(model: string | null | undefined, allowed: readonly string[]): string {
  if (model === null || model === undefined || model.trim() === '') {
    if (!allowed[0]) throw new ValidationError('ERR_PROMPT_MODEL_NOT_ALLOWED');
    return allowed[0];
  }
  const trimmed = model.trim();
  if (!allowed.includes(trimmed)) throw new ValidationError('ERR_PROMPT_MODEL_NOT_ALLOWED');
  return trimmed;
}

/** An absolute http(s) URL without credentials, query or fragment; where it points is checked when it is called. */
export function cleanPromptBaseUrl(provider: PromptProvider, url: string | null | undefined): string {
  if (url === null || url === undefined || url.trim() === '') {
    if (provider === 'openai') return OPENAI_CHAT_BASE_URL;
    throw new ValidationError('ERR_PROMPT_INVALID_BASE_URL');
  }
  const trimmed = url.trim();
  let parsed: URL;
  try {
    parsed = new URL(trimmed);
  } catch {
    throw new ValidationError('ERR_PROMPT_INVALID_BASE_URL');
  }
  const http = parsed.protocol === 'http:' || parsed.protocol === 'https:';
  if (trimmed.length > MAX_BASE_URL || !http || parsed.username || parsed.password || parsed.search || parsed.hash) {
    throw new ValidationError('ERR_PROMPT_INVALID_BASE_URL');
  }
  return parsed.toString().replace(/\/+$/, '');
}

/** Blank or null: no key. */
export function cleanPromptApiKey(key: string | null | undefined): string | null {
  if (key === null || key === undefined || key === '') return null;
  if (key.length > MAX_API_KEY || !/^[\x21-\x7e]+$/.test(key)) throw new ValidationError('ERR_PROMPT_INVALID_API_KEY');
  return key;
}

/** What a sealed key is bound to: a value copied into another company's row does not open. */
function keyContext(companyId: number): string {
  return `prompt:${companyId}`;
}

export function sealPromptApiKey(cipher: SecretCipher, companyId: number, key: string | null): Pick<Prompt, 'apiKeySealed' | 'apiKeyHint'> {
  if (key === null) return { apiKeySealed: null, apiKeyHint: null };
  return { apiKeySealed: cipher.seal(key, keyContext(companyId)), apiKeyHint: key.length >= MIN_KEY_FOR_HINT ? key.slice(-4) : null };
}

/** The key in clear, to call the model (null: none); 422 when the server key that sealed it is gone. */
export function openPromptApiKey(cipher: SecretCipher, p: Pick<Prompt, 'companyId' | 'apiKeySealed'>): string | null {
  if (p.apiKeySealed === null) return null;
  const key = cipher.open(p.apiKeySealed, keyContext(p.companyId));
  if (key === null) throw new ValidationError('ERR_PROMPT_API_KEY_UNREADABLE');
  return key;
}

/** `openai` needs a key. */
export function assertPromptComplete(p: Pick<Prompt, 'provider' | 'apiKeySealed'>): void {
  if (p.provider === 'openai' && p.apiKeySealed === null) throw new ValidationError('ERR_PROMPT_API_KEY_REQUIRED');
}
