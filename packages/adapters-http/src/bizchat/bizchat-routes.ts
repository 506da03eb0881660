import type { Application } from '@servicedesk/core';
import { z } from 'zod';
import { route } from '../http/route.js';
import { id } from '../http/schemas.js';
import { bizchatTemplateListSchema, bizchatTemplateSentSchema } from './bizchat-schemas.js';

const TAG = 'Templates and sellers';
const values = z.array(z.string().max(1024)).max(20);
const valuesOf = (description: string) => values.optional().meta({ description });
const flag = z.union([z.boolean(), z.enum(['true', 'false', '1', '0'])]).transform((v) => v === true || v === 'true' || v === '1');

/** The business channel's templates: the list of a bizchat connection and the template send. */
export function bizchatRoutes(app: Pick<Application, 'bizchat'>) {
  return [
    route({
      method: 'GET',
      path: '/bizchat-templates',
      auth: 'isAuth',
      tag: TAG,
      summary: "The templates of a bizchat connection's business account",
      query: z.object({
        chatappId: id.meta({ description: 'The bizchat connection whose business account is listed', example: 4 }),
        refresh: flag
          .optional()
          .meta({ description: "`true` or `1`: read the provider's list now, even if the stored one is younger than 10 minutes; default false" }),
      }),
      description:
        'Every operator of the company may read them. The stored list answers while it is younger than 10 minutes; after that, or with ' +
        "`refresh=true`, the provider's list (`GET /<waba-id>/message_templates`) is read and stored in its place. Template status webhooks " +
        '(`message_template_status_update`) keep the stored statuses current.',
      response: bizchatTemplateListSchema,
      errors: [
        { status: 404, codes: ['ERR_NO_CONNECTION_FOUND'], description: "No such connection in the caller's company" },
        { status: 422, codes: ['ERR_NOT_BIZCHAT_CONNECTION', 'ERR_BIZCHAT_ACCOUNT_INCOMPLETE', 'ERR_BIZCHAT_TOKEN_INVALID'] },
        { status: 503, codes: ['ERR_BIZCHAT_PROVIDER_UNAVAILABLE'], description: 'The provider could not be asked (on a refresh, or with nothing stored)' },
      ],
      handler: async ({ actor, query }) => app.bizchat.listBizchatTemplates.execute({ actor, chatappId: query.chatappId, refresh: query.refresh ?? false }),
    }),
    route({
      method: 'POST',
      path: '/send-bizchat-template',
      auth: 'isAuth',
      tag: TAG,
      summary: 'Send an approved template (also outside the 24-hour window)',
      body: z
        .object({
          ticketId: id
            .optional()
            .meta({ description: "Send to this ticket's contact, on the ticket's connection (which must be a bizchat one); wins over `number`" }),
          chatappId: id.optional().meta({ description: 'With `number` (and no `ticketId`): the bizchat connection to send from' }),
          number: z
            .string()
            .max(30)
            .optional()
            .meta({ description: 'With `chatappId` (and no `ticketId`): the recipient, 8 to 15 digits with the country code', example: '5511988887777' }),
          templateName: z.string().min(1).max(512).meta({ description: "The template's name as the provider knows it", example: 'pedido_enviado' }),
          language: z.string().min(1).max(20).meta({ description: "The template's language code, as listed", example: 'pt_BR' }),
          parameters: z
            .object({
              header: valuesOf("The header's values: one per text variable, or a single http(s) link for an image, video or document header"),
              body: valuesOf("The body's values in the order of its variables (`variables.body` of the listing)"),
              buttons: valuesOf('One value per button that takes one (a URL variable or a coupon code), in the order of `variables.buttons`'),
            })
            .default({})
            .meta({ description: "The values of the template's variables, each 1 to 1,024 characters; each part must hold exactly as many as it takes" }),
        })
        .meta({
          example: {
            ticketId: 314,
            templateName: 'pedido_enviado',
            language: 'pt_BR',
            parameters: { body: ['Carla', '#10482'], buttons: ['10482'] },
          },
        }),
      description:
        "To a ticket's contact (`ticketId`, the operator replying as on `POST /messages/:ticketId`) or to a `number` on the bizchat " +
        "connection `chatappId` (its open ticket, or a new one assigned to the caller). The values must match the template's variables " +
        '(`GET /bizchat-templates` shows them); only APPROVED templates go. The conversation keeps the rendered text; the message is ' +
        'pending until the provider accepts it, and a provider refusal ends it `failed` with a `failureReason`.',
      response: bizchatTemplateSentSchema,
      errors: [
        { status: 403, codes: ['ERR_NO_PERMISSION', 'ERR_COMPANY_SUSPENDED'], description: "Another operator's ticket, or a suspended company" },
        { status: 404, codes: ['ERR_NO_TICKET_FOUND', 'ERR_NO_CONNECTION_FOUND', 'ERR_BIZCHAT_TEMPLATE_NOT_FOUND'] },
        { status: 409, codes: ['ERR_TICKET_CLOSED'] },
        {
          status: 422,
          codes: [
            'ERR_BIZCHAT_RECIPIENT_REQUIRED',
            'ERR_NOT_BIZCHAT_CONNECTION',
            'ERR_BIZCHAT_ACCOUNT_INCOMPLETE',
            'ERR_BIZCHAT_TEMPLATE_NOT_APPROVED',
            'ERR_BIZCHAT_TEMPLATE_PARAMETERS',
            'ERR_BIZCHAT_TOKEN_INVALID',
            'ERR_INVALID_NUMBER',
          ],
        },
        { status: 503, codes: ['ERR_BIZCHAT_PROVIDER_UNAVAILABLE'] },
      ],
      handler: async ({ actor, body }) => app.bizchat.sendBizchatTemplate.execute({ actor, ...body }),
    }),
  ];
}
