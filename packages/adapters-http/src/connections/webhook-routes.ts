import { createHmac } from 'node:crypto';
import { UnauthorizedError, type Application, type ProviderEvent } from '@servicedesk/core';
import { z } from 'zod';
import { sameSecret, bearerToken } from '../http/auth-middleware.js';
import { HttpError } from '../http/error-middleware.js';
import { route } from '../http/route.js';
import { webhookChallengeSchema, webhookReceiptSchema } from './connection-schemas.js';

export interface WebhookSecrets {
  /** Token Meta echoes in `hub.verify_token` when the webhook is registered. */
  readonly metaVerifyToken?: string;
  /** App secret that signs every delivery (`X-Hub-Signature-256`). */
  readonly metaAppSecret?: string;
  /** Shared secret of an external chat-application microservice. */
  readonly microserviceSecret?: string;
}

const META_BODY_LIMIT = 1024 * 1024;

interface MetaMessaging {
  sender?: { id?: string };
  timestamp?: number;
  message?: { mid?: string; text?: string; is_echo?: boolean; attachments?: Array<{ type?: string }> };
  delivery?: { mids?: string[] };
}

/** Meta's batched deliveries (`object` page or instagram) as provider events, per page or account id. */
export function parseMetaDelivery(payload: unknown): Array<{ externalId: string; events: ProviderEvent[] }> {
  const p = payload as { object?: string; entry?: Array<{ id?: string; messaging?: MetaMessaging[] }> };
  if ((p.object !== 'page' && p.object !== 'instagram') || !Array.isArray(p.entry)) return [];
  return p.entry.filter((e) => typeof e.id === 'string').map((entry) => {
    const events: ProviderEvent[] = [];
    for (const m of Array.isArray(entry.messaging) ? entry.messaging : []) {
      const at = typeof m.timestamp === 'number' ? new Date(m.timestamp).toISOString() : undefined;
      if (m.message?.mid && m.sender?.id && !m.message.is_echo) {
        const body = m.message.text ?? (m.message.attachments?.length ? `[${m.message.attachments[0]?.type ?? 'attachment'}]` : '');
        events.push({ type: 'InboundMessage', providerMessageId: m.message.mid, from: m.sender.id, senderName: m.sender.id, body, isGroup: false, ...(at ? { at } : {}) });
      }
      for (const mid of m.delivery?.mids ?? []) events.push({ type: 'MessageStatusChanged', providerMessageId: mid, status: 'delivered', ...(at ? { at } : {}) });
    }
    return { externalId: entry.id!, events };
  });
}

const microserviceEvent = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('InboundMessage'), providerMessageId: z.string().min(1).max(200), from: z.string().min(1).max(100),
    senderName: z.string().max(200).default(''), body: z.string().max(65_536), isGroup: z.boolean().default(false), at: z.string().datetime().optional(),
  }),
  z.object({
    type: z.literal('MessageStatusChanged'), providerMessageId: z.string().min(1).max(200),
    status: z.enum(['sent', 'delivered', 'read', 'played', 'failed']), at: z.string().datetime().optional(),
  }),
  z.object({
    type: z.literal('SessionStatusChanged'), status: z.enum(['OPENING', 'qrcode', 'CONNECTED', 'DISCONNECTED', 'PENDING']),
    qrcode: z.string().max(10_000).nullable().default(null), at: z.string().datetime().optional(),
  }),
]);

/** Inbound webhooks: Meta's social-network deliveries and an external chat-application microservice. */
export function webhookRoutes(app: Pick<Application, 'connections'>, secrets: WebhookSecrets) {
  const tag = 'Subscriptions, invoices, webhooks';
  const verify = route({
    method: 'GET', path: '/webhook/', auth: 'none', tag, summary: "Meta's webhook verification (hub.challenge)",
    query: z.object({ 'hub.mode': z.string().max(50).optional(), 'hub.verify_token': z.string().max(500).optional(), 'hub.challenge': z.string().max(500).optional() }),
    description: 'Meta calls this once when the webhook is registered, with `hub.mode=subscribe`, the configured verify token and a `hub.challenge`; '
      + 'the answer is that challenge, as is, in a `text/plain` body (not JSON). Any other call is refused with 403. Also mounted at `/`.',
    response: webhookChallengeSchema,
    responseMediaType: 'text/plain',
    errors: [{ status: 403, codes: ['ERR_WEBHOOK_VERIFICATION_FAILED'], description: 'Not a subscription, no verify token configured, or the token does not match' }],
    handler: async ({ query, ctx }) => {
      const ok = query['hub.mode'] === 'subscribe' && secrets.metaVerifyToken && query['hub.verify_token'] !== undefined
        && sameSecret(query['hub.verify_token'], secrets.metaVerifyToken) && query['hub.challenge'] !== undefined;
      if (!ok) throw new HttpError(403, 'ERR_WEBHOOK_VERIFICATION_FAILED');
      ctx.type = 'text/plain';
      return query['hub.challenge']!;
    },
  });
  const receive = route({
    method: 'POST', path: '/webhook/', auth: 'none', tag, summary: "Meta's signed deliveries for pages and Instagram accounts", raw: META_BODY_LIMIT,
    description: 'Meta\'s batched `page` or `instagram` deliveries, signed with the app secret in `X-Hub-Signature-256` (`sha256=<hex HMAC of the raw body>`). '
      + 'Incoming messages and delivery receipts of known pages become events applied asynchronously (idempotent on redelivery); other objects '
      + 'and unknown pages are acknowledged and skipped, so Meta does not retry. Also mounted at `/`.',
    response: webhookReceiptSchema,
    errors: [
      { status: 401, codes: ['ERR_INVALID_SIGNATURE'], description: 'Missing or wrong `X-Hub-Signature-256` (or no app secret configured)' },
      { status: 400, codes: ['ERR_INVALID_JSON'] },
    ],
    handler: async ({ raw, ctx }) => {
      const signature = ctx.get('x-hub-signature-256');
      const expected = secrets.metaAppSecret ? `sha256=${createHmac('sha256', secrets.metaAppSecret).update(raw).digest('hex')}` : null;
      if (!expected || !signature || !sameSecret(signature, expected)) throw new UnauthorizedError('ERR_INVALID_SIGNATURE');
      let payload: unknown;
      try { payload = JSON.parse(raw.toString('utf8')); } catch { throw new HttpError(400, 'ERR_INVALID_JSON'); }
      let accepted = 0;
      for (const { externalId, events } of parseMetaDelivery(payload)) accepted += await app.connections.acceptProviderEvents.execute({ externalId }, events);
      return { received: true as const, accepted };
    },
  });
  return [
    verify,
    { ...verify, path: '/' },
    receive,
    { ...receive, path: '/' },
    route({
      method: 'POST', path: '/api/chatapp-microservice/webhook', auth: 'none', tag: 'Chat application, social network and sessions (connections)',
      summary: 'Events of an external chat-application microservice (shared secret)',
      guard: (ctx) => {
        const given = ctx.get('x-webhook-secret') || bearerToken(ctx);
        if (!secrets.microserviceSecret || !given || !sameSecret(given, secrets.microserviceSecret)) throw new UnauthorizedError('ERR_INVALID_WEBHOOK_SECRET');
      },
      body: z.object({ chatappId: z.number().int().positive(), events: z.array(microserviceEvent).min(1).max(500) }),
      description: 'An external chat-application connector pushes its events (inbound messages, delivery status, session status) for connection '
        + '`chatappId`, authenticated by the shared secret in `X-Webhook-Secret` (or `Authorization: Bearer`). They are applied asynchronously; '
        + 'a redelivered event changes nothing.',
      response: webhookReceiptSchema,
      errors: [
        { status: 401, codes: ['ERR_INVALID_WEBHOOK_SECRET'] },
        { status: 404, codes: ['ERR_NO_CHATAPP_FOUND'], description: 'No connection with that id' },
      ],
      handler: async ({ body }) => {
        const accepted = await app.connections.acceptProviderEvents.execute({ id: body.chatappId }, body.events as ProviderEvent[]);
        if (accepted === 0) throw new HttpError(404, 'ERR_NO_CHATAPP_FOUND');
        return { received: true as const, accepted };
      },
    }),
  ];
}
