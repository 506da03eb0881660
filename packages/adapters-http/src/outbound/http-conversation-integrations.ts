import { createHmac } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import { ServiceUnavailableError, ValidationError, type ConversationIntegrations, type IntegrationRequest } from '@servicedesk/core';
import { pinnedLookupFor } from './safe-fetch.js';

export interface HttpConversationIntegrationsOptions {
  /** Let loopback and private addresses through (tests, trusted intranets): `ALLOW_PRIVATE_URLS=true`. Off by default. */
  readonly allowPrivate?: boolean;
  readonly timeoutMs?: number;
}

/** The signature header: `sha256=<hex HMAC-SHA256 of the raw body with the integration's secret>`. */
export const SIGNATURE_HEADER = 'x-servicedesk-signature-256';
const MAX_ANSWER_BYTES = 64 * 1024;

/** `sha256=` and the hex HMAC of `body` under `secret`, as receivers recompute it. */
export function signBody(secret: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

/**
 * Queue integrations over HTTP: one JSON POST per delivery, with the event name, the delivery id
 * (the same on retries), a bearer token and an HMAC signature when set. As `safeFetch`, the host is
 * resolved once, every address must be public (unless allowed), and the connection goes to the
 * checked address; redirects are not followed (their status is the answer).
 */
export class HttpConversationIntegrations implements ConversationIntegrations {
  constructor(private readonly o: HttpConversationIntegrationsOptions = {}) {}

  async post(r: IntegrationRequest): Promise<{ status: number }> {
    let url: URL;
    try {
      url = new URL(r.url);
    } catch {
      throw new ValidationError('ERR_INVALID_INTEGRATION_URL');
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ValidationError('ERR_INVALID_INTEGRATION_URL');
    const pinnedLookup = await pinnedLookupFor(url, this.o.allowPrivate ?? false);
    if (!pinnedLookup) throw new ServiceUnavailableError('ERR_INTEGRATION_UNREACHABLE');
    const body = JSON.stringify(r.payload ?? null);
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(body)),
      'user-agent': 'servicedesk-integrations/1',
      'x-servicedesk-event': r.event,
      'x-servicedesk-delivery': r.deliveryId,
      ...(r.token ? { authorization: `Bearer ${r.token}` } : {}),
      ...(r.secret ? { [SIGNATURE_HEADER]: signBody(r.secret, body) } : {}),
    };
    const client = url.protocol === 'https:' ? https : http;
    return new Promise((resolve, reject) => {
      const unreachable = () => reject(new ServiceUnavailableError('ERR_INTEGRATION_UNREACHABLE'));
      const req = client.request(url, { method: 'POST', headers, lookup: pinnedLookup, timeout: this.o.timeoutMs ?? 10_000 }, (res) => {
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_ANSWER_BYTES) res.destroy();
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0 }));
        res.on('close', () => resolve({ status: res.statusCode ?? 0 }));
        res.on('error', () => resolve({ status: res.statusCode ?? 0 }));
      });
      req.on('timeout', () => {
        req.destroy();
        unreachable();
      });
      req.on('error', unreachable);
      req.end(body);
    });
  }
}
