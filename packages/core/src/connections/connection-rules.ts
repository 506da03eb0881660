import { assertSuper, type Actor } from '../shared/actor.js';
import type { ErrorCode } from '../shared/error-codes.js';
import { ConflictError, NotFoundError, ValidationError } from '../shared/errors.js';
import type { Clock, SecretDigester } from '../shared/ports.js';
import { maskToken, PROVIDERS_OF, type Connection, type ConnectionKind, type ConnectionProvider } from './connection.js';
import type { Connections, SocialAccounts } from './ports.js';

export const MAX_CONNECTION_TEXT = 4000;
export const MAX_REOPEN_WINDOW_MINUTES = 7 * 24 * 60;
export const MIN_CONNECTION_TOKEN = 16;
export const MAX_CONNECTION_TOKEN = 256;
const MAX_SECRETS = 20;

/** Printable ASCII without spaces: it travels in an `Authorization: Bearer` header. */
const TOKEN = /^[\x21-\x7e]+$/;
const SECRET_NAME = /^[A-Za-z][\w-]{0,63}$/;
const EXTERNAL_ID = /^[\w.:-]{1,128}$/;

export function connectionName(name: string): string {
  const trimmed = name.trim();
  if (trimmed.length < 1 || trimmed.length > 120) throw new ValidationError('ERR_INVALID_CONNECTION_NAME');
  return trimmed;
}

/** Greeting, farewell and out-of-hours texts: empty means none. */
export function connectionText(text: string | null): string | null {
  if (text === null || text.trim() === '') return null;
  if (text.length > MAX_CONNECTION_TEXT) throw new ValidationError('ERR_CONNECTION_TEXT_TOO_LONG');
  return text;
}

export function reopenWindow(minutes: number): number {
  if (!Number.isInteger(minutes) || minutes < 0 || minutes > MAX_REOPEN_WINDOW_MINUTES) throw new ValidationError('ERR_INVALID_REOPEN_WINDOW');
  return minutes;
}

export function providerOfKind(kind: ConnectionKind, provider: ConnectionProvider, code: ErrorCode): ConnectionProvider {
  if (!PROVIDERS_OF[kind].includes(provider)) throw new ValidationError(code);
  return provider;
}

export function externalIdOf(externalId: string | null | undefined): string | null {
  if (externalId === null || externalId === undefined || externalId.trim() === '') return null;
  if (!EXTERNAL_ID.test(externalId.trim())) throw new ValidationError('ERR_INVALID_EXTERNAL_ID');
  return externalId.trim();
}

export function secretsOf(secrets: Readonly<Record<string, string>>): Record<string, string> {
  const entries = Object.entries(secrets);
  if (entries.length > MAX_SECRETS) throw new ValidationError('ERR_INVALID_SECRETS');
  for (const [name, value] of entries) {
    if (!SECRET_NAME.test(name) || typeof value !== 'string' || value.length < 1 || value.length > 4096) throw new ValidationError('ERR_INVALID_SECRETS');
  }
  return Object.fromEntries(entries);
}

/** A social-network connection cannot work without its page and the page's access token; a bizchat one without its number and account. */
export function assertSocialCredentials(c: Pick<Connection, 'kind' | 'externalId' | 'secrets'>): void {
  if (c.kind === 'bizchat' && (!c.externalId || !c.secrets.accessToken || !c.secrets.wabaId)) throw new ValidationError('ERR_BIZCHAT_ACCOUNT_INCOMPLETE');
  if (c.kind !== 'socialnet') return;
  if (!c.externalId) throw new ValidationError('ERR_EXTERNAL_ID_REQUIRED');
  if (!c.secrets.pageAccessToken) throw new ValidationError('ERR_PAGE_ACCESS_TOKEN_REQUIRED');
}

/**
 * What a connection claims at the provider: a social page (or account) id with the token that must
 * own it, or a business number with its account and token. Null for other kinds.
 */
export function accountClaim(c: Pick<Connection, 'kind' | 'externalId' | 'secrets'>): string | null {
  if (!c.externalId) return null;
  if (c.kind === 'socialnet') return JSON.stringify([c.externalId, c.secrets.pageAccessToken ?? '']);
  if (c.kind === 'bizchat') return JSON.stringify([c.externalId, c.secrets.accessToken ?? '', c.secrets.wabaId ?? '']);
  return null;
}

/**
 * Meta delivers a page's (or a business number's) messages to the connection holding its id, so
 * the id is accepted only from who holds a token of it: the provider must say the token is the
 * page's (or the token of the page its Instagram account is linked to), or that the token reaches
 * the number and the number is in the given business account. Done before the transaction: it is a
 * network call.
 */
export async function assertAccountOwned(socialAccounts: SocialAccounts, c: Pick<Connection, 'kind' | 'externalId' | 'secrets'>): Promise<void> {
  if (!c.externalId) return;
  if (c.kind === 'bizchat') {
    const answer = await socialAccounts.businessNumber({
      phoneNumberId: c.externalId,
      wabaId: c.secrets.wabaId ?? '',
      accessToken: c.secrets.accessToken ?? '',
    });
    if (answer === 'token-refused') throw new ValidationError('ERR_BIZCHAT_TOKEN_INVALID');
    if (answer !== 'owned') throw new ValidationError('ERR_BIZCHAT_NUMBER_NOT_OWNED');
    return;
  }
  if (c.kind !== 'socialnet') return;
  const page = await socialAccounts.pageOfToken(c.secrets.pageAccessToken ?? '');
  if (!page) throw new ValidationError('ERR_PAGE_ACCESS_TOKEN_INVALID');
  if (page.pageId !== c.externalId && page.instagramAccountId !== c.externalId) throw new ValidationError('ERR_PAGE_NOT_OWNED');
}

/** A page or account id belongs to one social connection on the platform, a phone-number id to one bizchat connection (unique indexes back this). */
export async function assertAccountFree(connections: Connections, c: Pick<Connection, 'kind' | 'externalId'>, ownerId: number | null): Promise<void> {
  if ((c.kind !== 'socialnet' && c.kind !== 'bizchat') || !c.externalId) return;
  const holder = await connections.findByExternalId(c.externalId, c.kind);
  if (holder && holder.id !== ownerId) throw new ConflictError(c.kind === 'bizchat' ? 'ERR_BIZCHAT_NUMBER_IN_USE' : 'ERR_PAGE_IN_USE');
}

export function assertTokenFormat(token: string): void {
  if (token.length < MIN_CONNECTION_TOKEN || token.length > MAX_CONNECTION_TOKEN || !TOKEN.test(token)) {
    throw new ValidationError('ERR_INVALID_CONNECTION_TOKEN_FORMAT');
  }
}

/**
 * The stored form of a "Token API": a keyed digest to look it up and a mask to show. A token
 * held by another connection is refused, since it must select exactly one connection.
 */
export async function tokenFields(
  deps: { connections: Connections; digester: SecretDigester },
  token: string,
  ownerId: number | null,
): Promise<Pick<Connection, 'tokenDigest' | 'tokenHint'>> {
  assertTokenFormat(token);
  const tokenDigest = deps.digester.digest(token);
  const holder = await deps.connections.findByTokenDigest(tokenDigest);
  if (holder && holder.id !== ownerId) throw new ConflictError('ERR_TOKEN_IN_USE');
  return { tokenDigest, tokenHint: maskToken(token) };
}

/**
 * The connection the actor may address: one of their company's, or, on the admin routes
 * (`anyCompany`), any company's for super users (403 for everyone else). 404 otherwise.
 */
export async function visibleConnection(connections: Connections, actor: Actor, connectionId: number, anyCompany = false): Promise<Connection> {
  if (anyCompany) assertSuper(actor);
  const connection = await connections.findById(anyCompany ? null : actor.companyId, connectionId);
  if (!connection) throw new NotFoundError('ERR_NO_CONNECTION_FOUND');
  return connection;
}

/** A company has at most one default connection: making one the default unsets the others. */
export async function unsetOtherDefaults(connections: Connections, clock: Clock, keep: Connection): Promise<Connection[]> {
  const changed: Connection[] = [];
  for (const other of await connections.list(keep.companyId)) {
    if (other.id === keep.id || !other.isDefault) continue;
    other.isDefault = false;
    other.updatedAt = clock.now();
    await connections.update(other);
    changed.push(other);
  }
  return changed;
}
