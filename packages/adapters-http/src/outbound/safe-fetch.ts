import { lookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import { PayloadTooLargeError, ValidationError } from '@servicedesk/core';

export interface SafeFetchOptions {
  readonly maxBytes: number;
  readonly timeoutMs?: number;
  /** Content types accepted, by prefix (`image/`). */
  readonly contentTypes: readonly string[];
  /** Let loopback and private addresses through (tests, trusted intranets). Off by default. */
  readonly allowPrivate?: boolean;
}

export interface FetchedFile {
  readonly data: Buffer;
  readonly contentType: string;
  readonly filename: string;
}

/** IANA's global unicast block: every public IPv6 address is in it. */
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3') as [ipaddr.IPv6, number];

/**
 * Only public unicast addresses: no loopback, private, link-local, multicast or reserved ranges.
 * An IPv6 address must also lie in 2000::/3, which refuses the deprecated IPv4-compatible form
 * (`[::127.0.0.1]`, which URL parsing writes `[::7f00:1]`) and every other block ipaddr.js calls unicast.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  let ip = ipaddr.parse(address);
  if (ip.kind() === 'ipv6' && (ip as ipaddr.IPv6).isIPv4MappedAddress()) ip = (ip as ipaddr.IPv6).toIPv4Address();
  if (ip.kind() === 'ipv6' && !(ip as ipaddr.IPv6).match(GLOBAL_UNICAST_V6)) return false;
  return ip.range() === 'unicast';
}

/**
 * Resolves a URL's host once and answers a `lookup` that always returns the checked address, so a
 * second DNS answer cannot swap it (DNS rebinding). Null when the host does not resolve; 422
 * `ERR_URL_NOT_ALLOWED` when any address is not public (unless `allowPrivate`).
 */
export async function pinnedLookupFor(url: URL, allowPrivate: boolean): Promise<LookupFunction | null> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const addresses = ipaddr.isValid(host) ? [{ address: host, family: host.includes(':') ? 6 : 4 }] : await lookup(host, { all: true }).catch(() => []);
  if (addresses.length === 0) return null;
  if (!allowPrivate && addresses.some((a) => !isPublicAddress(a.address))) throw new ValidationError('ERR_URL_NOT_ALLOWED');
  const pinned = addresses[0]!;
  return ((_h: string, opts: { all?: boolean }, cb: (...args: unknown[]) => void) => {
    if (opts?.all) cb(null, [pinned]);
    else cb(null, pinned.address, pinned.family);
  }) as unknown as LookupFunction;
}

/**
 * Downloads a file a client pointed us at, without letting the URL reach inside our network
 * (SSRF): the host is resolved once, every address must be public, and the connection is made
 * to the checked address (so a second DNS answer cannot swap it). Size, time and type are capped.
 */
export async function safeFetch(rawUrl: string, o: SafeFetchOptions, redirects = 3): Promise<FetchedFile> {
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    throw new ValidationError('ERR_INVALID_URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ValidationError('ERR_INVALID_URL');
  const pinnedLookup = await pinnedLookupFor(url, o.allowPrivate ?? false);
  if (!pinnedLookup) throw new ValidationError('ERR_URL_NOT_REACHABLE');
  const client = url.protocol === 'https:' ? https : http;
  return new Promise<FetchedFile>((resolve, reject) => {
    const req = client.get(url, { lookup: pinnedLookup, timeout: o.timeoutMs ?? 10_000, headers: { 'user-agent': 'servicedesk/1' } }, (res) => {
      const status = res.statusCode ?? 0;
      if (status >= 300 && status < 400 && res.headers.location && redirects > 0) {
        res.resume();
        resolve(safeFetch(new URL(res.headers.location, url).toString(), o, redirects - 1));
        return;
      }
      if (status !== 200) {
        res.resume();
        return reject(new ValidationError('ERR_URL_NOT_REACHABLE'));
      }
      const contentType = String(res.headers['content-type'] ?? '')
        .split(';')[0]!
        .trim()
        .toLowerCase();
      if (!o.contentTypes.some((t) => contentType.startsWith(t))) {
        res.resume();
        return reject(new ValidationError('ERR_FILE_TYPE_NOT_ALLOWED'));
      }
      if (Number(res.headers['content-length'] ?? 0) > o.maxBytes) {
        res.destroy();
        return reject(new PayloadTooLargeError('ERR_FILE_TOO_LARGE'));
      }
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (c: Buffer) => {
        size += c.length;
        if (size > o.maxBytes) {
          res.destroy();
          reject(new PayloadTooLargeError('ERR_FILE_TOO_LARGE'));
        } else chunks.push(c);
      });
      res.on('end', () => resolve({ data: Buffer.concat(chunks), contentType, filename: decodeURIComponent(url.pathname.split('/').pop() || 'file') }));
      res.on('error', () => reject(new ValidationError('ERR_URL_NOT_REACHABLE')));
    });
    req.on('timeout', () => {
      req.destroy();
      reject(new ValidationError('ERR_URL_TIMEOUT'));
    });
    req.on('error', () => reject(new ValidationError('ERR_URL_NOT_REACHABLE')));
  });
}
