import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { ServiceUnavailableError } from '@servicedesk/core';
import type { ChargeStatus } from '@servicedesk/core/billing/charge';
import type { GatewayCharge, PaymentGateway, PaymentNotice, PaymentNotification, PixChargeRequest } from '@servicedesk/core/billing/ports';
import { pinnedLookupFor } from './safe-fetch.js';

export interface MercadoPagoOptions {
  /** `BILLING_GATEWAY_URL`: `https://api.mercadopago.com`, or a fake in tests. */
  readonly baseUrl: string;
  /** `BILLING_ACCESS_TOKEN`: the account's access token, sent as a Bearer token. */
  readonly accessToken: string;
  /** `BILLING_WEBHOOK_SECRET`: the secret Mercado Pago signs notifications with (Your integrations → Webhooks); unset, none verifies. */
  readonly webhookSecret?: string;
  /** Let loopback and private addresses through (`ALLOW_PRIVATE_URLS=true`; tests). Off by default. */
  readonly allowPrivate?: boolean;
  readonly timeoutMs?: number;
}

/** A payment is a few kilobytes with its QR code image; anything much larger is not an answer of this API. */
const MAX_ANSWER_BYTES = 1024 * 1024;
const PAYMENT_ID = /^\d{1,20}$/;

const unavailable = () => new ServiceUnavailableError('ERR_PAYMENT_GATEWAY_UNAVAILABLE');
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Every payment status Mercado Pago documents, onto ours: `approved` is paid; `pending`, `authorized`
 * (not captured), `in_process` and `in_mediation` wait; `rejected` and `cancelled` end it (`expired`
 * when the Pix was not paid in time); `refunded` and `charged_back` give the money back. A status it
 * may add later waits, as pending, rather than settle anything.
 */
export function mercadoPagoStatus(status: string, detail?: string): ChargeStatus {
  switch (status) {
    case 'approved':
      return 'paid';
    case 'rejected':
      return 'cancelled';
    case 'cancelled':
      return detail === 'expired' ? 'expired' : 'cancelled';
    case 'refunded':
    case 'charged_back':
      return 'refunded';
    default:
      return 'pending';
  }
}

/**
 * What Mercado Pago signs (its "manifest"): `id:<data.id of the URL>;request-id:<x-request-id>;ts:<ts>;`,
 * an alphanumeric id in lower case, each part left out when its value is absent.
 */
export function mercadoPagoManifest(dataId: string | undefined, requestId: string | undefined, ts: string): string {
  const id = dataId && /^[a-z0-9]+$/i.test(dataId) ? dataId.toLowerCase() : dataId;
  return `${id ? `id:${id};` : ''}${requestId ? `request-id:${requestId};` : ''}ts:${ts};`;
}

/** Mercado Pago's wire format for instants: ISO 8601 with an explicit offset. */
const wireInstant = (at: Date) => at.toISOString().replace('Z', '+00:00');

/**
 * Mercado Pago (Checkout API, `/v1/payments` with `payment_method_id: pix`): Pix charges with their
 * "copia e cola" and QR code, read back by id, and webhooks signed with HMAC-SHA256 (`x-signature:
 * ts=…,v1=…` over the manifest of the URL's `data.id`, `x-request-id` and `ts`). As every outgoing
 * call: the host resolved once and every address public (unless allowed), the connection pinned to
 * it, no redirects, the answer capped, one deadline. 401/403 (and other 4xx) mean the gateway refused
 * the platform's request (`ERR_PAYMENT_GATEWAY_REFUSED`); no answer, a 429 or 5xx, or an answer that
 * is not a payment, that it is unavailable.
 */
export class MercadoPagoGateway implements PaymentGateway {
  readonly provider = 'mercadopago';

  constructor(private readonly o: MercadoPagoOptions) {}

  async createPixCharge(request: PixChargeRequest): Promise<GatewayCharge> {
    const [firstName, ...rest] = request.payer.name.trim().split(/\s+/);
    const document = request.payer.document?.replace(/\D/g, '') ?? '';
    const body = {
      transaction_amount: Number(request.amount),
      description: request.description,
      payment_method_id: 'pix',
      external_reference: request.reference,
      date_of_expiration: wireInstant(request.expiresAt),
      payer: {
        email: request.payer.email,
        first_name: firstName ?? '',
        ...(rest.length ? { last_name: rest.join(' ') } : {}),
        ...(document.length === 11 || document.length === 14 ? { identification: { type: document.length === 11 ? 'CPF' : 'CNPJ', number: document } } : {}),
      },
    };
    const { status, text } = await this.call('POST', '/v1/payments', { 'x-idempotency-key': request.idempotencyKey }, body);
    this.assertAnswered(status);
    const charge = readPayment(text);
    if (!charge.copyPaste || !charge.qrCodePng) throw unavailable();
    return charge;
  }

  async getCharge(id: string): Promise<GatewayCharge | null> {
    if (!PAYMENT_ID.test(id)) return null;
    const { status, text } = await this.call('GET', `/v1/payments/${id}`);
    if (status === 404) return null;
    this.assertAnswered(status);
    return readPayment(text);
  }

  verifyWebhook(n: PaymentNotification): boolean {
    const secret = this.o.webhookSecret;
    const header = n.headers['x-signature'];
    if (!secret || !header) return false;
    const parts = new Map<string, string>();
    for (const part of header.split(',')) {
      const [key, value] = part.split('=', 2).map((s) => s.trim());
      if (key && value) parts.set(key, value);
    }
    const ts = parts.get('ts');
    const v1 = parts.get('v1')?.toLowerCase();
    if (!ts || !v1 || !/^[0-9a-f]{64}$/.test(v1)) return false;
    const expected = createHmac('sha256', secret)
      .update(mercadoPagoManifest(n.query['data.id'], n.headers['x-request-id'], ts))
      .digest('hex');
    return timingSafeEqual(Buffer.from(expected), Buffer.from(v1));
  }

  /**
   * A `payment` notification (the topic in the URL's `type`, or the body's) about the payment in the
   * URL's `data.id` — the id the signature covers. Its event id is the notification's own `id` (the
   * same on every retry), else the request id. The status is not in the notification: it is read.
   */
  parseEvent(n: PaymentNotification): PaymentNotice | null {
    let body: Record<string, unknown> = {};
    try {
      const parsed: unknown = JSON.parse(n.rawBody.toString('utf8'));
      if (isRecord(parsed)) body = parsed;
    } catch {
      /* the URL alone says what it is about */
    }
    const topic = n.query.type ?? n.query.topic ?? body.type;
    const chargeId = n.query['data.id'];
    if (topic !== 'payment' || !chargeId || !PAYMENT_ID.test(chargeId)) return null;
    const own = typeof body.id === 'number' || typeof body.id === 'string' ? String(body.id) : '';
    const requestId = n.headers['x-request-id'] ?? '';
    const eventId = /^[\w.:-]{1,100}$/.test(own) ? own : /^[\w.:-]{1,100}$/.test(requestId) ? `request:${requestId}` : null;
    return eventId ? { eventId, chargeId, status: null } : null;
  }

  async checkAccess(): Promise<void> {
    this.assertAnswered((await this.call('GET', '/users/me')).status);
  }

  private assertAnswered(status: number) {
    if (status === 429 || status >= 500) throw unavailable();
    if (status < 200 || status >= 300) throw new ServiceUnavailableError('ERR_PAYMENT_GATEWAY_REFUSED');
  }

  private async call(method: 'GET' | 'POST', path: string, extra: Record<string, string> = {}, body?: unknown) {
    let url: URL;
    try {
      url = new URL(`${this.o.baseUrl.replace(/\/+$/, '')}${path}`);
    } catch {
      throw unavailable();
    }
    const lookup = await pinnedLookupFor(url, this.o.allowPrivate ?? false);
    if (!lookup) throw unavailable();
    const payload = body === undefined ? null : Buffer.from(JSON.stringify(body));
    const headers: Record<string, string> = {
      accept: 'application/json',
      authorization: `Bearer ${this.o.accessToken}`,
      'user-agent': 'servicedesk-billing/1',
      ...extra,
      ...(payload ? { 'content-type': 'application/json', 'content-length': String(payload.length) } : {}),
    };
    return this.exchange(url, method, headers, payload, lookup);
  }

  private exchange(url: URL, method: string, headers: Record<string, string>, payload: Buffer | null, lookup: LookupFunction) {
    const client = url.protocol === 'https:' ? https : http;
    return new Promise<{ status: number; text: string }>((resolve, reject) => {
      let done = false;
      const finish = (outcome: () => void) => {
        if (!done) {
          done = true;
          clearTimeout(timer);
          outcome();
        }
      };
      const req = client.request(url, { method, headers, lookup }, (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size <= MAX_ANSWER_BYTES) chunks.push(chunk);
          else {
            res.destroy();
            finish(() => reject(unavailable()));
          }
        });
        res.on('end', () => finish(() => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') })));
        res.on('error', () => finish(() => reject(unavailable())));
      });
      const timer = setTimeout(() => {
        finish(() => reject(unavailable()));
        req.destroy();
      }, this.o.timeoutMs ?? 15_000);
      req.on('error', () => finish(() => reject(unavailable())));
      req.end(payload ?? undefined);
    });
  }
}

const date = (v: unknown): Date | null => {
  if (typeof v !== 'string') return null;
  const d = new Date(v);
  return Number.isNaN(d.getTime()) ? null : d;
};

/** A payment as `/v1/payments` answers it; anything without an id, a status and an amount is not one. */
function readPayment(text: string): GatewayCharge {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw unavailable();
  }
  if (!isRecord(parsed)) throw unavailable();
  const { id, status, status_detail: detail, transaction_amount: amount } = parsed;
  if ((typeof id !== 'number' && typeof id !== 'string') || !PAYMENT_ID.test(String(id)) || typeof status !== 'string') throw unavailable();
  if (typeof amount !== 'number' || !Number.isFinite(amount) || amount < 0) throw unavailable();
  const data =
    isRecord(parsed.point_of_interaction) && isRecord(parsed.point_of_interaction.transaction_data) ? parsed.point_of_interaction.transaction_data : {};
  return {
    id: String(id),
    status: mercadoPagoStatus(status, typeof detail === 'string' ? detail : undefined),
    amount: amount.toFixed(2),
    expiresAt: date(parsed.date_of_expiration) ?? new Date(0),
    paidAt: date(parsed.date_approved),
    copyPaste: typeof data.qr_code === 'string' ? data.qr_code : '',
    qrCodePng: typeof data.qr_code_base64 === 'string' ? data.qr_code_base64 : '',
  };
}
