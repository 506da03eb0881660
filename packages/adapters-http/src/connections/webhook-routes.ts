import { createHmac } from 'node:crypto';
import { UnauthorizedError, type Application, type ProviderEvent } from '@servicedesk/core';
import { z } from 'zod';
import { sameSecret, bearerToken } from '../http/auth-middleware.js';
import { parseJsonText } from '../http/body.js';
import { HttpError } from '../http/error-middleware.js';
import { route } from '../http/route.js';
import { webhookChallengeSchema, webhookReceiptSchema } from './connection-schemas.js';
import { parseBizchatDelivery } from '../bizchat/bizchat-webhook.js';
import { messengerMediaOf } from './inbound-media-mapping.js';
import { cleanLocation, SHARED_LIMITS, sharedSummary } from '@servicedesk/core/connections/shared-content';

export interface WebhookSecrets {
  /** Token Meta echoes in `hub.verify_token` when the webhook is registered. */
  readonly metaVerifyToken?: string;
  /** App secret that signs every delivery (`X-Hub-Signature-256`). */
  readonly metaAppSecret?: string;
  /** Shared secret of an external chat-application microservice. */
  readonly microserviceSecret?: string;
}

const META_BODY_LIMIT = 1024 * 1024;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (v: unknown): string | undefined => (typeof v === 'string' && v.length > 0 ? v : undefined);

/** A `location` attachment's place, when its payload carries coordinates (`payload.coordinates.lat`/`long`), named by its title. */
function attachedLocation(attachments: readonly unknown[]) {
  for (const a of attachments) {
    if (!isRecord(a) || a.type !== 'location' || !isRecord(a.payload) || !isRecord(a.payload.coordinates)) continue;
    const { lat, long } = a.payload.coordinates;
    const location = cleanLocation({ latitude: lat, longitude: long, name: a.title, url: a.url });
    if (location) return location;
  }
  return undefined;
}

/**
 * Meta's batched deliveries (`object` page or instagram) as provider events, per page or account id.
 * The payload is whatever was signed: anything not shaped as documented (a `null` body, entries that
 * are not objects, ids that are not strings) is skipped, never trusted.
 */
export function parseMetaDelivery(payload: unknown): Array<{ externalId: string; events: ProviderEvent[] }> {
  if (!isRecord(payload) || (payload.object !== 'page' && payload.object !== 'instagram') || !Array.isArray(payload.entry)) return [];
  const deliveries: Array<{ externalId: string; events: ProviderEvent[] }> = [];
  for (const entry of payload.entry) {
    const externalId = isRecord(entry) ? text(entry.id) : undefined;
    if (!isRecord(entry) || !externalId) continue;
    const events: ProviderEvent[] = [];
    for (const m of Array.isArray(entry.messaging) ? entry.messaging : []) {
      if (!isRecord(m)) continue;
      const time = typeof m.timestamp === 'number' ? new Date(m.timestamp) : null;
      const at = time && !Number.isNaN(time.getTime()) ? time.toISOString() : undefined;
      const message = isRecord(m.message) ? m.message : null;
      const mid = text(message?.mid);
      const from = isRecord(m.sender) ? text(m.sender.id) : undefined;
      if (message && mid && from && message.is_echo !== true) {
        const attachments = Array.isArray(message.attachments) ? message.attachments : [];
        const firstType = isRecord(attachments[0]) ? text(attachments[0].type) : undefined;
        const location = typeof message.text === 'string' ? undefined : attachedLocation(attachments);
        // Files (image, audio, video, file): the first goes with the message's text, each further one is a message of its own (`<mid>#2`…).
        const files = location ? [] : messengerMediaOf(attachments);
        const body =
          typeof message.text === 'string'
            ? message.text
            : location
              ? sharedSummary({ location })
              : files.length
                ? ''
                : attachments.length
                  ? `[${firstType ?? 'attachment'}]`
                  : '';
        events.push({
          type: 'InboundMessage',
          providerMessageId: mid,
          from,
          senderName: from,
          body,
          isGroup: false,
          ...(at ? { at } : {}),
          ...(location ? { location } : {}),
          ...(files[0] ? { media: files[0] } : {}),
        });
        files.slice(1).forEach((media, i) => {
          events.push({
            type: 'InboundMessage',
            providerMessageId: `${mid}#${i + 2}`,
            from,
            senderName: from,
            body: '',
            isGroup: false,
            ...(at ? { at } : {}),
            media,
          });
        });
      }
      const mids = isRecord(m.delivery) && Array.isArray(m.delivery.mids) ? m.delivery.mids : [];
      for (const deliveredMid of mids) {
        if (text(deliveredMid))
          events.push({ type: 'MessageStatusChanged', providerMessageId: deliveredMid as string, status: 'delivered', ...(at ? { at } : {}) });
      }
    }
    deliveries.push({ externalId, events });
  }
  return deliveries;
}

const eventAt = z
  .string()
  .datetime()
  .optional()
  .meta({ description: 'When it happened at the provider (ISO 8601, UTC); absent: when it is received', example: '2025-03-10T14:05:00.000Z' });
const microserviceEvent = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('InboundMessage').meta({ description: 'A message a contact sent' }),
    providerMessageId: z.string().min(1).max(200).meta({
      description: "The provider's id of the message, unique per connection: the same id again is a redelivery and changes nothing",
      example: '3EB0C767D26A1D8B4F2A',
    }),
    from: z.string().min(1).max(100).meta({ description: "The sender: their number's digits, with the country code", example: '5511988887777' }),
    senderName: z
      .string()
      .max(200)
      .default('')
      .meta({ description: "The sender's display name, the name a new contact gets; empty (the default): `from`", example: 'Carla Dias' }),
    body: z.string().max(65_536).meta({ description: "The message's text", example: 'Hi, is my order on its way?' }),
    isGroup: z.boolean().default(false).meta({ description: 'Whether it came in a group chat (groups get no greeting); default false' }),
    at: eventAt,
    location: z
      .object({
        latitude: z.number().min(-90).max(90).meta({ description: 'Decimal degrees', example: -23.5614 }),
        longitude: z.number().min(-180).max(180).meta({ description: 'Decimal degrees', example: -46.6559 }),
        name: z.string().max(SHARED_LIMITS.text).optional().meta({ description: "The place's name", example: 'Paulista Avenue' }),
        address: z.string().max(SHARED_LIMITS.text).optional().meta({ description: "The place's address", example: 'Av. Paulista, 1578, São Paulo' }),
        url: z
          .string()
          .max(SHARED_LIMITS.url)
          // Spelled out, not with the `i` flag: a JSON Schema pattern carries no flags.
          .regex(/^[hH][tT][tT][pP][sS]?:\/\//)
          .optional()
          .meta({ description: 'A page about the place (http or https)', example: 'https://example.com/place' }),
      })
      .optional()
      .meta({ description: 'A place the contact shared: stored as a `locationMessage` (`body` is then replaced by the place in the lineage shape)' }),
    contacts: z
      .array(
        z.object({
          name: z.string().min(1).max(SHARED_LIMITS.text).meta({ description: 'The name the card shows', example: 'Ana Souza' }),
          numbers: z
            .array(z.string().max(60).regex(/\d/))
            .max(SHARED_LIMITS.numbers)
            .default([])
            .meta({ description: 'Its phone numbers, any punctuation (digits are kept)', example: ['+55 11 98888-7777'] }),
          vcard: z.string().max(SHARED_LIMITS.vcard).optional().meta({ description: 'The card as a vCard, when the channel gives one' }),
        }),
      )
      .min(1)
      .max(SHARED_LIMITS.contacts)
      .optional()
      .meta({ description: 'Contact cards the contact shared: stored as a `contactMessage` (`body` is then replaced by their vCards)' }),
  }),
  z.object({
    type: z.literal('MessageStatusChanged').meta({ description: 'A sent message reached a further delivery status' }),
    providerMessageId: z
      .string()
      .min(1)
      .max(200)
      .meta({ description: "The provider's id of the sent message, as the connector reported it when sending", example: '3EB0A1B2C3D4E5F6A7B8' }),
    status: z
      .enum(['sent', 'delivered', 'read', 'played', 'failed'])
      .meta({ description: 'The status reached; a status only moves forward (an earlier one arriving late changes nothing)' }),
    at: eventAt,
  }),
  z.object({
    type: z.literal('SessionStatusChanged').meta({ description: "The connection's session changed state" }),
    status: z
      .enum(['OPENING', 'qrcode', 'CONNECTED', 'DISCONNECTED', 'PENDING'])
      .meta({ description: '`OPENING` while starting, `qrcode` waiting for the phone to scan `qrcode`, then `CONNECTED` or `DISCONNECTED`' }),
    qrcode: z
      .string()
      .max(10_000)
      .nullable()
      .default(null)
      .meta({ description: 'The pairing QR code while `status` is `qrcode`; null (the default) otherwise' }),
    at: eventAt,
  }),
]);

/** Inbound webhooks: Meta's social-network deliveries and an external chat-application microservice. */
export function webhookRoutes(app: Pick<Application, 'connections' | 'bizchat'>, secrets: WebhookSecrets) {
  const tag = 'Subscriptions, invoices, webhooks';
  const verify = route({
    method: 'GET',
    path: '/webhook/',
    auth: 'none',
    tag,
    summary: "Meta's webhook verification (hub.challenge)",
    query: z.object({
      'hub.mode': z.string().max(50).optional().meta({ description: 'Meta sends `subscribe`; anything else is 403', example: 'subscribe' }),
      'hub.verify_token': z
        .string()
        .max(500)
        .optional()
        .meta({ description: "The verify token entered in Meta's app dashboard; it must equal the configured one", example: 'my-verify-token' }),
      'hub.challenge': z.string().max(500).optional().meta({ description: 'A value Meta picks, answered back as is', example: '1158201444' }),
    }),
    description:
      'Meta calls this once when the webhook is registered, with `hub.mode=subscribe`, the configured verify token and a `hub.challenge`; ' +
      'the answer is that challenge, as is, in a `text/plain` body (not JSON). Any other call is refused with 403. Also mounted at `/`.',
    response: webhookChallengeSchema,
    responseMediaType: 'text/plain',
    errors: [
      { status: 403, codes: ['ERR_WEBHOOK_VERIFICATION_FAILED'], description: 'Not a subscription, no verify token configured, or the token does not match' },
    ],
    handler: async ({ query, ctx }) => {
      const ok =
        query['hub.mode'] === 'subscribe' &&
        secrets.metaVerifyToken &&
        query['hub.verify_token'] !== undefined &&
        sameSecret(query['hub.verify_token'], secrets.metaVerifyToken) &&
        query['hub.challenge'] !== undefined;
      if (!ok) throw new HttpError(403, 'ERR_WEBHOOK_VERIFICATION_FAILED');
      ctx.type = 'text/plain';
      return query['hub.challenge']!;
    },
  });
  const receive = route({
    method: 'POST',
    path: '/webhook/',
    auth: 'none',
    tag,
    summary: "Meta's signed deliveries for pages, Instagram accounts and bizchat numbers",
    raw: META_BODY_LIMIT,
    description:
      "Meta's batched `page`, `instagram` or `whatsapp_business_account` (bizchat: messages, statuses, template status updates) deliveries, signed with the app secret in `X-Hub-Signature-256` (`sha256=<hex HMAC of the raw body>`). " +
      'Incoming messages and delivery receipts of known pages are recorded before the answer and applied asynchronously (idempotent on redelivery); other objects ' +
      'and unknown pages are acknowledged and skipped, so Meta does not retry. Also mounted at `/`.',
    response: webhookReceiptSchema,
    errors: [
      { status: 401, codes: ['ERR_INVALID_SIGNATURE'], description: 'Missing or wrong `X-Hub-Signature-256` (or no app secret configured)' },
      { status: 400, codes: ['ERR_INVALID_JSON', 'ERR_JSON_TOO_DEEP'] },
      { status: 422, codes: ['ERR_VALIDATION'], description: 'A string in the delivery holds a NUL character or an unpaired surrogate' },
    ],
    handler: async ({ raw, ctx }) => {
      const signature = ctx.get('x-hub-signature-256');
      const expected = secrets.metaAppSecret ? `sha256=${createHmac('sha256', secrets.metaAppSecret).update(raw).digest('hex')}` : null;
      if (!expected || !signature || !sameSecret(signature, expected)) throw new UnauthorizedError('ERR_INVALID_SIGNATURE');
      const payload = parseJsonText(raw.toString('utf8'));
      // Recorded (committed) before the 200: Meta never delivers again what was answered 200.
      let accepted = await app.connections.acceptProviderEvents.execute(
        parseMetaDelivery(payload).map(({ externalId, events }) => ({ ref: { externalId }, events })),
      );
      const bizchat = parseBizchatDelivery(payload);
      accepted += await app.bizchat.acceptBizchatEvents.execute(bizchat.numbers);
      for (const update of bizchat.templates) accepted += await app.bizchat.applyTemplateStatus.execute(update);
      return { received: true as const, accepted };
    },
  });
  return [
    verify,
    { ...verify, path: '/' },
    receive,
    { ...receive, path: '/' },
    route({
      method: 'POST',
      path: '/api/chatapp-microservice/webhook',
      auth: 'none',
      tag: 'Chat application, social network and sessions (connections)',
      summary: 'Events of an external chat-application microservice (shared secret)',
      guard: (ctx) => {
        const given = ctx.get('x-webhook-secret') || bearerToken(ctx);
        if (!secrets.microserviceSecret || !given || !sameSecret(given, secrets.microserviceSecret)) throw new UnauthorizedError('ERR_INVALID_WEBHOOK_SECRET');
      },
      body: z
        .object({
          chatappId: z.number().int().positive().meta({ description: 'The connection the events are for (of any company)', example: 3 }),
          events: z.array(microserviceEvent).min(1).max(500).meta({ description: '1 to 500 events of that connection' }),
        })
        .meta({
          example: {
            chatappId: 3,
            events: [
              {
                type: 'InboundMessage',
                providerMessageId: '3EB0C767D26A1D8B4F2A',
                from: '5511988887777',
                senderName: 'Carla Dias',
                body: 'Hi, is my order on its way?',
                isGroup: false,
                at: '2025-03-10T14:05:00.000Z',
              },
              { type: 'MessageStatusChanged', providerMessageId: '3EB0A1B2C3D4E5F6A7B8', status: 'read', at: '2025-03-10T14:06:12.000Z' },
            ],
          },
        }),
      description:
        'An external chat-application connector pushes its events (inbound messages, delivery status, session status) for connection ' +
        '`chatappId`, authenticated by the shared secret in `X-Webhook-Secret` (or `Authorization: Bearer`). They are recorded before the answer and applied asynchronously; ' +
        'a redelivered event changes nothing.',
      response: webhookReceiptSchema,
      errors: [
        { status: 401, codes: ['ERR_INVALID_WEBHOOK_SECRET'] },
        { status: 404, codes: ['ERR_NO_CHATAPP_FOUND'], description: 'No connection with that id' },
      ],
      handler: async ({ body }) => {
        const accepted = await app.connections.acceptProviderEvents.execute([{ ref: { id: body.chatappId }, events: body.events as ProviderEvent[] }]);
        if (accepted === 0) throw new HttpError(404, 'ERR_NO_CHATAPP_FOUND');
        return { received: true as const, accepted };
      },
    }),
  ];
}
