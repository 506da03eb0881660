import {
  CAMPAIGN_STATUSES,
  ConflictError,
  MAX_CAMPAIGN_MEDIA_BYTES,
  RECIPIENT_STATES,
  type Actor,
  type Application,
  type CampaignInput,
  type CampaignStatus,
  type ErrorCode,
} from '@servicedesk/core';
import { z } from 'zod';
import { route, type RouteError } from '../http/route.js';
import { formBoolean, idParam, pagedQuery } from '../http/schemas.js';
import { deletedSchema } from '../company-api/company-api-schemas.js';
import {
  campaignListSchema,
  campaignMediaSchema,
  campaignPageSchema,
  campaignReportSchema,
  campaignSchema,
  campaignSettingRowsSchema,
} from './campaign-schemas.js';

type CampaignsApp = Pick<Application, 'campaigns'>;

const FORBIDDEN: RouteError = {
  status: 403,
  codes: ['ERR_NO_PERMISSION', 'ERR_PLAN_FEATURE_DISABLED'],
  description: "The caller is not an admin, or the company's plan has no campaigns",
};
const NOT_FOUND: RouteError = { status: 404, codes: ['ERR_NO_CAMPAIGN_FOUND'] };
const STATUS_CONFLICT: RouteError = { status: 409, codes: ['ERR_CAMPAIGN_STATUS_CONFLICT'], description: 'The stored status does not allow it' };
/** What a scheduled campaign must have (checked when it is scheduled or started). */
const RUNNABLE: ErrorCode[] = ['ERR_CAMPAIGN_NO_AUDIENCE', 'ERR_CAMPAIGN_NO_MESSAGE', 'ERR_CAMPAIGN_NO_CONNECTION', 'ERR_CAMPAIGN_TEMPLATE_REQUIRED'];
const WRITE_ERRORS: RouteError[] = [
  FORBIDDEN,
  {
    status: 404,
    codes: ['ERR_NO_CONTACT_LIST_FOUND', 'ERR_NO_TAG_FOUND', 'ERR_NO_CONNECTION_FOUND', 'ERR_NO_USER_FOUND', 'ERR_QUEUE_NOT_FOUND'],
    description: "A referenced id is not one of the company's",
  },
  { status: 422, codes: ['ERR_CAMPAIGN_INVALID_NAME', 'ERR_CAMPAIGN_MESSAGE_TOO_LONG', 'ERR_CAMPAIGN_INVALID_SCHEDULE', ...RUNNABLE] },
];

const intId = z.number().int().positive().max(2_147_483_647);
const numericId = z
  .string()
  .trim()
  .regex(/^\d{1,10}$/)
  .transform(Number)
  .pipe(intId);
/**
 * An id the client may send as a number or a numeric string, or one of its spellings of "none"
 * (`""` for an empty select, null, and per field `"Nenhuma"` or `false`), which mean null.
 */
const reference = (none?: z.ZodLiteral<string | boolean>) => {
  const options = [intId, numericId, z.null(), z.literal('')] as const;
  return z.union(none ? [...options, none] : options).transform((v): number | null => (typeof v === 'number' ? v : null));
};

/** The client turns every empty field into null before sending. */
const textField = z
  .string()
  .nullable()
  .transform((v) => v ?? '');
const optionalFlag = z.union([formBoolean, z.null()]).transform((v) => v ?? undefined);

const PLACEHOLDERS = "`{nome}`, `{email}`, `{numero}`, the list's extra columns and the company's `variables` are filled in";
const messageField = (n: number) =>
  textField.meta({
    description:
      n === 1
        ? `A variant of the message, up to 4,096 characters; each recipient gets one non-empty variant at random, ${PLACEHOLDERS}; null or \`""\`: none`
        : `Variant ${n} of the message (see \`message1\`); null or \`""\`: none`,
    example: n === 1 ? 'Olá {nome}! A Black Friday da Loja Exemplo começou: 30% em tudo até domingo.' : '',
  });
const confirmationField = (n: number) =>
  textField.meta({
    description:
      n === 1
        ? 'A variant of the opt-in question sent first when `confirmation` is on (one non-empty variant at random), up to 4,096 characters, ' +
          `the same placeholders filled in; null or \`""\`: none`
        : `Variant ${n} of the opt-in question (see \`confirmationMessage1\`); null or \`""\`: none`,
    example: n === 1 ? 'Oi {nome}, podemos te enviar nossas ofertas da Black Friday? Responda SIM.' : '',
  });
/** An id reference of the campaign, described for its field. */
const describedReference = (description: string, example: number | null) => reference().meta({ description, example });

/**
 * The fields CampaignModal sends (it sends the whole `GET /campaigns/:id` answer back: what it does
 * not edit is dropped). `status` is not an edit: a value other than the stored one asks for a state change.
 */
const campaignBody = z
  .object({
    name: textField.meta({ description: 'Trimmed, 1 to 255 characters; required on create', example: 'Black Friday 2025' }),
    message1: messageField(1),
    message2: messageField(2),
    message3: messageField(3),
    message4: messageField(4),
    message5: messageField(5),
    confirmationMessage1: confirmationField(1),
    confirmationMessage2: confirmationField(2),
    confirmationMessage3: confirmationField(3),
    confirmationMessage4: confirmationField(4),
    confirmationMessage5: confirmationField(5),
    confirmation: optionalFlag.meta({
      description:
        '`true`/`false` (or `"true"`/`"false"`, `"1"`/`"0"`): ask the opt-in question first and send the message only after the contact answers a ' +
        'yes word (`confirmationYesWords`); null: unchanged (off on a new campaign)',
      example: false,
    }),
    scheduledAt: z
      .string()
      .max(64)
      .nullable()
      .transform((v) => (v === null || v.trim() === '' ? null : v))
      .meta({
        description:
          'ISO 8601 with an offset, or `YYYY-MM-DD HH:mm:ss` on the company\'s clock (setting `timezone`, default America/Sao_Paulo); null or `""`: no schedule',
      }),
    contactListId: describedReference(
      'A contact list of the company whose contacts are the audience (with or instead of `tagListId`); a number or digits, null or `""`: none',
      3,
    ),
    tagListId: reference(z.literal('Nenhuma')).meta({ description: 'A tag whose contacts are the audience; `"Nenhuma"`, `""` or null: none' }),
    chatappId: reference(z.literal(false)).meta({ description: 'The sending connection; `false`, `""` or null: none' }),
    userId: describedReference(
      'With `openTicket` `enabled`: the user who owns the tickets it opens and sends as; a number or digits, null or `""`: none',
      null,
    ),
    queueId: describedReference('With `openTicket` `enabled`: the queue of the tickets it opens; a number or digits, null or `""`: none', null),
    statusTicket: z
      .union([z.enum(['open', 'pending', 'closed']), z.literal(''), z.null()])
      .transform((v) => v || undefined)
      .meta({
        description: 'With `openTicket` `enabled`: the status of the tickets it opens; `""` or null: unchanged (`closed` on a new campaign)',
        example: 'closed',
      }),
    openTicket: z
      .union([z.enum(['enabled', 'disabled']), z.literal(''), z.null()])
      .transform((v) => v || undefined)
      .meta({
        description:
          '`enabled`: a recipient without an active ticket on the connection gets one with `statusTicket`, `userId` and `queueId`; `disabled` ' +
          '(a new campaign\'s default): the message goes into their active ticket or a closed one, so no operator queue fills up; `""` or null: unchanged',
        example: 'disabled',
      }),
    status: z
      .union([z.enum(CAMPAIGN_STATUSES), z.literal(''), z.null()])
      .transform((v) => v || undefined)
      .meta({
        description: 'PUT only: `PAUSADA` pauses, `EM_ANDAMENTO` starts or resumes, `CANCELADA` cancels; the stored status (or none) makes the request an edit',
      }),
  })
  .partial();

type CampaignBody = z.output<typeof campaignBody>;

const CAMPAIGN_BODY_EXAMPLE = {
  name: 'Black Friday 2025',
  message1: 'Olá {nome}! A Black Friday da Loja Exemplo começou: 30% em tudo até domingo.',
  message2: 'Oi {nome}, só até domingo: 30% de desconto em toda a Loja Exemplo.',
  confirmation: false,
  scheduledAt: '2025-11-28 09:00:00',
  contactListId: 3,
  tagListId: null,
  chatappId: 2,
  openTicket: 'disabled',
  statusTicket: 'closed',
};

function campaignInput(body: CampaignBody): CampaignInput {
  const { status: _status, ...fields } = body;
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as CampaignInput;
}

/** `PUT /campaigns/:id` with a new `status`: the use case of that state change. */
const STATE_REQUESTS: Partial<Record<CampaignStatus, 'pauseCampaign' | 'runCampaign' | 'cancelCampaign'>> = {
  PAUSADA: 'pauseCampaign',
  EM_ANDAMENTO: 'runCampaign',
  CANCELADA: 'cancelCampaign',
};

async function changeStatus(app: CampaignsApp, actor: Actor, campaignId: number, status: CampaignStatus) {
  const stored = await app.campaigns.showCampaign.execute({ actor, campaignId });
  if (status === stored.status) return null;
  const action = STATE_REQUESTS[status];
  if (!action) throw new ConflictError('ERR_CAMPAIGN_STATUS_CONFLICT', { status: stored.status, action: status });
  await app.campaigns[action].execute({ actor, campaignId });
  const { progress: _progress, ...view } = await app.campaigns.showCampaign.execute({ actor, campaignId });
  return view;
}

/** `POST /campaign-settings`: the client sends numbers as numbers or (after a reload) as the stored strings. */
const settingsBody = z
  .object({
    settings: z.record(z.string().max(100), z.unknown()).meta({
      description:
        'Keys to save, each with its value: `messageInterval`/`messageIntervalMax` (seconds, the random gap between sends), ' +
        '`longerIntervalAfter`, `greaterInterval`, `variables` (`[{key, value}]`), `startHour`/`endHour` (`HH:mm`), `sabado`, `domingo`, ' +
        '`capHourly`, `capDaily`, `backoffErrorThreshold`, `backoffPauseMinutes`, `confirmationYesWords`, `stopWords`, `confirmationTimeoutHours`',
    }),
  })
  .meta({
    example: {
      settings: {
        messageInterval: 20,
        messageIntervalMax: 40,
        startHour: '08:00',
        endHour: '20:00',
        sabado: true,
        capDaily: 150,
        variables: [{ key: 'loja', value: 'Loja Exemplo' }],
        stopWords: ['sair', 'parar', 'stop'],
      },
    },
  });

/**
 * Campaigns (admins of a company whose plan has them): drafts, scheduling, the state machine's
 * actions, the attachment, the report, and the company's campaign settings. Every answer and
 * `campaign` frame carries the names of the list, tag, connection, user and queue.
 */
export function campaignRoutes(app: CampaignsApp) {
  const tag = 'Queues, tags, chatbots, campaigns';
  const feature = 'campaigns' as const;
  const byId = idParam('id');
  return [
    route({
      method: 'GET',
      path: '/campaigns/list',
      auth: 'isAuth',
      tag,
      feature,
      operationId: 'listAllCampaigns',
      summary: 'Every campaign of the company, by name (admin)',
      query: z.object({ companyId: z.unknown().optional().meta({ description: "Sent by the lineage client; ignored (the company is the caller's)" }) }),
      description: "Admins only. The company is always the caller's, whatever `companyId` the query names.",
      response: campaignListSchema,
      errors: [FORBIDDEN],
      handler: async ({ actor }) => app.campaigns.listAllCampaigns.execute({ actor }),
    }),
    route({
      method: 'GET',
      path: '/campaigns',
      auth: 'isAuth',
      tag,
      feature,
      operationId: 'listCampaigns',
      summary: 'Page through the campaigns found by name (admin)',
      query: pagedQuery,
      description: "Admins only. A page (20) of the company's campaigns, found by `searchParam` in the name.",
      response: campaignPageSchema,
      errors: [FORBIDDEN],
      handler: async ({ actor, query }) => app.campaigns.listCampaigns.execute({ actor, ...query }),
    }),
    route({
      method: 'GET',
      path: '/campaigns/:id',
      auth: 'isAuth',
      tag,
      feature,
      operationId: 'showCampaign',
      summary: 'A campaign with its progress and a page of its recipients (the report, admin)',
      params: byId,
      query: z.object({
        state: z.enum(RECIPIENT_STATES).optional().meta({ description: 'Only the recipients in this state' }),
        pageNumber: pagedQuery.shape.pageNumber,
      }),
      description:
        'Admins only. `progress` counts the recipients per state (fixed when the campaign first starts: all zero before); ' +
        '`recipients` is a page (20) of them, optionally in one `state`, with when each was sent, delivered, read, asked and confirmed.',
      response: campaignReportSchema,
      errors: [FORBIDDEN, NOT_FOUND],
      handler: async ({ actor, params, query }) => {
        const campaign = await app.campaigns.showCampaign.execute({ actor, campaignId: params.id });
        const recipients = await app.campaigns.listCampaignRecipients.execute({
          actor,
          campaignId: params.id,
          state: query.state,
          pageNumber: query.pageNumber,
        });
        return { ...campaign, recipients };
      },
    }),
    route({
      method: 'POST',
      path: '/campaigns',
      auth: 'isAuth',
      tag,
      feature,
      operationId: 'createCampaign',
      summary: 'Create a draft, or a scheduled campaign when it has `scheduledAt` (admin)',
      body: campaignBody.required({ name: true }).meta({ example: CAMPAIGN_BODY_EXAMPLE }),
      description:
        "Admins only. Every id must be one of the company's (404 otherwise). With `scheduledAt` the campaign is `PROGRAMADA` and must " +
        'be able to run: an audience (`contactListId` and/or `tagListId`), a message and a connection (422 naming what is missing); a time in ' +
        'the past starts it within seconds. Without, it is an `INATIVA` draft. Answers 200 (as the lineage) and emits `campaign` (action `create`).',
      response: campaignSchema,
      errors: WRITE_ERRORS,
      handler: async ({ actor, body }) => app.campaigns.createCampaign.execute({ actor, campaign: campaignInput(body) }),
    }),
    route({
      method: 'PUT',
      path: '/campaigns/:id',
      auth: 'isAuth',
      tag,
      feature,
      operationId: 'updateCampaign',
      summary: 'Edit a draft or scheduled campaign, or change its status (admin)',
      params: byId,
      body: campaignBody.meta({ example: { scheduledAt: '2025-11-28T10:00:00-03:00', message2: '' } }),
      description:
        'Admins only. Only the fields sent change, and only while the stored status is `INATIVA` or `PROGRAMADA` (409 otherwise); ' +
        'a `scheduledAt` schedules it, `null` makes it a draft again. A `status` other than the stored one is a state change instead (the other ' +
        'fields are then ignored): `PAUSADA` pauses a running campaign, `EM_ANDAMENTO` starts a draft or scheduled one, resumes a paused one or ' +
        'runs a cancelled one again, `CANCELADA` cancels; any other status, or one the stored status does not allow, is 409. Emits `campaign` (action `update`).',
      response: campaignSchema,
      errors: [...WRITE_ERRORS, NOT_FOUND, STATUS_CONFLICT],
      handler: async ({ actor, params, body }) => {
        if (body.status) {
          const changed = await changeStatus(app, actor, params.id, body.status);
          if (changed) return changed;
        }
        return app.campaigns.updateCampaign.execute({ actor, campaignId: params.id, campaign: campaignInput(body) });
      },
    }),
    route({
      method: 'DELETE',
      path: '/campaigns/:id',
      auth: 'isAuth',
      tag,
      feature,
      operationId: 'deleteCampaign',
      summary: 'Delete a campaign that is not running, with its recipients and attachment (admin)',
      params: byId,
      description: 'Admins only. A running campaign must be paused or cancelled first (409). Emits `campaign` (action `delete`, with the `id`).',
      response: deletedSchema,
      errors: [FORBIDDEN, NOT_FOUND, STATUS_CONFLICT],
      handler: async ({ actor, params }) => {
        await app.campaigns.deleteCampaign.execute({ actor, campaignId: params.id });
        return { message: 'Campaign deleted' };
      },
    }),
    route({
      method: 'POST',
      path: '/campaigns/:id/cancel',
      auth: 'isAuth',
      tag,
      feature,
      operationId: 'cancelCampaign',
      summary: 'Cancel a scheduled, running or paused campaign (admin)',
      params: byId,
      status: 204,
      description: 'Admins only. Nothing more is sent once it answers; `restart` runs it again later. Emits `campaign` (action `update`).',
      errors: [FORBIDDEN, NOT_FOUND, STATUS_CONFLICT],
      handler: async ({ actor, params }) => {
        await app.campaigns.cancelCampaign.execute({ actor, campaignId: params.id });
      },
    }),
    route({
      method: 'POST',
      path: '/campaigns/:id/restart',
      auth: 'isAuth',
      tag,
      feature,
      operationId: 'restartCampaign',
      summary: 'Run a campaign now: start a draft or scheduled one, resume a paused one, run a cancelled or failed one again (admin)',
      params: byId,
      status: 204,
      description:
        'Admins only. The first start fixes the recipients (the audience as it is then, deduplicated, without suppressed numbers); ' +
        'recipients already sent stay sent, the others go on, paced as the settings say. 422 when it cannot run (no audience, message or ' +
        'connection), 409 when it is running or finished. Emits `campaign` (action `update`).',
      errors: [FORBIDDEN, NOT_FOUND, STATUS_CONFLICT, { status: 422, codes: RUNNABLE }],
      handler: async ({ actor, params }) => {
        await app.campaigns.runCampaign.execute({ actor, campaignId: params.id });
      },
    }),
    route({
      method: 'POST',
      path: '/campaigns/:id/media-upload',
      auth: 'isAuth',
      tag,
      feature,
      operationId: 'setCampaignMedia',
      summary: 'Attach the file every message variant carries (field `file`, admin)',
      params: byId,
      multipart: { fileFields: ['file'], maxFileBytes: MAX_CAMPAIGN_MEDIA_BYTES, maxFiles: 1 },
      body: z.object({}).meta({ description: 'No form field besides `file`; others are ignored', example: {} }),
      description:
        'Admins only, before the campaign ever ran (409 after). Replaces the previous file; the message text goes as its caption. ' +
        'The file is served at `/<mediaPath>`. Emits `campaign` (action `update`).',
      response: campaignMediaSchema,
      errors: [
        FORBIDDEN,
        NOT_FOUND,
        STATUS_CONFLICT,
        { status: 422, codes: ['ERR_NO_FILE', 'ERR_EMPTY_FILE'] },
        { status: 413, codes: ['ERR_FILE_TOO_LARGE'] },
      ],
      handler: async ({ actor, params, multipart }) => ({
        mensagem: 'Mensagem enviada',
        ...(await app.campaigns.setCampaignMedia.execute({ actor, campaignId: params.id, file: multipart.files.file?.[0] })),
      }),
    }),
    route({
      method: 'DELETE',
      path: '/campaigns/:id/media-upload',
      auth: 'isAuth',
      tag,
      feature,
      operationId: 'removeCampaignMedia',
      summary: "Remove the campaign's attachment (admin)",
      params: byId,
      description:
        'Admins only, before the campaign ever ran (409 after); harmless without one. The file is no longer served. Emits `campaign` (action `update`).',
      response: campaignMediaSchema,
      errors: [FORBIDDEN, NOT_FOUND, STATUS_CONFLICT],
      handler: async ({ actor, params }) => ({
        mensagem: 'Arquivo excluído',
        ...(await app.campaigns.removeCampaignMedia.execute({ actor, campaignId: params.id })),
      }),
    }),
    route({
      method: 'GET',
      path: '/campaign-settings',
      auth: 'isAuth',
      tag,
      feature,
      operationId: 'listCampaignSettings',
      summary: "The company's stored campaign settings (admin)",
      description: 'Admins only. One row per key ever saved, its value as text; keys never saved take their defaults.',
      response: campaignSettingRowsSchema,
      errors: [FORBIDDEN],
      handler: async ({ actor }) => app.campaigns.listCampaignSettings.execute({ actor }),
    }),
    route({
      method: 'POST',
      path: '/campaign-settings',
      auth: 'isAuth',
      tag,
      feature,
      operationId: 'saveCampaignSettings',
      summary: 'Save some campaign settings; answers every stored row (admin)',
      body: settingsBody,
      description:
        'Admins only. Each key given is checked (numbers as numbers or numeric strings, booleans as `true`/`false` or their strings, ' +
        'lists as arrays or JSON text) and all are saved or none: an unknown key or a value out of range is 422 `ERR_INVALID_CAMPAIGN_SETTING` ' +
        'naming the key. Emits `campaignSettings` (action `create`) with every row.',
      response: campaignSettingRowsSchema,
      errors: [FORBIDDEN, { status: 422, codes: ['ERR_INVALID_CAMPAIGN_SETTING'] }],
      handler: async ({ actor, body }) => app.campaigns.saveCampaignSettings.execute({ actor, settings: body.settings }),
    }),
  ];
}
