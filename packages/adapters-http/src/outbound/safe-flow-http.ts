import http from 'node:http';
import https from 'node:https';
import { DomainError } from '@servicedesk/core';
import type { FlowHttpRequest } from '@servicedesk/core/flows/flow-run';
import type { FlowHttp } from '@servicedesk/core/flows/flow-runs';
import { pinnedLookupFor } from './safe-fetch.js';

/** The most of an answer read (and parsed) for a flow's variables. */
const MAX_ANSWER_BYTES = 1024 * 1024;

/**
 * HTTP nodes' calls with the product's SSRF rules: the host resolved once, every address public
 * (unless `allowPrivate`, ALLOW_PRIVATE_URLS), the connection made to the checked address, no
 * redirects followed, at most 1 MiB read, the node's timeout. A JSON answer is parsed, anything else
 * kept as text; a refused address, a timeout or no answer is `{ error }` (the node's error handle).
 */
export class SafeFlowHttp implements FlowHttp {
  constructor(private readonly o: { readonly allowPrivate?: boolean } = {}) {}

  async call(r: FlowHttpRequest): Promise<{ status: number; body: unknown } | { error: string }> {
    let url: URL;
    try {
      url = new URL(r.url);
    } catch {
      return { error: 'ERR_URL_NOT_ALLOWED' };
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return { error: 'ERR_URL_NOT_ALLOWED' };
    let lookup: Awaited<ReturnType<typeof pinnedLookupFor>>;
    try {
      lookup = await pinnedLookupFor(url, this.o.allowPrivate ?? false);
    } catch (err) {
      return { error: err instanceof DomainError ? err.code : 'unreachable' };
    }
    if (!lookup) return { error: 'unreachable' };
    const headers: Record<string, string> = { 'user-agent': 'servicedesk-flows/1', accept: 'application/json, text/plain;q=0.9, */*;q=0.1' };
    for (const h of r.headers) if (h.name.trim()) headers[h.name.trim().toLowerCase()] = h.value;
    if (r.body !== null) {
      headers['content-type'] ??= 'application/json';
      headers['content-length'] = String(Buffer.byteLength(r.body));
    }
    const client = url.protocol === 'https:' ? https : http;
    return new Promise((resolve) => {
      const req = client.request(url, { method: r.method, headers, lookup, timeout: r.timeoutMs }, (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_ANSWER_BYTES) {
            res.destroy();
            return;
          }
          chunks.push(chunk);
        });
        const done = () => resolve({ status: res.statusCode ?? 0, body: parse(Buffer.concat(chunks).toString('utf8')) });
        res.on('end', done);
        res.on('close', done);
      });
      req.on('timeout', () => {
        req.destroy();
        resolve({ error: 'timeout' });
      });
      req.on('error', () => resolve({ error: 'unreachable' }));
      req.end(r.body ?? undefined);
    });
  }
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
