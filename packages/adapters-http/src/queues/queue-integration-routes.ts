import { LINEAGE_INTEGRATION_FIELDS, type Application } from '@servicedesk/core';
import { z } from 'zod';
import { route } from '../http/route.js';
import { id, idParam, pagedQuery } from '../http/schemas.js';
import { integrationTestResultSchema, queueIntegrationDeletedSchema, queueIntegrationPageSchema, queueIntegrationSchema } from './queue-schemas.js';

const credential = z.string().max(2048).nullable();
const lineageField = z.union([z.string().max(4000), z.number()]).nullable();
type LineageFields = Record<(typeof LINEAGE_INTEGRATION_FIELDS)[number], typeof lineageField>;
/** Each lineage field with its description (the same schema otherwise). */
const lineageFields = (describe: (name: string) => string) =>
  Object.fromEntries(LINEAGE_INTEGRATION_FIELDS.map((f) => [f, lineageField.meta({ description: describe(f), example: null })])) as LineageFields;
const INTEGRATION_CONFIG =
  'Free-form settings for the receiving side, up to 16 KiB as JSON, replacing the stored ones; null: none. The lineage fields given ' +
  '(`projectName`, `typebot…`) are merged over it, and on an edit they alone replace the stored settings when `config` is absent';
/**
 * Types only: the use cases check names, types, URLs and credentials and answer with their own codes.
 * The lineage's editor sends `urlN8N` for `url` and its own fields (`projectName`, `language`,
 * `typebot…`), kept in `config`; what we do not model (`jsonContent`) is dropped.
 */
const integrationFields = z
  .object({
    name: z.string().max(500).meta({ description: 'Trimmed, 1 to 100 characters, unique in the company ignoring case', example: 'Sales n8n' }),
    type: z.string().max(40).meta({
      description: '`webhook`, `n8n`, `typebot` or `dialogflow`: a label, every type is called the same way (`config` carries what the receiving side needs)',
      example: 'n8n',
    }),
    url: z.string().max(4096).meta({
      description: 'The absolute http(s) address, without user or password (2,048 characters at most), each inbound message of its queues is POSTed to',
      example: 'https://n8n.example.com/webhook/sales',
    }),
    urlN8N: z
      .string()
      .max(4096)
      .meta({ description: "The lineage's name of `url`, read when `url` is absent", example: 'https://n8n.example.com/webhook/sales' }),
    token: credential.meta({
      description:
        'Write-only: sent as `Authorization: Bearer`; printable ASCII, 1,024 characters at most; null or `""` removes it, absent on an edit keeps it',
      example: 'n8n-api-4f1c9e7b2a',
    }),
    secret: credential.meta({
      description:
        'Write-only: signs every delivery (HMAC-SHA256); printable ASCII, 1,024 characters at most; null or `""` removes it, absent on an edit keeps it',
      example: null,
    }),
    config: z
      .record(z.string().max(200), z.unknown())
      .nullable()
      .meta({ description: INTEGRATION_CONFIG, example: { flow: 'sales' } }),
    ...lineageFields((f) => `The lineage editor's \`${f}\`, kept in \`config\`; null: unset`),
  })
  .partial();

function toIntegrationFields(body: z.output<typeof integrationFields>) {
  const { urlN8N, url, config, token, secret, name, type } = body;
  const given = Object.fromEntries(LINEAGE_INTEGRATION_FIELDS.flatMap((f) => (body[f] !== undefined ? [[f, body[f]]] : [])));
  const merged = Object.keys(given).length ? { ...(config ?? {}), ...given } : config;
  const target = url !== undefined ? url : urlN8N;
  return {
    ...(name !== undefined ? { name } : {}),
    ...(type !== undefined ? { type } : {}),
    ...(target !== undefined ? { url: target } : {}),
    ...(token !== undefined ? { token } : {}),
    ...(secret !== undefined ? { secret } : {}),
    ...(merged !== undefined ? { config: merged } : {}),
  };
}
const integrationBody = integrationFields.transform(toIntegrationFields);
const INTEGRATION_BODY_EXAMPLE = {
  name: 'Sales n8n',
  type: 'n8n',
  url: 'https://n8n.example.com/webhook/sales',
  token: 'n8n-api-4f1c9e7b2a',
  config: { flow: 'sales' },
};

/**
 * Queue integrations (HTTP bots attached to queues): admins only, and only on plans with the
 * `integrations` feature. Credentials are write-only. `testsession` calls a stored integration
 * (`integrationId`) or the fields being edited with a `test` event and answers the status.
 */
export function queueIntegrationRoutes(app: Pick<Application, 'queues'>) {
  const tag = 'Queues, tags, chatbots, campaigns';
  const byId = idParam('integrationId');
  const feature = 'integrations' as const;
  return [
    route({
      method: 'GET',
      path: '/queueIntegration',
      auth: 'isAuth',
      tag,
      feature,
      summary: 'Page through the queue integrations found by name (admin)',
      description: 'Admins only, on plans with `integrations`. Credentials never show: `hasToken` and `hasSecret` say whether they are set.',
      response: queueIntegrationPageSchema,
      errors: [{ status: 403, codes: ['ERR_NO_PERMISSION', 'ERR_PLAN_FEATURE_DISABLED'] }],
      query: pagedQuery,
      handler: async ({ actor, query }) => app.queues.listQueueIntegrations.execute({ actor, ...query }),
    }),
    route({
      method: 'POST',
      path: '/queueIntegration/testsession',
      auth: 'isAuth',
      tag,
      feature,
      summary: 'Call an integration with a test event and answer its status (admin)',
      description:
        'Admins only, on plans with `integrations`. POSTs a `test` event to the stored integration (`integrationId`) or to the fields given; an endpoint that does not answer is `ok: false` with a null `status`. Changes nothing.',
      response: integrationTestResultSchema,
      errors: [
        { status: 403, codes: ['ERR_NO_PERMISSION', 'ERR_PLAN_FEATURE_DISABLED'] },
        { status: 404, codes: ['ERR_INTEGRATION_NOT_FOUND'] },
        {
          status: 422,
          codes: [
            'ERR_INVALID_INTEGRATION_NAME',
            'ERR_INVALID_INTEGRATION_TYPE',
            'ERR_INVALID_INTEGRATION_URL',
            'ERR_INVALID_INTEGRATION_CREDENTIAL',
            'ERR_INVALID_INTEGRATION_CONFIG',
            'ERR_URL_NOT_ALLOWED',
          ],
        },
      ],
      body: integrationFields
        .extend({
          config: integrationFields.shape.config.meta({ description: 'Accepted and ignored: the test event carries no settings' }),
          ...(Object.fromEntries(
            LINEAGE_INTEGRATION_FIELDS.map((f) => [
              f,
              integrationFields.shape[f].meta({ description: `Accepted and ignored (the lineage editor's \`${f}\`): the test event carries no settings` }),
            ]),
          ) as Pick<typeof integrationFields.shape, (typeof LINEAGE_INTEGRATION_FIELDS)[number]>),
          integrationId: id
            .optional()
            .meta({ description: 'A stored integration of the company to call; the fields given replace its own for this call only', example: 5 }),
        })
        .transform(({ integrationId, ...rest }) => ({
          ...toIntegrationFields(rest),
          ...(integrationId !== undefined ? { integrationId } : {}),
        }))
        .meta({ example: { integrationId: 5, url: 'https://n8n.example.com/webhook/sales-staging' } }),
      handler: async ({ actor, body }) => app.queues.testQueueIntegration.execute({ actor, ...body }),
    }),
    route({
      method: 'POST',
      path: '/queueIntegration',
      auth: 'isAuth',
      tag,
      feature,
      summary: 'Create a queue integration (admin; 409 for a name in use)',
      status: 201,
      description: "Admins only, on plans with `integrations`. Emits `company-<id>-queueIntegration` (`action: 'create'`).",
      response: queueIntegrationSchema,
      errors: [
        { status: 403, codes: ['ERR_NO_PERMISSION', 'ERR_PLAN_FEATURE_DISABLED'] },
        { status: 409, codes: ['ERR_INTEGRATION_NAME_ALREADY_EXISTS'] },
        {
          status: 422,
          codes: [
            'ERR_INVALID_INTEGRATION_NAME',
            'ERR_INVALID_INTEGRATION_TYPE',
            'ERR_INVALID_INTEGRATION_URL',
            'ERR_INVALID_INTEGRATION_CREDENTIAL',
            'ERR_INVALID_INTEGRATION_CONFIG',
          ],
        },
      ],
      body: integrationBody.meta({ example: INTEGRATION_BODY_EXAMPLE }),
      handler: async ({ actor, body }) =>
        app.queues.createQueueIntegration.execute({ actor, ...body, name: body.name ?? '', type: body.type ?? '', url: body.url ?? '' }),
    }),
    route({
      method: 'GET',
      path: '/queueIntegration/:integrationId',
      auth: 'isAuth',
      tag,
      feature,
      summary: 'Show a queue integration (admin)',
      params: byId,
      description: 'Admins only, on plans with `integrations`; credentials never show.',
      response: queueIntegrationSchema,
      errors: [
        { status: 403, codes: ['ERR_NO_PERMISSION', 'ERR_PLAN_FEATURE_DISABLED'] },
        { status: 404, codes: ['ERR_INTEGRATION_NOT_FOUND'] },
      ],
      handler: async ({ actor, params }) => app.queues.showQueueIntegration.execute({ actor, integrationId: params.integrationId }),
    }),
    route({
      method: 'PUT',
      path: '/queueIntegration/:integrationId',
      auth: 'isAuth',
      tag,
      feature,
      summary: 'Update a queue integration; `token`/`secret` null removes them (admin)',
      params: byId,
      body: integrationBody.meta({ example: { url: 'https://n8n.example.com/webhook/sales-v2', secret: 'whsec-8d2f61c0b9a4' } }),
      description:
        "Admins only, on plans with `integrations`: changes the fields given; an absent credential is kept. Emits `company-<id>-queueIntegration` (`action: 'update'`).",
      response: queueIntegrationSchema,
      errors: [
        { status: 403, codes: ['ERR_NO_PERMISSION', 'ERR_PLAN_FEATURE_DISABLED'] },
        { status: 404, codes: ['ERR_INTEGRATION_NOT_FOUND'] },
        { status: 409, codes: ['ERR_INTEGRATION_NAME_ALREADY_EXISTS'] },
        {
          status: 422,
          codes: [
            'ERR_INVALID_INTEGRATION_NAME',
            'ERR_INVALID_INTEGRATION_TYPE',
            'ERR_INVALID_INTEGRATION_URL',
            'ERR_INVALID_INTEGRATION_CREDENTIAL',
            'ERR_INVALID_INTEGRATION_CONFIG',
          ],
        },
      ],
      handler: async ({ actor, params, body }) => app.queues.updateQueueIntegration.execute({ actor, integrationId: params.integrationId, ...body }),
    }),
    route({
      method: 'DELETE',
      path: '/queueIntegration/:integrationId',
      auth: 'isAuth',
      tag,
      feature,
      summary: 'Delete a queue integration; its queues keep going without it (admin)',
      params: byId,
      description: "Admins only, on plans with `integrations`. Emits `company-<id>-queueIntegration` (`action: 'delete'`, `integrationId`).",
      response: queueIntegrationDeletedSchema,
      errors: [
        { status: 403, codes: ['ERR_NO_PERMISSION', 'ERR_PLAN_FEATURE_DISABLED'] },
        { status: 404, codes: ['ERR_INTEGRATION_NOT_FOUND'] },
      ],
      handler: async ({ actor, params }) => {
        await app.queues.deleteQueueIntegration.execute({ actor, integrationId: params.integrationId });
        return { message: 'Integration deleted' as const };
      },
    }),
  ];
}
