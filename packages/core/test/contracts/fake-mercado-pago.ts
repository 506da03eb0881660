import { createHmac, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request the fake received. */
export interface FakeMercadoPagoRequest {
  readonly method: string;
  readonly path: string;
  readonly authorization: string | null;
  readonly idempotencyKey: string | null;
  readonly body: Record<string, any> | null;
}

/** A payment as Mercado Pago's `/v1/payments` answers it (the fields the platform reads, and a few more). */
export interface FakePayment {
  id: number;
  status: string;
  status_detail: string;
  transaction_amount: number;
  description: string;
  payment_method_id: 'pix';
  external_reference: string | null;
  date_created: string;
  date_of_expiration: string | null;
  date_approved: string | null;
  payer: Record<string, unknown>;
  point_of_interaction: { type: 'PIX'; transaction_data: { qr_code: string; qr_code_base64: string; ticket_url: string } };
}

/** `ok` answers as documented; `server-error` 500s, `slow` never answers. */
export type FakeMercadoPagoMode = 'ok' | 'server-error' | 'slow';

export interface FakeMercadoPago {
  /** What `BILLING_GATEWAY_URL` is set to (`http://127.0.0.1:<port>`). */
  readonly baseUrl: string;
  readonly requests: FakeMercadoPagoRequest[];
  readonly payments: Map<number, FakePayment>;
  /** Access tokens it accepts as `Authorization: Bearer …`. */
  readonly tokens: Set<string>;
  mode: FakeMercadoPagoMode;
  /** The payer paid: `approved`, with `date_approved`. */
  approve(id: number, at?: Date): void;
  /** Any other move (`cancelled`/`expired`, `refunded`…). */
  setStatus(id: number, status: string, detail?: string): void;
  close(): Promise<void>;
}

const json = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
};

/**
 * Mercado Pago's payments API on loopback, in its documented formats: `POST /v1/payments` (Pix; a
 * repeated `X-Idempotency-Key` answers the payment it created), `GET /v1/payments/:id`, `GET /users/me`,
 * all behind the Bearer access token (401 otherwise).
 */
export async function startFakeMercadoPago(options: { tokens?: readonly string[] } = {}): Promise<FakeMercadoPago> {
  const open = new Set<ServerResponse>();
  const byKey = new Map<string, number>();
  let nextId = 1_000_000_001;
  const state: FakeMercadoPago = {
    baseUrl: '',
    requests: [],
    payments: new Map(),
    tokens: new Set(options.tokens ?? []),
    mode: 'ok',
    approve(id, at = new Date()) {
      const p = state.payments.get(id);
      if (p) Object.assign(p, { status: 'approved', status_detail: 'accredited', date_approved: at.toISOString() });
    },
    setStatus(id, status, detail = status) {
      const p = state.payments.get(id);
      if (p) Object.assign(p, { status, status_detail: detail });
    },
    close: async () => {
      for (const res of open) res.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    open.add(res);
    res.on('close', () => open.delete(res));
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      let body: Record<string, any> | null = null;
      try {
        body = chunks.length ? (JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, any>) : null;
      } catch {
        /* recorded as null */
      }
      const header = (name: string) => (typeof req.headers[name] === 'string' ? (req.headers[name] as string) : null);
      const request: FakeMercadoPagoRequest = {
        method: req.method ?? '',
        path: req.url ?? '',
        authorization: header('authorization'),
        idempotencyKey: header('x-idempotency-key'),
        body,
      };
      state.requests.push(request);
      if (state.mode === 'slow') return undefined;
      if (state.mode === 'server-error') return json(res, 500, { message: 'internal_error', error: 'internal_error', status: 500, cause: [] });
      if (!state.tokens.has((request.authorization ?? '').replace(/^Bearer /, ''))) {
        return json(res, 401, { message: 'invalid access token', error: 'unauthorized', status: 401, cause: [] });
      }
      if (req.method === 'GET' && req.url === '/users/me') return json(res, 200, { id: 123456789, nickname: 'PLATAFORMA', site_id: 'MLB' });
      const one = /^\/v1\/payments\/(\d+)$/.exec(req.url ?? '');
      if (req.method === 'GET' && one) {
        const payment = state.payments.get(Number(one[1]));
        return payment ? json(res, 200, payment) : json(res, 404, { message: 'Payment not found', error: 'not_found', status: 404, cause: [] });
      }
      if (req.method === 'POST' && req.url === '/v1/payments') {
        if (!request.idempotencyKey) return json(res, 400, { message: "header X-Idempotency-Key can't be null", error: 'bad_request', status: 400, cause: [] });
        const known = byKey.get(request.idempotencyKey);
        if (known) return json(res, 201, state.payments.get(known));
        const b = body ?? {};
        if (b.payment_method_id !== 'pix' || typeof b.transaction_amount !== 'number' || b.transaction_amount <= 0 || typeof b.payer?.email !== 'string') {
          return json(res, 400, { message: 'invalid parameters', error: 'bad_request', status: 400, cause: [{ code: 2067, description: 'invalid payment' }] });
        }
        const id = nextId++;
        const payment: FakePayment = {
          id,
          status: 'pending',
          status_detail: 'pending_waiting_transfer',
          transaction_amount: b.transaction_amount,
          description: String(b.description ?? ''),
          payment_method_id: 'pix',
          external_reference: typeof b.external_reference === 'string' ? b.external_reference : null,
          date_created: new Date().toISOString(),
          date_of_expiration: typeof b.date_of_expiration === 'string' ? b.date_of_expiration : null,
          date_approved: null,
          payer: b.payer as Record<string, unknown>,
          point_of_interaction: {
            type: 'PIX',
            transaction_data: {
              qr_code: `00020126580014br.gov.bcb.pix0136${randomUUID()}520400005303986540${b.transaction_amount.toFixed(2)}5802BR6304${id % 10_000}`,
              qr_code_base64: Buffer.from(`PNG of payment ${id}`).toString('base64'),
              ticket_url: `https://www.mercadopago.com.br/payments/${id}/ticket`,
            },
          },
        };
        state.payments.set(id, payment);
        byKey.set(request.idempotencyKey, id);
        return json(res, 201, payment);
      }
      return json(res, 404, { message: 'resource not found', error: 'not_found', status: 404, cause: [] });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  Object.assign(state, { baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
  return state;
}

/** A notification Mercado Pago posts to the webhook URL: query, headers and body. */
export interface FakeNotification {
  /** `?data.id=<payment>&type=payment`, to append to the webhook URL. */
  readonly query: string;
  readonly headers: Record<string, string>;
  readonly body: string;
}

/**
 * A `payment` webhook about payment `paymentId`, signed as Mercado Pago documents: `x-signature:
 * ts=<ts>,v1=<hex HMAC-SHA256 with the secret of id:<data.id>;request-id:<x-request-id>;ts:<ts>;>`.
 * `notificationId` is the body's `id` (the same on every retry of one notification).
 */
export function mercadoPagoNotification(
  secret: string,
  paymentId: number | string,
  o: { notificationId?: number; requestId?: string; ts?: string } = {},
): FakeNotification {
  const requestId = o.requestId ?? randomUUID();
  const ts = o.ts ?? String(Date.now());
  const v1 = createHmac('sha256', secret).update(`id:${paymentId};request-id:${requestId};ts:${ts};`).digest('hex');
  return {
    query: `?data.id=${paymentId}&type=payment`,
    headers: { 'content-type': 'application/json', 'x-signature': `ts=${ts},v1=${v1}`, 'x-request-id': requestId },
    body: JSON.stringify({
      id: o.notificationId ?? 120_000_000 + Math.floor(Math.random() * 1_000_000),
      live_mode: true,
      type: 'payment',
      date_created: new Date().toISOString(),
      user_id: 123456789,
      api_version: 'v1',
      action: 'payment.updated',
      data: { id: String(paymentId) },
    }),
  };
}
