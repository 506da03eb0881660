import http from 'node:http';
import https from 'node:https';
import {
  NotFoundError,
  PayloadTooLargeError,
  ServiceUnavailableError,
  ValidationError,
  type FetchedMedia,
  type InboundMediaFetcher,
  type InboundMediaRequest,
} from '@servicedesk/core';
import { pinnedLookupFor } from './safe-fetch.js';

export interface MediaDownloadOptions {
  readonly maxBytes: number;
  readonly headers?: Readonly<Record<string, string>>;
  /** Let loopback and private addresses through (tests, trusted intranets). Off by default. */
  readonly allowPrivate?: boolean;
  readonly timeoutMs?: number;
}

/** The provider's answer as the fetch job understands it: what retrying cannot change is a DomainError of its own kind. */
function failureOf(status: number): Error {
  if (status === 404 || status === 410) return new NotFoundError('ERR_MEDIA_NOT_FOUND');
  if (status === 429 || status >= 500) return new ServiceUnavailableError('ERR_MEDIA_UNAVAILABLE');
  return new ValidationError('ERR_MEDIA_REFUSED');
}

/**
 * Downloads a contact's file from a URL a provider gave: the host resolved once and pinned (a URL
 * pointing inside our network is refused, as `safeFetch` does), at most `maxBytes` held (past them
 * the download stops, nothing kept), redirects followed three times (headers only to the same
 * origin: a bearer token never leaves for another host). A 404 or 410 is `ERR_MEDIA_NOT_FOUND`,
 * 401 and other refusals `ERR_MEDIA_REFUSED`, 429, 5xx, time-outs and broken connections
 * `ERR_MEDIA_UNAVAILABLE` (retried by the job).
 */
export async function downloadMedia(rawUrl: string, o: MediaDownloadOptions, redirects = 3): Promise<FetchedMedia> {
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    throw new ValidationError('ERR_INVALID_URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ValidationError('ERR_INVALID_URL');
  const lookup = await pinnedLookupFor(url, o.allowPrivate ?? false);
  if (!lookup) throw new ServiceUnavailableError('ERR_MEDIA_UNAVAILABLE');
  const client = url.protocol === 'https:' ? https : http;
  return new Promise<FetchedMedia>((resolve, reject) => {
    const headers = { 'user-agent': 'servicedesk/1', ...(o.headers ?? {}) };
    const req = client.get(url, { lookup, timeout: o.timeoutMs ?? 60_000, headers }, (res) => {
      const status = res.statusCode ?? 0;
      if (status >= 300 && status < 400 && res.headers.location && redirects > 0) {
        res.resume();
        const next = new URL(res.headers.location, url);
        const same = next.origin === url.origin;
        resolve(downloadMedia(next.toString(), { ...o, headers: same ? o.headers : {} }, redirects - 1));
        return;
      }
      if (status !== 200) {
        res.resume();
        reject(failureOf(status));
        return;
      }
      // Rejected before the response is destroyed: destroying it emits `aborted`, which must not be the answer.
      if (Number(res.headers['content-length'] ?? 0) > o.maxBytes) {
        reject(new PayloadTooLargeError('ERR_MEDIA_TOO_LARGE'));
        res.destroy();
        return;
      }
      const contentType = String(res.headers['content-type'] ?? '').trim() || null;
      const chunks: Buffer[] = [];
      let size = 0;
      let over = false;
      res.on('data', (c: Buffer) => {
        size += c.length;
        if (size > o.maxBytes) {
          over = true;
          chunks.length = 0;
          reject(new PayloadTooLargeError('ERR_MEDIA_TOO_LARGE'));
          res.destroy();
        } else chunks.push(c);
      });
      res.on('end', () => {
        if (!over) resolve({ data: Buffer.concat(chunks), contentType });
      });
      res.on('error', () => reject(new ServiceUnavailableError('ERR_MEDIA_UNAVAILABLE')));
      res.on('aborted', () => reject(new ServiceUnavailableError('ERR_MEDIA_UNAVAILABLE')));
    });
    req.on('timeout', () => {
      req.destroy();
      reject(new ServiceUnavailableError('ERR_MEDIA_UNAVAILABLE'));
    });
    req.on('error', () => reject(new ServiceUnavailableError('ERR_MEDIA_UNAVAILABLE')));
  });
}

/** A file at a plain URL (Messenger and Instagram attachments, the sandbox): one GET. */
export class UrlMediaFetcher implements InboundMediaFetcher {
  constructor(private readonly o: { readonly allowPrivate?: boolean; readonly timeoutMs?: number } = {}) {}

  async fetch({ media, maxBytes }: InboundMediaRequest): Promise<FetchedMedia> {
    if (media.source.from !== 'url') throw new ValidationError('ERR_MEDIA_NOT_SUPPORTED');
    return downloadMedia(media.source.url, { maxBytes, allowPrivate: this.o.allowPrivate, timeoutMs: this.o.timeoutMs });
  }
}

/**
 * A Cloud API (bizchat) file: `GET /{media-id}` with the connection's token answers its URL (with
 * `mime_type` and `file_size`), valid for a few minutes, then that URL with the same bearer token
 * answers the bytes (Meta's "Retrieve media URL" and "Download media"). The Graph base URL is the
 * operator's (`META_GRAPH_URL`); the file's URL comes from an answer, so it is held to public
 * addresses unless `allowPrivate`.
 */
export class GraphMediaFetcher implements InboundMediaFetcher {
  constructor(private readonly o: { readonly baseUrl: string; readonly allowPrivate?: boolean; readonly timeoutMs?: number }) {}

  async fetch({ media, connection, maxBytes }: InboundMediaRequest): Promise<FetchedMedia> {
    if (media.source.from !== 'cloudapi') throw new ValidationError('ERR_MEDIA_NOT_SUPPORTED');
    const token = connection.secrets.accessToken;
    if (!token) throw new ValidationError('ERR_MEDIA_REFUSED');
    const authorization = { authorization: `Bearer ${token}` };
    let res: Response;
    try {
      res = await fetch(`${this.o.baseUrl}/${encodeURIComponent(media.source.mediaId)}`, {
        headers: authorization,
        signal: AbortSignal.timeout(this.o.timeoutMs ?? 15_000),
      });
    } catch {
      throw new ServiceUnavailableError('ERR_MEDIA_UNAVAILABLE');
    }
    if (!res.ok) {
      await res.body?.cancel().catch(() => undefined);
      // The Graph API answers an unknown or expired id with 400 (error code 100) as often as 404.
      throw res.status === 400 ? new NotFoundError('ERR_MEDIA_NOT_FOUND') : failureOf(res.status);
    }
    const body = (await res.json().catch(() => null)) as { url?: unknown; mime_type?: unknown; file_size?: unknown } | null;
    if (!body || typeof body.url !== 'string') throw new ServiceUnavailableError('ERR_MEDIA_UNAVAILABLE');
    const declared = Number(body.file_size);
    if (Number.isFinite(declared) && declared > maxBytes) throw new PayloadTooLargeError('ERR_MEDIA_TOO_LARGE');
    const file = await downloadMedia(body.url, { maxBytes, headers: authorization, allowPrivate: this.o.allowPrivate, timeoutMs: this.o.timeoutMs });
    return { data: file.data, contentType: typeof body.mime_type === 'string' ? body.mime_type : file.contentType };
  }
}
