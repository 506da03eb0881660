import { MAX_API_MEDIA_BYTES, type Application, type Connection } from '@servicedesk/core';
import type { Context } from 'koa';
import { z } from 'zod';
import { route, type RouteError } from '../http/route.js';
import { formBoolean } from '../http/schemas.js';
import { idempotencyHeader, idempotencyKey } from './idempotency-header.js';
import { apiSendResultSchema, checkNumberResultSchema } from './message-schemas.js';
import { safeFetch } from '../outbound/safe-fetch.js';

/** An id that may come as a number, a digit string (forms) or an empty string (the lineage's "none"). */
const MAX_ID = 2_147_483_647;
const optionalId = z
  .union([
    z.literal(''),
    z.null(),
    z.number().int().positive().max(MAX_ID),
    z
      .string()
      .regex(/^\d{1,10}$/)
      .transform(Number)
      .pipe(z.number().int().positive().max(MAX_ID)),
  ])
  .optional()
  .transform((v) => (v === '' || v === null || v === undefined ? null : v));

const NUMBER_EXAMPLE = '5511987654321';

const common = {
  number: z.string().max(40).meta({
    description: "The contact's number with country and area code, 8 to 15 digits and nothing else (no `+`, spaces or dashes); a new number becomes a contact",
    example: NUMBER_EXAMPLE,
  }),
  userId: optionalId.meta({
    description:
      'The user the message is sent as, and the assignee of a ticket this send opens (an existing ticket keeps its own); a number or digits, absent, null or `""`: none',
    example: 3,
  }),
  queueId: optionalId.meta({
    description: 'The queue of a ticket this send opens (an existing ticket keeps its own); a number or digits, absent, null or `""`: none',
    example: 2,
  }),
  sendSignature: formBoolean.optional().meta({
    description:
      '`true`/`false` (or `"1"`/`"0"` in a form): prefix the text with `*<name>:*`, the `userId` user\'s name or else the connection\'s; default false',
    example: true,
  }),
  closeTicket: formBoolean
    .optional()
    .meta({ description: '`true`/`false` (or `"1"`/`"0"` in a form): close the ticket right after the send; default false', example: false }),
};

const sendBody = z
  .object({
    ...common,
    body: z.string().max(65_536).default('').meta({
      description: 'The text, sent with the first file when files come; may be empty (the default) only when files are sent',
      example: 'Seu pedido 1042 saiu para entrega.',
    }),
  })
  .meta({ example: { number: NUMBER_EXAMPLE, body: 'Seu pedido 1042 saiu para entrega.', queueId: 2, userId: 3, sendSignature: true, closeTicket: false } });
const buttonsBody = z
  .object({
    ...common,
    body: z.string().min(1).max(4096).meta({ description: 'The text shown above the buttons', example: 'Podemos confirmar sua visita amanhã às 10h?' }),
    buttons: z
      .array(
        z.object({
          id: z
            .string()
            .max(100)
            .optional()
            .meta({ description: "The button's id, returned with the contact's choice; absent: `btn-1`, `btn-2`… by position", example: 'confirm' }),
          text: z.string().min(1).max(20).meta({ description: "The button's label", example: 'Confirmar' }),
        }),
      )
      .min(1)
      .max(3)
      .meta({ description: 'One to three reply buttons, in the order shown' }),
  })
  .meta({
    example: {
      number: NUMBER_EXAMPLE,
      body: 'Podemos confirmar sua visita amanhã às 10h?',
      buttons: [
        { id: 'confirm', text: 'Confirmar' },
        { id: 'reschedule', text: 'Remarcar' },
      ],
      queueId: 2,
    },
  });
const listBody = z
  .object({
    ...common,
    body: z.string().min(1).max(4096).meta({ description: 'The text shown above the list button', example: 'Escolha o assunto do seu atendimento' }),
    title: z.string().max(60).default('').meta({ description: "The message's header; empty (the default): none", example: 'Atendimento' }),
    buttonText: z.string().min(1).max(20).meta({ description: 'The label of the button that opens the list', example: 'Ver opções' }),
    sections: z
      .array(
        z.object({
          title: z.string().max(24).default('').meta({ description: "The section's heading; empty (the default): none", example: 'Pedidos' }),
          rows: z
            .array(
              z.object({
                id: z.string().max(200).optional().meta({
                  description: "The row's id, returned with the contact's choice; absent: `row-<section>-<row>`, counted from 1",
                  example: 'order-status',
                }),
                title: z.string().min(1).max(24).meta({ description: "The row's label", example: 'Status do pedido' }),
                description: z
                  .string()
                  .max(72)
                  .optional()
                  .meta({ description: "A line under the row's label; absent or empty: none", example: 'Onde está minha entrega' }),
              }),
            )
            .min(1)
            .max(10)
            .meta({ description: 'One to ten rows, in the order shown' }),
        }),
      )
      .min(1)
      .max(10)
      .meta({ description: 'One to ten sections, in the order shown' }),
  })
  .meta({
    example: {
      number: NUMBER_EXAMPLE,
      body: 'Escolha o assunto do seu atendimento',
      title: 'Atendimento',
      buttonText: 'Ver opções',
      sections: [
        {
          title: 'Pedidos',
          rows: [
            { id: 'order-status', title: 'Status do pedido', description: 'Onde está minha entrega' },
            { id: 'order-cancel', title: 'Cancelar pedido' },
          ],
        },
      ],
    },
  });
const linkImageBody = z
  .object({
    ...common,
    url: z
      .string()
      .max(2048)
      .meta({
        description: `An http or https address on the public internet of an image (\`image/*\`, at most ${MAX_API_MEDIA_BYTES} bytes), which the backend downloads`,
        example: 'https://cdn.lojaexemplo.com.br/promo/cupom.jpg',
      }),
    body: z.string().max(1024).default('').meta({ description: "The image's caption; empty (the default): none", example: 'Seu cupom de 10% de desconto' }),
  })
  .meta({ example: { number: NUMBER_EXAMPLE, url: 'https://cdn.lojaexemplo.com.br/promo/cupom.jpg', body: 'Seu cupom de 10% de desconto' } });

const SEND_TEXT =
  "The contact (created if new) gets a message on the token's connection, in their active ticket there (opened if none, " +
  "for `userId` and `queueId`); `closeTicket` closes it after, `sendSignature` prefixes the user's (or connection's) name. The answer comes once the " +
  'send is durably queued. An `Idempotency-Key` header makes a retry answer the first result (24 h; the same key with another request answers 422 `ERR_IDEMPOTENCY_KEY_REUSED`). Emits `appMessage` (action `create`) and `ticket` (action `update`) events.';
const sendErrors: RouteError[] = [
  { status: 404, codes: ['ERR_QUEUE_NOT_FOUND', 'ERR_NO_USER_FOUND'], description: "`queueId` or `userId` is not one of the connection's company" },
  { status: 409, codes: ['ERR_IDEMPOTENT_REQUEST_IN_PROGRESS'], description: 'A request with the same `Idempotency-Key` is still running' },
  { status: 422, codes: ['ERR_INVALID_NUMBER', 'ERR_EMPTY_MESSAGE', 'ERR_MESSAGE_TOO_LONG', 'ERR_INVALID_IDEMPOTENCY_KEY', 'ERR_IDEMPOTENCY_KEY_REUSED'] },
];

export interface MessageApiOptions {
  /** Lets send/linkImage fetch from loopback and private addresses (tests only). */
  readonly allowPrivateUrls?: boolean;
}

/** Keys are unique per connection: the token's, whichever of the sends below takes it. */
const sendHeaders = idempotencyHeader("A key is unique per connection (the token's), across these sends, and compared with the whole request.");

/** The official message API: `Authorization: Bearer <connection token>` picks the sending connection. */
export function messageApiRoutes(app: Pick<Application, 'connections' | 'conversations'>, o: MessageApiOptions) {
  const tag = 'Official message API';
  const connectionOf = (ctx: Context) => ctx.state.connection as Connection;
  const send = async (ctx: Context, input: Omit<Parameters<Application['conversations']['sendApiMessage']['execute']>[0], 'connection' | 'idempotencyKey'>) => {
    return app.conversations.sendApiMessage.execute({ ...input, connection: connectionOf(ctx), idempotencyKey: idempotencyKey(ctx) });
  };
  return [
    route({
      method: 'POST',
      path: '/api/messages/send',
      auth: 'tokenAuth',
      tag,
      summary: 'Send a text (JSON) or media (multipart, field `medias`)',
      headers: sendHeaders,
      body: sendBody,
      multipart: { fileFields: ['medias'], maxFileBytes: MAX_API_MEDIA_BYTES, maxFiles: 10 },
      jsonOrMultipart: true,
      description: `One message per file, the text on the first. ${SEND_TEXT}`,
      response: apiSendResultSchema,
      errors: [
        ...sendErrors,
        { status: 422, codes: ['ERR_FILE_TOO_LARGE', 'ERR_EMPTY_FILE', 'ERR_BIZCHAT_WINDOW_CLOSED'] },
        { status: 403, codes: ['ERR_COMPANY_SUSPENDED'] },
      ],
      handler: async ({ body, multipart, ctx }) => send(ctx, { ...body, medias: multipart.files.medias ?? [] }),
    }),
    route({
      method: 'POST',
      path: '/api/messages/send-button',
      auth: 'tokenAuth',
      tag,
      summary: 'Send a message with up to three reply buttons',
      headers: sendHeaders,
      body: buttonsBody,
      description: `Buttons without \`id\` get \`btn-1\`, \`btn-2\`... ${SEND_TEXT}`,
      response: apiSendResultSchema,
      errors: [...sendErrors, { status: 403, codes: ['ERR_COMPANY_SUSPENDED'] }, { status: 422, codes: ['ERR_BIZCHAT_WINDOW_CLOSED'] }],
      handler: async ({ body, ctx }) => send(ctx, { ...body, buttons: body.buttons.map((b, i) => ({ id: b.id ?? `btn-${i + 1}`, text: b.text })) }),
    }),
    route({
      method: 'POST',
      path: '/api/messages/send-list',
      auth: 'tokenAuth',
      tag,
      summary: 'Send a list message',
      headers: sendHeaders,
      body: listBody,
      description: `Rows without \`id\` get \`row-<section>-<row>\`. ${SEND_TEXT}`,
      response: apiSendResultSchema,
      errors: [...sendErrors, { status: 403, codes: ['ERR_COMPANY_SUSPENDED'] }, { status: 422, codes: ['ERR_BIZCHAT_WINDOW_CLOSED'] }],
      handler: async ({ body, ctx }) =>
        send(ctx, {
          ...body,
          list: {
            title: body.title,
            buttonText: body.buttonText,
            sections: body.sections.map((s, si) => ({
              title: s.title,
              rows: s.rows.map((r, ri) => ({
                id: r.id ?? `row-${si + 1}-${ri + 1}`,
                title: r.title,
                ...(r.description ? { description: r.description } : {}),
              })),
            })),
          },
        }),
    }),
    route({
      method: 'POST',
      path: '/api/messages/send/linkImage',
      auth: 'tokenAuth',
      tag,
      summary: 'Send an image downloaded from a public URL',
      headers: sendHeaders,
      body: linkImageBody,
      description: `The backend downloads the image (http or https, public addresses only, an \`image/*\` type, at most ${MAX_API_MEDIA_BYTES} bytes) and sends it with \`body\` as caption. ${SEND_TEXT}`,
      response: apiSendResultSchema,
      errors: [
        ...sendErrors,
        {
          status: 422,
          codes: [
            'ERR_INVALID_URL',
            'ERR_URL_NOT_ALLOWED',
            'ERR_URL_NOT_REACHABLE',
            'ERR_FILE_TYPE_NOT_ALLOWED',
            'ERR_URL_TIMEOUT',
            'ERR_EMPTY_FILE',
            'ERR_BIZCHAT_WINDOW_CLOSED',
          ],
        },
        { status: 413, codes: ['ERR_FILE_TOO_LARGE'] },
        { status: 403, codes: ['ERR_COMPANY_SUSPENDED'] },
      ],
      handler: async ({ body, ctx }) => {
        const file = await safeFetch(body.url, { maxBytes: MAX_API_MEDIA_BYTES, contentTypes: ['image/'], allowPrivate: o.allowPrivateUrls });
        return send(ctx, { ...body, medias: [file] });
      },
    }),
    route({
      method: 'POST',
      path: '/api/messages/checkNumber',
      auth: 'tokenAuth',
      tag,
      summary: 'Check whether a number has an account',
      body: z
        .object({
          number: z
            .string()
            .max(40)
            .meta({ description: 'The number to check with country and area code, 8 to 15 digits and nothing else', example: NUMBER_EXAMPLE }),
        })
        .meta({ example: { number: NUMBER_EXAMPLE } }),
      description: "Asks the token's connection (its live session) whether the number has an account; changes nothing.",
      response: checkNumberResultSchema,
      errors: [
        { status: 409, codes: ['ERR_SESSION_NOT_CONNECTED'] },
        { status: 422, codes: ['ERR_INVALID_NUMBER'] },
      ],
      handler: async ({ body, ctx }) => app.connections.checkNumber.execute({ connection: connectionOf(ctx), number: body.number }),
    }),
  ];
}
