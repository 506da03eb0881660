import { ValidationError } from '../shared/errors.js';
import type { SecretCipher } from '../shared/ports.js';

/**
 * Where a company keeps its uploads instead of the platform's default store: one bucket of an
 * S3-compatible service (AWS S3, MinIO, Cloudflare R2, Wasabi, DigitalOcean Spaces, any other),
 * under an optional prefix, reached with a key pair whose secret is sealed at rest and never shown.
 * A company has any number of configs and at most one active: new uploads go to the active one.
 */
export const OBJSTORE_PROVIDERS = ['s3', 'minio', 'r2', 'wasabi', 'spaces', 'other'] as const;
export type ObjstoreProvider = (typeof OBJSTORE_PROVIDERS)[number];

export const OBJSTORE_LIMITS = { name: 100, endpoint: 500, publicBaseUrl: 500, prefix: 200, accessKeyId: 128, secret: 256 } as const;

/** Keys shorter than this show no hint: four characters would give away too much of them. */
const MIN_SECRET_FOR_HINT = 12;

export interface ObjstoreConfig {
  id: number;
  companyId: number;
  name: string;
  provider: ObjstoreProvider;
  /** The service's base URL without a trailing slash (`https://s3.eu-west-1.amazonaws.com`). */
  endpoint: string;
  region: string;
  bucket: string;
  /** Object keys are `<prefix>/<blob key>`; empty: the blob key itself. No leading or trailing slash. */
  prefix: string;
  /** `<endpoint>/<bucket>/<key>` rather than `<bucket>.<endpoint host>/<key>` (MinIO and most self-hosted services). */
  forcePathStyle: boolean;
  /** A CDN or public domain serving the bucket: public files are sent there rather than through the backend. */
  publicBaseUrl: string | null;
  accessKeyId: string;
  /** The secret access key as the SecretCipher sealed it. */
  secretSealed: string;
  secretHint: string | null;
  active: boolean;
  createdAt: Date;
  updatedAt: Date;
}

export type NewObjstoreConfig = Omit<ObjstoreConfig, 'id'>;

/** What adapters need to reach the bucket: the secret in clear, only in memory. */
export interface ObjstoreConnection {
  readonly endpoint: string;
  readonly region: string;
  readonly bucket: string;
  readonly prefix: string;
  readonly forcePathStyle: boolean;
  readonly publicBaseUrl: string | null;
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
}

/** A config as the API shows it: the secret is write-only (`hasSecret`, `secretLast4`). */
export interface ObjstoreConfigView {
  id: number;
  companyId: number;
  name: string;
  provider: ObjstoreProvider;
  endpoint: string;
  region: string;
  bucket: string;
  prefix: string;
  forcePathStyle: boolean;
  publicBaseUrl: string | null;
  accessKeyId: string;
  hasSecret: boolean;
  secretLast4: string | null;
  active: boolean;
  createdAt: string;
  updatedAt: string;
}

export function toObjstoreConfigView(c: ObjstoreConfig): ObjstoreConfigView {
  return {
    id: c.id,
    companyId: c.companyId,
    name: c.name,
    provider: c.provider,
    endpoint: c.endpoint,
    region: c.region,
    bucket: c.bucket,
    prefix: c.prefix,
    forcePathStyle: c.forcePathStyle,
    publicBaseUrl: c.publicBaseUrl,
    accessKeyId: c.accessKeyId,
    hasSecret: c.secretSealed !== '',
    secretLast4: c.secretHint,
    active: c.active,
    createdAt: c.createdAt.toISOString(),
    updatedAt: c.updatedAt.toISOString(),
  };
}

/** Self-hosted services answer on one host for every bucket. */
export function defaultPathStyle(provider: ObjstoreProvider): boolean {
  return provider === 'minio' || provider === 'other';
}

export function cleanObjstoreName(name: string): string {
  const trimmed = name.trim();
  if (trimmed.length < 1 || trimmed.length > OBJSTORE_LIMITS.name) throw new ValidationError('ERR_OBJSTORE_INVALID_NAME');
  return trimmed;
}

/** Blank: `us-east-1` (`auto` on R2, which ignores it). */
export function cleanRegion(provider: ObjstoreProvider, region: string | null | undefined): string {
  const trimmed = region?.trim() ?? '';
  if (trimmed === '') return provider === 'r2' ? 'auto' : 'us-east-1';
  if (!/^[a-z0-9][a-z0-9-]{0,49}$/.test(trimmed)) throw new ValidationError('ERR_OBJSTORE_INVALID_REGION');
  return trimmed;
}

/** An http(s) URL without credentials, query or fragment; https unless the deployment allows plain http (`allowHttp`). */
function cleanUrl(url: string, max: number, allowHttp: boolean, withPath: boolean): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  const schemeOk = parsed.protocol === 'https:' || (allowHttp && parsed.protocol === 'http:');
  if (url.length > max || !schemeOk || parsed.username || parsed.password || parsed.search || parsed.hash) return null;
  if (!withPath && parsed.pathname !== '/') return null;
  return parsed.toString().replace(/\/+$/, '');
}

/**
 * The service's URL: the origin only (`https://host[:port]`). Blank with `s3`: AWS's regional
 * endpoint. Where it points is checked when it is called (no private addresses unless allowed).
 */
export function cleanEndpoint(provider: ObjstoreProvider, region: string, url: string | null | undefined, allowHttp: boolean): string {
  const trimmed = url?.trim() ?? '';
  if (trimmed === '') {
    if (provider === 's3') return `https://s3.${region}.amazonaws.com`;
    throw new ValidationError('ERR_OBJSTORE_INVALID_ENDPOINT');
  }
  const clean = cleanUrl(trimmed, OBJSTORE_LIMITS.endpoint, allowHttp, false);
  if (clean === null) throw new ValidationError('ERR_OBJSTORE_INVALID_ENDPOINT');
  return clean;
}

/** Blank or null: none (public files are served by the backend). */
export function cleanPublicBaseUrl(url: string | null | undefined, allowHttp: boolean): string | null {
  const trimmed = url?.trim() ?? '';
  if (trimmed === '') return null;
  const clean = cleanUrl(trimmed, OBJSTORE_LIMITS.publicBaseUrl, allowHttp, true);
  if (clean === null) throw new ValidationError('ERR_OBJSTORE_INVALID_PUBLIC_URL');
  return clean;
}

/** 3 to 63 letters, digits, `.`, `-` and `_`, starting and ending with a letter or digit (S3's rules, and the older ones some services keep). */
export function cleanBucket(bucket: string): string {
  const trimmed = bucket.trim();
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]{1,61}[A-Za-z0-9]$/.test(trimmed) || trimmed.includes('..')) throw new ValidationError('ERR_OBJSTORE_INVALID_BUCKET');
  return trimmed;
}

/** Folders of letters, digits, `.`, `-` and `_` separated by `/` (slashes at either end are dropped); blank: none. */
export function cleanPrefix(prefix: string | null | undefined): string {
  const trimmed = (prefix ?? '').trim().replace(/^\/+|\/+$/g, '');
  if (trimmed === '') return '';
  const segments = trimmed.split('/');
  const safe = segments.every((s) => /^[A-Za-z0-9._-]+$/.test(s) && s !== '.' && s !== '..');
  if (trimmed.length > OBJSTORE_LIMITS.prefix || !safe) throw new ValidationError('ERR_OBJSTORE_INVALID_PREFIX');
  return trimmed;
}

export function cleanAccessKeyId(key: string): string {
  const trimmed = key.trim();
  if (trimmed.length < 1 || trimmed.length > OBJSTORE_LIMITS.accessKeyId || !/^[\x21-\x7e]+$/.test(trimmed))
    throw new ValidationError('ERR_OBJSTORE_INVALID_ACCESS_KEY');
  return trimmed;
}

export function cleanSecretAccessKey(secret: string): string {
  if (secret.length < 1 || secret.length > OBJSTORE_LIMITS.secret || !/^[\x21-\x7e]+$/.test(secret)) throw new ValidationError('ERR_OBJSTORE_INVALID_SECRET');
  return secret;
}

/** What a sealed secret is bound to: a value copied into another company's row does not open. */
function secretContext(companyId: number): string {
  return `objstore:${companyId}`;
}

export function sealObjstoreSecret(cipher: SecretCipher, companyId: number, secret: string): Pick<ObjstoreConfig, 'secretSealed' | 'secretHint'> {
  return { secretSealed: cipher.seal(secret, secretContext(companyId)), secretHint: secret.length >= MIN_SECRET_FOR_HINT ? secret.slice(-4) : null };
}

/** The secret in clear, to reach the bucket; 422 when the server key that sealed it is gone. */
export function openObjstoreSecret(cipher: SecretCipher, c: Pick<ObjstoreConfig, 'companyId' | 'secretSealed'>): string {
  const secret = cipher.open(c.secretSealed, secretContext(c.companyId));
  if (secret === null) throw new ValidationError('ERR_OBJSTORE_SECRET_UNREADABLE');
  return secret;
}

export function connectionOf(cipher: SecretCipher, c: NewObjstoreConfig): ObjstoreConnection {
  return {
    endpoint: c.endpoint,
    region: c.region,
    bucket: c.bucket,
    prefix: c.prefix,
    forcePathStyle: c.forcePathStyle,
    publicBaseUrl: c.publicBaseUrl,
    accessKeyId: c.accessKeyId,
    secretAccessKey: openObjstoreSecret(cipher, c),
  };
}

/** Whether two configs put an object at different places (an edit that would lose the objects already stored). */
export function movesObjects(a: Pick<ObjstoreConfig, 'endpoint' | 'bucket' | 'prefix'>, b: Pick<ObjstoreConfig, 'endpoint' | 'bucket' | 'prefix'>): boolean {
  return a.endpoint !== b.endpoint || a.bucket !== b.bucket || a.prefix !== b.prefix;
}

/** Whether two configs reach the bucket differently (what a connection test checks). */
export function connectsDifferently(a: ObjstoreConfig, b: ObjstoreConfig): boolean {
  return (
    movesObjects(a, b) || a.region !== b.region || a.forcePathStyle !== b.forcePathStyle || a.accessKeyId !== b.accessKeyId || a.secretSealed !== b.secretSealed
  );
}
