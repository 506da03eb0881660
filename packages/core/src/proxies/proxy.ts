import { ValidationError } from '../shared/errors.js';
import type { SecretCipher } from '../shared/ports.js';

/** How a session reaches WhatsApp through a proxy: an HTTP CONNECT tunnel (plain or TLS to the proxy) or SOCKS. */
export const PROXY_PROTOCOLS = ['http', 'https', 'socks4', 'socks5'] as const;
export type ProxyProtocol = (typeof PROXY_PROTOCOLS)[number];

/**
 * `healthy`: the last check went through. `unchecked`: saved with `skipCheck`, not yet through a check
 * (the health job checks it next; assignment may use it, after healthy ones). `degraded`: the last check
 * failed, fewer than the limit in a row. `failing`: the limit of failures in a row was reached (assignment
 * skips it). `disabled`: taken out of the pool by an admin or by `disable-problematic`, with a reason; only
 * an edit with `active: true` brings it back.
 */
export const PROXY_STATUSES = ['healthy', 'unchecked', 'degraded', 'failing', 'disabled'] as const;
export type ProxyStatus = (typeof PROXY_STATUSES)[number];

/** Consecutive failed checks after which a proxy is `failing`. */
export const FAILURES_BEFORE_FAILING = 3;
export const DEFAULT_MAX_CONNECTIONS = 5;
const MAX_CONNECTIONS = 1000;
const HOST =
  /^(?=.{1,253}$)[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$|^\d{1,3}(\.\d{1,3}){3}$|^\[?[0-9A-Fa-f:]{2,39}\]?$/;
const COUNTRY = /^[A-Z]{2}$/;

/** One entry of a proxy pool: the platform's (`companyId` null, managed by the super admin) or a company's own. */
export interface Proxy {
  id: number;
  companyId: number | null;
  name: string;
  protocol: ProxyProtocol;
  host: string;
  port: number;
  /** Null: the proxy asks for no authentication. */
  username: string | null;
  /** The password as the SecretCipher sealed it, never in clear; null for none. */
  passwordSealed: string | null;
  /** ISO 3166-1 alpha-2 code of where the proxy's address is, to keep a number's traffic in its country. */
  country: string | null;
  /** How many connections may use it at once. */
  maxConnections: number;
  status: ProxyStatus;
  disabledReason: string | null;
  failCount: number;
  lastError: string | null;
  lastLatencyMs: number | null;
  lastCheckAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export type NewProxy = Omit<Proxy, 'id'>;

/** Which proxy a connection's session goes through; one row per connection. */
export interface ProxyAssignment {
  connectionId: number;
  companyId: number;
  proxyId: number;
  assignedAt: Date;
}

/** A proxy on the wire: credentials are write-only (`hasPassword`), with how many connections use it. */
export interface ProxyView {
  id: number;
  companyId: number | null;
  isGlobal: boolean;
  name: string;
  protocol: ProxyProtocol;
  host: string;
  port: number;
  username: string | null;
  hasPassword: boolean;
  country: string | null;
  maxConnections: number;
  assignedConnections: number;
  active: boolean;
  status: ProxyStatus;
  disabledReason: string | null;
  failCount: number;
  lastError: string | null;
  lastLatencyMs: number | null;
  lastCheckAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export function toProxyView(p: Proxy, assigned: number): ProxyView {
  return {
    id: p.id,
    companyId: p.companyId,
    isGlobal: p.companyId === null,
    name: p.name,
    protocol: p.protocol,
    host: p.host,
    port: p.port,
    username: p.username,
    hasPassword: p.passwordSealed !== null,
    country: p.country,
    maxConnections: p.maxConnections,
    assignedConnections: assigned,
    active: p.status !== 'disabled',
    status: p.status,
    disabledReason: p.disabledReason,
    failCount: p.failCount,
    lastError: p.lastError,
    lastLatencyMs: p.lastLatencyMs,
    lastCheckAt: p.lastCheckAt?.toISOString() ?? null,
    createdAt: p.createdAt.toISOString(),
    updatedAt: p.updatedAt.toISOString(),
  };
}

/** Assignment may pick it: not disabled nor failing. */
export function isUsable(p: Pick<Proxy, 'status'>): boolean {
  return p.status === 'healthy' || p.status === 'unchecked' || p.status === 'degraded';
}

export function cleanProxyName(name: string): string {
  const trimmed = name.trim();
  if (trimmed.length < 1 || trimmed.length > 100) throw new ValidationError('ERR_PROXY_INVALID_NAME');
  return trimmed;
}

export function cleanHost(host: string): string {
  const trimmed = host.trim().toLowerCase();
  if (!HOST.test(trimmed)) throw new ValidationError('ERR_PROXY_INVALID_HOST');
  return trimmed.replace(/^\[|\]$/g, '');
}

export function cleanPort(port: number): number {
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new ValidationError('ERR_PROXY_INVALID_PORT');
  return port;
}

export function cleanCountry(country: string | null | undefined): string | null {
  if (country === null || country === undefined || country.trim() === '') return null;
  const code = country.trim().toUpperCase();
  if (!COUNTRY.test(code)) throw new ValidationError('ERR_PROXY_INVALID_COUNTRY');
  return code;
}

export function cleanMaxConnections(max: number | undefined): number {
  if (max === undefined) return DEFAULT_MAX_CONNECTIONS;
  if (!Number.isInteger(max) || max < 1 || max > MAX_CONNECTIONS) throw new ValidationError('ERR_PROXY_INVALID_CAPACITY');
  return max;
}

/** Blank or null: none. Printable characters only, as both HTTP Basic and SOCKS5 carry them. */
export function cleanCredential(value: string | null | undefined): string | null {
  if (value === null || value === undefined || value === '') return null;
  if (value.length > 255 || !/^[\x20-\x7e]+$/.test(value)) throw new ValidationError('ERR_PROXY_INVALID_CREDENTIALS');
  return value;
}

/** What a sealed password is bound to: a value copied into another proxy's row does not open. */
function passwordContext(companyId: number | null): string {
  return `proxy-password:${companyId ?? 'global'}`;
}

export function sealPassword(cipher: SecretCipher, companyId: number | null, password: string | null): string | null {
  return password === null ? null : cipher.seal(password, passwordContext(companyId));
}

/** The password in clear, to connect through the proxy; 422 when the server key that sealed it is gone. */
export function openPassword(cipher: SecretCipher, p: Pick<Proxy, 'companyId' | 'passwordSealed'>): string | null {
  if (p.passwordSealed === null) return null;
  const password = cipher.open(p.passwordSealed, passwordContext(p.companyId));
  if (password === null) throw new ValidationError('ERR_PROXY_CREDENTIALS_UNREADABLE');
  return password;
}

/** Where a session or a check connects: the proxy with its password opened. */
export interface ProxyEndpoint {
  readonly protocol: ProxyProtocol;
  readonly host: string;
  readonly port: number;
  readonly username: string | null;
  readonly password: string | null;
}

export function endpointOf(cipher: SecretCipher, p: Proxy): ProxyEndpoint {
  return { protocol: p.protocol, host: p.host, port: p.port, username: p.username, password: openPassword(cipher, p) };
}
