import { z } from 'zod';
import { queueSummarySchema } from '../queues/queue-schemas.js';

/**
 * The connection views the API answers (`ConnectionView`, `ConnectionWithQueues` of
 * packages/core/src/messaging and queues), and the webhook acknowledgements, defined once.
 */

export const connectionKindSchema = z.enum(['chatapp', 'socialnet', 'bizchat']).meta({
  id: 'ConnectionKind',
  description: '`chatapp`: a chat-application session; `socialnet`: a social-network page or account; `bizchat`: a business API',
  example: 'chatapp',
});

export const connectionProviderSchema = z.enum(['sandbox', 'baileys', 'messenger', 'instagram', 'cloudapi']).meta({
  id: 'ConnectionProvider',
  description: 'The connector driving it; `sandbox` is the deterministic simulator for tests and demos, `cloudapi` the business API of bizchat connections',
  example: 'baileys',
});

export const connectionStatusSchema = z.enum(['OPENING', 'qrcode', 'CONNECTED', 'DISCONNECTED', 'PENDING']).meta({
  id: 'ConnectionStatus',
  description:
    "The session's state: `OPENING` while starting, `qrcode` waiting for the phone to pair (scan `qrcode`, or type `pairingCode` when started with a phone number), then `CONNECTED` or `DISCONNECTED`",
  example: 'CONNECTED',
});

const CONNECTION_EXAMPLE = {
  id: 3,
  companyId: 1,
  name: 'Support WhatsApp',
  kind: 'chatapp' as const,
  channel: 'chatapp' as const,
  provider: 'baileys' as const,
  status: 'CONNECTED' as const,
  qrcode: '',
  pairingCode: null,
  number: null,
  greetingMessage: 'Hello! How can we help?',
  complationMessage: 'Thanks for talking to us.',
  outOfHoursMessage: null,
  isDefault: true,
  token: 'abcd••••wxyz',
  externalId: null,
  reopenWindowMinutes: 0,
  greetingMediaKey: null,
  greetingMediaAttachment: null,
  promptId: null,
  createdAt: '2025-01-31T12:00:00.000Z',
  updatedAt: '2025-02-01T09:30:00.000Z',
};

const connectionFields = {
  id: z.number().int().meta({ example: 3 }),
  companyId: z.number().int().meta({ description: 'The owning company', example: 1 }),
  name: z.string().meta({ example: 'Support WhatsApp' }),
  kind: connectionKindSchema,
  channel: connectionKindSchema.meta({ description: "The lineage's name of `kind` (its `whatsapp` is `chatapp`, `facebook`/`instagram` are `socialnet`)" }),
  provider: connectionProviderSchema,
  status: connectionStatusSchema,
  qrcode: z.string().meta({ description: 'The pairing QR code while `status` is `qrcode`; `""` otherwise', example: '' }),
  pairingCode: z.string().nullable().meta({
    description:
      'While `status` is `qrcode` on a session started with `phoneNumber`: the 8-character code to type on the phone (WhatsApp → Linked devices → Link with phone number); null otherwise',
    example: null,
  }),
  number: z.string().nullable().meta({ description: "The account's number, once a connector reports it", example: null }),
  greetingMessage: z.string().nullable().meta({ description: 'Sent when a conversation starts', example: 'Hello! How can we help?' }),
  complationMessage: z.string().nullable().meta({ description: 'Sent when an operator closes a ticket (the farewell)', example: 'Thanks for talking to us.' }),
  outOfHoursMessage: z.string().nullable().meta({ description: 'Sent outside business hours', example: null }),
  isDefault: z.boolean().meta({ description: "The company's default connection (at most one)", example: true }),
  token: z
    .string()
    .nullable()
    .meta({ description: 'The "Token API" of the official message API, masked: it can be replaced, never read back', example: 'abcd••••wxyz' }),
  externalId: z.string().nullable().meta({ description: 'The page or account id at the provider (social networks)', example: null }),
  reopenWindowMinutes: z
    .number()
    .int()
    .meta({ description: 'A closed ticket of the same contact younger than this is reopened instead of a new one', example: 0 }),
  greetingMediaKey: z.string().nullable().meta({ description: 'Storage key of the file sent with the greeting', example: null }),
  greetingMediaAttachment: z.string().nullable().meta({ description: 'The name of the file sent with the greeting', example: null }),
  promptId: z
    .number()
    .int()
    .nullable()
    .meta({ description: 'The AI assistant (prompt) that answers its conversations while no operator has them; null: none', example: null }),
  createdAt: z.iso.datetime().meta({ example: '2025-01-31T12:00:00.000Z' }),
  updatedAt: z.iso.datetime().meta({ example: '2025-02-01T09:30:00.000Z' }),
};

/** `ConnectionView`: a connection without its secrets, its token masked. */
export const connectionViewSchema = z.object(connectionFields).meta({
  id: 'Connection',
  description: 'A connection (a chat-application session or a social-network page); its provider secrets are never shown',
  example: CONNECTION_EXAMPLE,
});

/** `ConnectionWithQueues`: a connection with the queues its menu offers. */
export const connectionWithQueuesSchema = z
  .object({
    ...connectionFields,
    queues: z.array(queueSummarySchema).meta({ description: 'The queues its menu offers, in menu order' }),
  })
  .meta({
    id: 'ConnectionWithQueues',
    description: 'A connection with the queues its menu offers',
    example: { ...CONNECTION_EXAMPLE, queues: [{ id: 1, name: 'Support', color: '#7c7c7c' }] },
  });

export const connectionDeletedSchema = z
  .object({ message: z.literal('Connection deleted') })
  .meta({ id: 'ConnectionDeleted', description: 'The connection is gone', example: { message: 'Connection deleted' } });

export const sessionsRestartedSchema = z
  .object({
    restarted: z.number().int().meta({ description: 'How many sessions the request covers (restarted now, or joined to a restart just asked)', example: 1 }),
    connections: z
      .array(connectionViewSchema)
      .meta({ description: 'The connections covered: `OPENING` while their restart runs, their new status once it brought them back' }),
  })
  .meta({
    id: 'SessionsRestarted',
    description: 'The chat-application sessions restarted',
    example: { restarted: 1, connections: [{ ...CONNECTION_EXAMPLE, status: 'OPENING' }] },
  });

export const importedTicketsClosedSchema = z
  .object({
    closed: z.number().int().meta({ description: 'How many pending unassigned tickets were closed', example: 120 }),
  })
  .meta({ id: 'ImportedTicketsClosed', description: 'How many tickets the clean-up closed', example: { closed: 120 } });

export const webhookReceiptSchema = z
  .object({
    received: z.literal(true),
    accepted: z.number().int().meta({ description: 'How many events were handed on (events of unknown pages or accounts are skipped)', example: 2 }),
  })
  .meta({
    id: 'WebhookReceipt',
    description: 'The delivery was read; its events are applied asynchronously (redeliveries change nothing)',
    example: { received: true, accepted: 2 },
  });

export const webhookChallengeSchema = z.string().meta({
  id: 'WebhookChallenge',
  description: 'The `hub.challenge` Meta sent, echoed as is (text/plain)',
  example: '1158201444',
});
