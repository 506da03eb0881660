import { ValidationError } from '../shared/errors.js';

/**
 * An HTTP bot a queue hands its conversations to: each inbound message of a ticket in the queue
 * is POSTed to `url` as JSON, signed with `secret` (HMAC-SHA256) and carrying `token` as a bearer
 * credential when set. The types are the lineage's (webhook, n8n, Typebot, Dialogflow-like);
 * they share this transport, and `config` keeps whatever the receiving side needs.
 */
export const INTEGRATION_TYPES = ['webhook', 'n8n', 'typebot', 'dialogflow'] as const;
export type IntegrationType = (typeof INTEGRATION_TYPES)[number];

export interface QueueIntegration {
  id: number;
  companyId: number;
  name: string;
  type: IntegrationType;
  url: string;
  /** Sent as `Authorization: Bearer`; never shown back. */
  token: string | null;
  /** Signs every delivery; never shown back. */
  secret: string | null;
  config: Record<string, unknown>;
  createdAt: Date;
  updatedAt: Date;
}

export type NewQueueIntegration = Omit<QueueIntegration, 'id'>;

/** The lineage editor's own fields, kept in `config` and shown back at the top level. */
export const LINEAGE_INTEGRATION_FIELDS = [
  'projectName',
  'language',
  'typebotSlug',
  'typebotExpires',
  'typebotDelayMessage',
  'typebotKeywordFinish',
  'typebotKeywordRestart',
  'typebotUnknownMessage',
  'typebotRestartMessage',
] as const;
export type LineageIntegrationField = (typeof LINEAGE_INTEGRATION_FIELDS)[number];

/**
 * Credentials are write-only: the view says whether they are set. For the lineage's editor, `url`
 * shows again as `urlN8N`, and its fields kept in `config` at the top level (null when unset).
 */
export interface QueueIntegrationView
  extends Omit<QueueIntegration, 'token' | 'secret' | 'createdAt' | 'updatedAt'>,
    Record<LineageIntegrationField, string | number | null> {
  urlN8N: string;
  hasToken: boolean;
  hasSecret: boolean;
  createdAt: string;
  updatedAt: string;
}

export const MAX_INTEGRATION_NAME = 100;
export const MAX_INTEGRATION_URL = 2048;
export const MAX_INTEGRATION_CREDENTIAL = 1024;
export const MAX_INTEGRATION_CONFIG_BYTES = 16 * 1024;

export function toQueueIntegrationView(i: QueueIntegration): QueueIntegrationView {
  const { token, secret, createdAt, updatedAt, ...rest } = i;
  const lineage = Object.fromEntries(
    LINEAGE_INTEGRATION_FIELDS.map((f) => {
      const v = rest.config[f];
      return [f, typeof v === 'string' || typeof v === 'number' ? v : null];
    }),
  ) as Record<LineageIntegrationField, string | number | null>;
  return {
    ...rest,
    ...lineage,
    urlN8N: rest.url,
    config: structuredClone(rest.config),
    hasToken: token !== null,
    hasSecret: secret !== null,
    createdAt: createdAt.toISOString(),
    updatedAt: updatedAt.toISOString(),
  };
}

export function cleanIntegrationName(name: string): string {
  const trimmed = name.trim();
  if (trimmed.length < 1 || trimmed.length > MAX_INTEGRATION_NAME) throw new ValidationError('ERR_INVALID_INTEGRATION_NAME');
  return trimmed;
}

export function cleanIntegrationType(type: string): IntegrationType {
  if (!(INTEGRATION_TYPES as readonly string[]).includes(type)) throw new ValidationError('ERR_INVALID_INTEGRATION_TYPE');
  return type as IntegrationType;
}

/** An absolute http(s) URL without credentials; where it points is checked when it is called. */
export function cleanIntegrationUrl(url: string): string {
  const trimmed = url.trim();
  let parsed: URL;
  try {
    parsed = new URL(trimmed);
  } catch {
    throw new ValidationError('ERR_INVALID_INTEGRATION_URL');
  }
  if (trimmed.length > MAX_INTEGRATION_URL || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') || parsed.username || parsed.password) {
    throw new ValidationError('ERR_INVALID_INTEGRATION_URL');
  }
  return parsed.toString();
}

/** Blank removes it. */
export function cleanCredential(value: string | null | undefined): string | null {
  if (value === null || value === undefined || value === '') return null;
  if (value.length > MAX_INTEGRATION_CREDENTIAL || !/^[\x21-\x7e]+$/.test(value)) throw new ValidationError('ERR_INVALID_INTEGRATION_CREDENTIAL');
  return value;
}

export function cleanIntegrationConfig(config: Record<string, unknown> | null | undefined): Record<string, unknown> {
  if (config === null || config === undefined) return {};
  if (typeof config !== 'object' || Array.isArray(config) || JSON.stringify(config).length > MAX_INTEGRATION_CONFIG_BYTES) {
    throw new ValidationError('ERR_INVALID_INTEGRATION_CONFIG');
  }
  return structuredClone(config);
}
