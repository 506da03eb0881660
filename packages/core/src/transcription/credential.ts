import { ValidationError } from '../shared/errors.js';
import type { SecretCipher } from '../shared/ports.js';

/**
 * Where a company's audio is transcribed: any service that speaks OpenAI's
 * `POST <baseUrl>/audio/transcriptions` (OpenAI itself, or a compatible one: a local Whisper
 * server, another vendor's endpoint). `openai` defaults the base URL and needs a key;
 * `openai-compatible` names its own base URL and may need no key.
 */
export const TRANSCRIPTION_PROVIDERS = ['openai', 'openai-compatible'] as const;
export type TranscriptionProvider = (typeof TRANSCRIPTION_PROVIDERS)[number];

export const OPENAI_BASE_URL = 'https://api.openai.com/v1';
export const DEFAULT_TRANSCRIPTION_MODEL = 'whisper-1';

const MAX_NAME = 100;
const MAX_BASE_URL = 500;
const MAX_API_KEY = 500;
const MODEL = /^[\w.:/-]{1,100}$/;
const LANGUAGE = /^[a-z]{2}$/;
/** Keys shorter than this show no hint: four characters would give away too much of them. */
const MIN_KEY_FOR_HINT = 12;

export interface TranscriptionCredential {
  id: number;
  companyId: number;
  name: string;
  provider: TranscriptionProvider;
  /** Without a trailing slash: requests go to `<baseUrl>/audio/transcriptions`. */
  baseUrl: string;
  model: string;
  /** ISO-639-1 code sent with each audio, or null to let the service detect the language. */
  language: string | null;
  /** The API key as the SecretCipher sealed it (never the key itself); null when the service needs none. */
  apiKeySealed: string | null;
  /** The key's last four characters, to tell keys apart; null for no key or a short one. */
  apiKeyHint: string | null;
  /** The company's credential used when a request names none; at most one per company. */
  isDefault: boolean;
  createdAt: Date;
  updatedAt: Date;
}

export type NewTranscriptionCredential = Omit<TranscriptionCredential, 'id'>;

/** A credential as the API shows it: the key is write-only (`hasApiKey`, `apiKeyLast4`). */
export interface TranscriptionCredentialView {
  id: number;
  companyId: number;
  name: string;
  provider: TranscriptionProvider;
  baseUrl: string;
  model: string;
  language: string | null;
  isDefault: boolean;
  hasApiKey: boolean;
  apiKeyLast4: string | null;
  createdAt: string;
  updatedAt: string;
}

export function toCredentialView(c: TranscriptionCredential): TranscriptionCredentialView {
  return {
    id: c.id,
    companyId: c.companyId,
    name: c.name,
    provider: c.provider,
    baseUrl: c.baseUrl,
    model: c.model,
    language: c.language,
    isDefault: c.isDefault,
    hasApiKey: c.apiKeySealed !== null,
    apiKeyLast4: c.apiKeyHint,
    createdAt: c.createdAt.toISOString(),
    updatedAt: c.updatedAt.toISOString(),
  };
}

export function cleanCredentialName(name: string): string {
  const trimmed = name.trim();
  if (trimmed.length < 1 || trimmed.length > MAX_NAME) throw new ValidationError('ERR_TRANSCRIPTION_INVALID_NAME');
  return trimmed;
}

/** An absolute http(s) URL without credentials, query or fragment; where it points is checked when it is called. */
export function cleanBaseUrl(url: string): string {
  const trimmed = url.trim();
  let parsed: URL;
  try {
    parsed = new URL(trimmed);
  } catch {
    throw new ValidationError('ERR_TRANSCRIPTION_INVALID_BASE_URL');
  }
  const http = parsed.protocol === 'http:' || parsed.protocol === 'https:';
  if (trimmed.length > MAX_BASE_URL || !http || parsed.username || parsed.password || parsed.search || parsed.hash) {
    throw new ValidationError('ERR_TRANSCRIPTION_INVALID_BASE_URL');
  }
  return parsed.toString().replace(/\/+$/, '');
}

export function cleanModel(model: string): string {
  const trimmed = model.trim();
  if (!MODEL.test(trimmed)) throw new ValidationError('ERR_TRANSCRIPTION_INVALID_MODEL');
  return trimmed;
}

/** Blank or null: detected by the service. */
export function cleanLanguage(language: string | null | undefined): string | null {
  if (language === null || language === undefined || language.trim() === '') return null;
  const code = language.trim().toLowerCase();
  if (!LANGUAGE.test(code)) throw new ValidationError('ERR_TRANSCRIPTION_INVALID_LANGUAGE');
  return code;
}

/** Blank or null: no key. */
export function cleanApiKey(key: string | null | undefined): string | null {
  if (key === null || key === undefined || key === '') return null;
  if (key.length > MAX_API_KEY || !/^[\x21-\x7e]+$/.test(key)) throw new ValidationError('ERR_TRANSCRIPTION_INVALID_API_KEY');
  return key;
}

/** What a sealed key is bound to: a value copied into another company's row does not open. */
export function keyContext(companyId: number): string {
  return `transcription-credential:${companyId}`;
}

/** The sealed key and its hint, for a key given in clear (null: none). */
export function sealApiKey(cipher: SecretCipher, companyId: number, key: string | null): Pick<TranscriptionCredential, 'apiKeySealed' | 'apiKeyHint'> {
  if (key === null) return { apiKeySealed: null, apiKeyHint: null };
  return { apiKeySealed: cipher.seal(key, keyContext(companyId)), apiKeyHint: key.length >= MIN_KEY_FOR_HINT ? key.slice(-4) : null };
}

/** The key in clear, to call the service (null: none); 422 when the server key that sealed it is gone. */
export function openApiKey(cipher: SecretCipher, c: Pick<TranscriptionCredential, 'companyId' | 'apiKeySealed'>): string | null {
  if (c.apiKeySealed === null) return null;
  const key = cipher.open(c.apiKeySealed, keyContext(c.companyId));
  if (key === null) throw new ValidationError('ERR_TRANSCRIPTION_CREDENTIAL_UNREADABLE');
  return key;
}

/** The provider's rules: `openai` needs a key. */
export function assertComplete(c: Pick<TranscriptionCredential, 'provider' | 'apiKeySealed'>): void {
  if (c.provider === 'openai' && c.apiKeySealed === null) throw new ValidationError('ERR_TRANSCRIPTION_API_KEY_REQUIRED');
}
