import { MAX_GREETING_MEDIA_BYTES, type Application, type ErrorCode } from '@servicedesk/core';
import { z } from 'zod';
import { route, type RouteError } from '../http/route.js';
import { id, idParam } from '../http/schemas.js';
import {
  connectionDeletedSchema,
  connectionViewSchema,
  connectionWithQueuesSchema,
  importedTicketsClosedSchema,
  sessionsRestartedSchema,
} from './connection-schemas.js';

const notFound = { status: 404, codes: ['ERR_NO_CONNECTION_FOUND'] } as const;
const adminOnly = { status: 403, codes: ['ERR_NO_PERMISSION'], description: 'The caller is not an admin' } as const;
const superOnly = { status: 403, codes: ['ERR_NO_PERMISSION'], description: 'The caller is not a super user' } as const;
/** The rules a created or changed connection must meet (422). */
const fieldRules: ErrorCode[] = [
  'ERR_INVALID_CONNECTION_NAME',
  'ERR_CONNECTION_TEXT_TOO_LONG',
  'ERR_INVALID_REOPEN_WINDOW',
  'ERR_INVALID_EXTERNAL_ID',
  'ERR_INVALID_SECRETS',
  'ERR_EXTERNAL_ID_REQUIRED',
  'ERR_PAGE_ACCESS_TOKEN_REQUIRED',
  'ERR_INVALID_CONNECTION_TOKEN_FORMAT',
  'ERR_TOO_MANY_QUEUES',
  'ERR_BIZCHAT_ACCOUNT_INCOMPLETE',
];
const createErrors: RouteError[] = [
  {
    status: 403,
    codes: ['ERR_NO_PERMISSION', 'ERR_CONNECTION_CREATION_COUNT'],
    description: "The caller is not an admin, or the plan's connection limit is reached",
  },
  { status: 404, codes: ['ERR_QUEUE_NOT_FOUND', 'ERR_NO_PROMPT_FOUND'] },
  { status: 409, codes: ['ERR_TOKEN_IN_USE'] },
  { status: 422, codes: ['ERR_INVALID_PROVIDER', ...fieldRules] },
];
const updateErrors = (forbidden: typeof adminOnly | typeof superOnly): RouteError[] => [
  forbidden,
  { status: 404, codes: ['ERR_NO_CONNECTION_FOUND', 'ERR_QUEUE_NOT_FOUND', 'ERR_NO_PROMPT_FOUND'] },
  { status: 409, codes: ['ERR_TOKEN_IN_USE'] },
  { status: 422, codes: ['ERR_CONNECTION_KIND_CHANGE', ...fieldRules] },
];
/** A social page is verified with the Graph API and unique on the platform (create, and updates of the page or its token). */
const withPageChecks = (errors: RouteError[]): RouteError[] => [
  ...errors.map(
    (e): RouteError =>
      typeof e === 'number'
        ? e
        : e.status === 409
          ? { ...e, codes: [...(e.codes ?? []), 'ERR_PAGE_IN_USE'] }
          : e.status === 422
            ? { ...e, codes: [...(e.codes ?? []), 'ERR_PAGE_ACCESS_TOKEN_INVALID', 'ERR_PAGE_NOT_OWNED'] }
            : e,
  ),
  { status: 503, codes: ['ERR_GRAPH_API_UNAVAILABLE'], description: 'The Graph API could not be asked whom the page access token belongs to' },
];
/**
 * A business number (`kind: bizchat`) is verified with the Cloud API — the access token must reach
 * the phone-number id and the number be one of the business account's — and unique on the platform
 * (create, and updates of the number, its token or its account).
 */
const withNumberChecks = (errors: RouteError[], unavailable: string): RouteError[] => [
  ...errors.map(
    (e): RouteError =>
      typeof e === 'number'
        ? e
        : e.status === 409
          ? { ...e, codes: [...(e.codes ?? []), 'ERR_BIZCHAT_NUMBER_IN_USE'] }
          : e.status === 422
            ? { ...e, codes: [...(e.codes ?? []), 'ERR_BIZCHAT_TOKEN_INVALID', 'ERR_BIZCHAT_NUMBER_NOT_OWNED'] }
            : e,
  ),
  // Declared after the page check's 503, so its description (the one the 503 is shown with) covers both.
  { status: 503, codes: ['ERR_BIZCHAT_PROVIDER_UNAVAILABLE'], description: unavailable },
];
const PAGE_OR_NUMBER_UNAVAILABLE =
  'The Graph API could not be asked whom the page access token belongs to, or whether the access token reaches the business number';
const UPDATE_TEXT =
  "Only the fields sent change; `token: null` removes the token, `queueIds` replaces the menu's queues, `promptId` sets or " +
  "(null) removes its assistant (one of the company's prompts), `isDefault: true` unsets the other default. A new page or business number, " +
  'or new secrets for it, is verified with the provider as on creation. A change of provider, page or ' +
  'secrets restarts the session. Emits the `chatapp` event (action `update`) for it and for any connection that lost the default, and ' +
  '`chatappSession` (action `update`) on a restart.';

/**
 * The optional body of a session start or restart: the phone number to pair by code instead of a
 * QR code. The lineage client sends none (an empty body pairs by QR code, as before).
 */
const pairingBody = z
  .object({
    phoneNumber: z
      .string()
      .regex(/^[1-9]\d{7,14}$/, 'The phone number in digits, the country code first (8 to 15 digits, no + or spaces)')
      .optional()
      .meta({
        description:
          "Pair by code instead of QR code: the account's phone number in digits, the country code first (8 to 15 digits, no `+`, spaces or dashes). " +
          'The session, if not paired yet, shows `status: qrcode` with `pairingCode`, the code to type on that phone; absent: a QR code.',
        example: '5511999990000',
      }),
  })
  .meta({ example: { phoneNumber: '5511999990000' } });
const PAIRING_TEXT =
  'With `phoneNumber` (chat-application sessions only), a session not yet paired reports `pairingCode` (the code to type on the phone, in ' +
  "WhatsApp's Linked devices → Link with phone number) instead of `qrcode`.";
const pairingErrors: RouteError = {
  status: 422,
  codes: ['ERR_PAIRING_NOT_SUPPORTED', 'ERR_INVALID_PAIRING_PHONE_NUMBER'],
  description: 'A phone number for a connection that is not a chat-application session, or one that is not digits with the country code',
};
const pairingOf = (body: z.infer<typeof pairingBody>) => (body.phoneNumber ? { pairingPhoneNumber: body.phoneNumber } : {});

const kind = z.enum(['chatapp', 'socialnet', 'bizchat']);
const provider = z.enum(['sandbox', 'baileys', 'messenger', 'instagram', 'cloudapi']);
const status = z.enum(['OPENING', 'qrcode', 'CONNECTED', 'DISCONNECTED', 'PENDING']);
const text = z.string().max(4000).nullable();

/**
 * Every editable field; the use cases apply the rules (name, token format, provider of the kind).
 * The lineage's edit form sends the whole GET answer back with its own fields: what we do not model
 * (`schedules`, `timeSendQueue`…) and the read-only fields are dropped.
 */
const editableFields = z
  .object({
    name: z.string().max(120).meta({ description: 'The name operators see, 1 to 120 characters once trimmed', example: 'Support WhatsApp' }),
    /** Also the lineage's library channel (`beta`, `stable`), which means "the default" here. */
    provider: z.union([provider, z.enum(['beta', 'stable'])]).meta({
      description:
        'The connector: `baileys` (WhatsApp Web, the default of `chatapp`) or `sandbox` (the simulator) for `chatapp`; `messenger` (the default), ' +
        "`instagram` or `sandbox` for `socialnet`; `cloudapi` for `bizchat`. `beta` and `stable` (the lineage's library channels) mean the default " +
        'on create and no change on an edit',
    }),
    greetingMessage: text.meta({ description: 'Sent when a conversation opens (not in groups); empty or null: none' }),
    /** The lineage's name of the farewell, sent when an operator closes a ticket. */
    complationMessage: text.meta({ description: "The farewell, sent when an operator closes a ticket (the lineage's name); empty or null: none" }),
    /** Our former name of `complationMessage`, still accepted. */
    farewellMessage: text.meta({ description: 'The former name of `complationMessage`, used when that is absent' }),
    outOfHoursMessage: text.meta({
      description: "Sent when a contact writes outside the business hours; empty or null: the company's `outOfHoursMessage` setting",
    }),
    isDefault: z.boolean().meta({ description: "Makes it the company's default connection, unsetting the other one; absent on create: false" }),
    reopenWindowMinutes: z.number().int().min(0).max(10_080).meta({
      description:
        "Minutes after a ticket closes during which the contact's next message reopens it rather than opening a new one; 0 (the default on create): never",
    }),
    /** The "Token API": write-only, answered masked (the masked value sent back means unchanged). */
    token: z
      .string()
      .max(256)
      .nullable()
      .meta({
        description:
          'The "Token API" that selects this connection on the message API: 16 to 256 printable characters without spaces, unique on the platform. ' +
          'Write-only (answered masked); on an edit the masked value sent back keeps it, null or empty removes it',
      }),
    externalId: z.string().max(128).nullable().meta({
      description:
        'The page or Instagram account id (`socialnet`, required) or the phone-number id (`bizchat`, required) at the provider: up to 128 letters, digits, `_`, `.`, `:` or `-`; empty or null: none',
    }),
    secrets: z.record(z.string().max(64), z.string().max(4096)).meta({
      description:
        "The provider's credentials by name (at most 20; a name starts with a letter, a value has 1 to 4,096 characters): `pageAccessToken` for `socialnet`, " +
        '`accessToken` and `wabaId` for `bizchat`. Write-only; on an edit merged into the stored ones',
    }),
    /** The queues its menu offers, replacing the current ones. */
    queueIds: z
      .array(id)
      .max(100)
      .meta({ description: "The company's queues its menu offers (at most 100), replacing the current ones; absent on create: none" }),
    /** The AI assistant answering its conversations (one of the company's prompts); null: none. */
    promptId: id.nullable().meta({ description: "The AI assistant answering its conversations, one of the company's prompts; null: none" }),
  })
  .partial();

/** The lineage's names to ours: `complationMessage` is the farewell; `beta`/`stable` leave the provider to the default. */
function toConnectionFields<T extends z.infer<typeof editableFields>>(body: T) {
  const { complationMessage, farewellMessage, provider: given, ...rest } = body;
  const farewell = complationMessage !== undefined ? complationMessage : farewellMessage;
  const provider = given === 'beta' || given === 'stable' ? undefined : given;
  return { ...rest, ...(farewell !== undefined ? { farewellMessage: farewell } : {}), ...(provider !== undefined ? { provider } : {}) };
}

const createBody = editableFields.extend({ name: editableFields.shape.name.unwrap() });

/**
 * A page or account as Meta's documentation names it: `channel` facebook|instagram, `pageId`,
 * `pageAccessToken` — accepted beside the generic `provider`, `externalId` and `secrets`.
 */
const socialBody = createBody
  .extend({
    channel: z
      .enum(['facebook', 'instagram'])
      .optional()
      .meta({ description: '`facebook` (a page: provider `messenger`) or `instagram` (an account linked to a page); wins over `provider`' }),
    pageId: z.string().min(1).max(128).optional().meta({ description: 'The page or Instagram account id; wins over `externalId`', example: '104729318861234' }),
    pageAccessToken: z
      .string()
      .min(1)
      .max(4096)
      .optional()
      .meta({ description: "The page's access token (for Instagram, the linked page's); wins over `secrets.pageAccessToken`" }),
  })
  .transform(({ channel, pageId, pageAccessToken, ...rest }) => ({
    ...toConnectionFields(rest),
    ...(channel ? { provider: channel === 'facebook' ? ('messenger' as const) : ('instagram' as const) } : {}),
    ...(pageId ? { externalId: pageId } : {}),
    ...(pageAccessToken ? { secrets: { ...rest.secrets, pageAccessToken } } : {}),
  }))
  .meta({
    example: {
      name: 'Loja Verde on Facebook',
      channel: 'facebook',
      pageId: '104729318861234',
      pageAccessToken: 'EAAGm0PX4ZCpsBAKZCZAx9ZBZAzQ5b3',
      greetingMessage: 'Olá! Como podemos ajudar?',
      queueIds: [2],
    },
  });
const updateBody = editableFields
  .extend({ kind: kind.optional().meta({ description: "Accepted only when it is the connection's own kind (the edit form sends it back)" }) })
  .transform(toConnectionFields)
  .meta({
    example: {
      name: 'Support WhatsApp',
      greetingMessage: 'Hello! How can we help?',
      complationMessage: 'Thanks for talking to us.',
      outOfHoursMessage: null,
      isDefault: true,
      reopenWindowMinutes: 30,
      queueIds: [2, 5],
      promptId: null,
    },
  });
const filterQuery = z.object({
  kind: kind.optional().meta({ description: 'Only connections of this kind; absent: every kind' }),
  status: status.optional().meta({ description: 'Only connections whose session is in this state; absent: any' }),
  provider: provider.optional().meta({ description: 'Only connections driven by this connector; absent: any' }),
});

/**
 * Connections (chat-application sessions and social-network pages) and their sessions. Reads are
 * open to every operator of the company; changes need an admin; `/chatapp-admin/*` and
 * `/chatapp/all` reach every company and need a super user.
 */
export function connectionRoutes(app: Pick<Application, 'connections' | 'tickets'>) {
  const tag = 'Chat application, social network and sessions (connections)';
  const byId = idParam('chatappId');
  return [
    route({
      method: 'GET',
      path: '/chatapp/',
      auth: 'isAuth',
      tag,
      summary: 'The company connections',
      description: 'Every operator of the company may read them (they pick one to send on); ordered by id.',
      response: z.array(connectionWithQueuesSchema),
      handler: async ({ actor }) => app.connections.listConnections.execute({ actor }),
    }),
    route({
      method: 'GET',
      path: '/chatapp/filter',
      auth: 'isAuth',
      tag,
      summary: 'The company connections filtered by kind, status and provider',
      query: filterQuery,
      description: 'As `GET /chatapp/`, keeping the connections of the given kind, status and provider.',
      response: z.array(connectionWithQueuesSchema),
      handler: async ({ actor, query }) => app.connections.listConnections.execute({ actor, ...query }),
    }),
    route({
      method: 'GET',
      path: '/chatapp/all',
      auth: 'isAuth',
      tag,
      summary: 'Every company connections (super)',
      query: filterQuery,
      description: 'Super users only: the connections of every company, by company then id, without their queues.',
      response: z.array(connectionViewSchema),
      errors: [superOnly],
      handler: async ({ actor, query }) => app.connections.listAllConnections.execute({ actor, ...query }),
    }),
    route({
      method: 'POST',
      path: '/chatapp/',
      auth: 'isAuth',
      tag,
      summary: 'Create a chat-application connection (admin)',
      status: 201,
      body: createBody
        .extend({
          kind: z
            .enum(['chatapp', 'bizchat'])
            .optional()
            .meta({ description: '`chatapp` (a chat-application session, the default) or `bizchat` (a business-API number)' }),
        })
        .transform(({ kind: chosen, ...rest }) => ({ kind: chosen ?? ('chatapp' as const), ...toConnectionFields(rest) }))
        .meta({
          example: {
            name: 'Support WhatsApp',
            provider: 'baileys',
            greetingMessage: 'Hello! How can we help?',
            complationMessage: 'Thanks for talking to us.',
            isDefault: true,
            reopenWindowMinutes: 30,
            token: 'k7Qw2mZp9Xv4Lr8sT1nB',
            queueIds: [2, 5],
          },
        }),
      description:
        "Admins only, within the plan's connection limit. The connection starts `OPENING` and its session is started; " +
        'emits the `chatapp` event (action `update`). The provider defaults to `baileys`. With `kind: bizchat` it is a business-API number ' +
        '(provider `cloudapi`): `externalId` is its phone-number id, `secrets` hold `accessToken` and `wabaId` (the business account). The Cloud API ' +
        "must say the access token reaches the number and that the number is one of the business account's, and no connection of any company " +
        'may have the number already.',
      response: connectionWithQueuesSchema,
      errors: withNumberChecks(createErrors, 'The Cloud API could not be asked whether the access token reaches the business number'),
      handler: async ({ actor, body }) => app.connections.createConnection.execute({ actor, ...body }),
    }),
    route({
      method: 'POST',
      path: '/socialnet/',
      auth: 'isAuth',
      tag,
      summary: 'Connect a social-network page or account (admin)',
      status: 201,
      body: socialBody,
      description:
        "Admins only, within the plan's connection limit: a Facebook page (`channel: facebook`, provider `messenger`, the default) " +
        'or an Instagram account, with its `pageId` and `pageAccessToken` (or `externalId` and `secrets.pageAccessToken`). The Graph API must say the ' +
        "token is the page's (or that of the page the Instagram account is linked to), and no connection of any company may have the page already. " +
        'Emits the `chatapp` event (action `update`).',
      response: connectionWithQueuesSchema,
      errors: withPageChecks(createErrors),
      handler: async ({ actor, body }) => app.connections.createConnection.execute({ actor, kind: 'socialnet', ...body }),
    }),
    route({
      method: 'GET',
      path: '/chatapp/:chatappId',
      auth: 'isAuth',
      tag,
      summary: 'Show a connection',
      params: byId,
      description: 'Any operator of the company.',
      response: connectionWithQueuesSchema,
      errors: [notFound],
      handler: async ({ actor, params }) => app.connections.showConnection.execute({ actor, connectionId: params.chatappId }),
    }),
    route({
      method: 'PUT',
      path: '/chatapp/:chatappId',
      auth: 'isAuth',
      tag,
      summary: 'Update a connection (admin); `token: null` removes the token',
      params: byId,
      body: updateBody,
      description: `Admins only. ${UPDATE_TEXT}`,
      response: connectionWithQueuesSchema,
      errors: withNumberChecks(withPageChecks(updateErrors(adminOnly)), PAGE_OR_NUMBER_UNAVAILABLE),
      handler: async ({ actor, params, body }) => app.connections.updateConnection.execute({ actor, connectionId: params.chatappId, ...body }),
    }),
    route({
      method: 'DELETE',
      path: '/chatapp/:chatappId',
      auth: 'isAuth',
      tag,
      summary: 'Log out and delete a connection (admin)',
      params: byId,
      description: 'Admins only: the session is logged out and the greeting file deleted; emits the `chatapp` event (action `delete`, with `chatappId`).',
      response: connectionDeletedSchema,
      errors: [notFound, adminOnly],
      handler: async ({ actor, params }) => {
        await app.connections.deleteConnection.execute({ actor, connectionId: params.chatappId });
        return { message: 'Connection deleted' as const };
      },
    }),
    route({
      method: 'POST',
      path: '/closedimported/:chatappId',
      auth: 'isAuth',
      tag,
      summary: 'Close the pending unassigned tickets of a connection (admin)',
      params: byId,
      description:
        'Admins only: clears the backlog an import left (pending tickets without operator), without farewell or history entries; ' +
        'emits one `ticket` event (action `closeMany`) naming the closed ids.',
      response: importedTicketsClosedSchema,
      errors: [notFound, adminOnly],
      handler: async ({ actor, params }) => app.tickets.closeImportedTickets.execute({ actor, connectionId: params.chatappId }),
    }),
    route({
      method: 'POST',
      path: '/chatapp-restart/',
      auth: 'isAuth',
      tag,
      summary: 'Restart every chat-application session of the company (admin)',
      description:
        'Admins only. Answers at once: each `chatapp` connection shows `OPENING` and emits the `chatappSession` event (action `update`); ' +
        'the channel runtime then reports its progress in further `chatappSession` events (`OPENING`, then `CONNECTED`, `qrcode` or `DISCONNECTED`). ' +
        'Restarts are coalesced: requests at the same time share one, and a session whose restart was asked in the last 15 s and did not come back ' +
        '`DISCONNECTED` joins that restart (it is listed with its current status) rather than restarting again.',
      response: sessionsRestartedSchema,
      errors: [adminOnly],
      handler: async ({ actor }) => {
        const connections = await app.connections.restartAllSessions.execute({ actor });
        return { restarted: connections.length, connections };
      },
    }),
    route({
      method: 'POST',
      path: '/chatapp/:chatappId/media-upload',
      auth: 'isAuth',
      tag,
      summary: 'Attach the greeting file (field `file`, admin)',
      params: byId,
      body: z.object({}).meta({ description: 'No form field besides `file`; others are ignored', example: {} }),
      multipart: { fileFields: ['file'], maxFileBytes: MAX_GREETING_MEDIA_BYTES, maxFiles: 1 },
      description: 'Admins only: any type of file, replacing the previous one; emits the `chatapp` event (action `update`).',
      response: connectionViewSchema,
      errors: [notFound, adminOnly, { status: 422, codes: ['ERR_NO_FILE'] }, { status: 413, codes: ['ERR_FILE_TOO_LARGE'] }],
      handler: async ({ actor, params, multipart }) =>
        app.connections.setGreetingMedia.execute({ actor, connectionId: params.chatappId, file: multipart.files.file?.[0] }),
    }),
    route({
      method: 'DELETE',
      path: '/chatapp/:chatappId/media-upload',
      auth: 'isAuth',
      tag,
      summary: 'Remove the greeting file (admin)',
      params: byId,
      description: 'Admins only; harmless when there is none. Emits the `chatapp` event (action `update`) when a file was removed.',
      response: connectionViewSchema,
      errors: [notFound, adminOnly],
      handler: async ({ actor, params }) => app.connections.removeGreetingMedia.execute({ actor, connectionId: params.chatappId }),
    }),
    route({
      method: 'GET',
      path: '/chatapp-admin/:chatappId',
      auth: 'isAuth',
      tag,
      summary: 'Show any company connection (super)',
      params: byId,
      description: "Super users only, for any company's connection.",
      response: connectionWithQueuesSchema,
      errors: [notFound, superOnly],
      handler: async ({ actor, params }) => app.connections.showConnection.execute({ actor, connectionId: params.chatappId, anyCompany: true }),
    }),
    route({
      method: 'PUT',
      path: '/chatapp-admin/:chatappId',
      auth: 'isAuth',
      tag,
      summary: 'Update any company connection (super)',
      params: byId,
      body: updateBody,
      description: `Super users only, for any company's connection. ${UPDATE_TEXT}`,
      response: connectionWithQueuesSchema,
      errors: withNumberChecks(withPageChecks(updateErrors(superOnly)), PAGE_OR_NUMBER_UNAVAILABLE),
      handler: async ({ actor, params, body }) =>
        app.connections.updateConnection.execute({ actor, connectionId: params.chatappId, anyCompany: true, ...body }),
    }),
    route({
      method: 'DELETE',
      path: '/chatapp-admin/:chatappId',
      auth: 'isAuth',
      tag,
      summary: 'Delete any company connection (super)',
      params: byId,
      description: "Super users only: as `DELETE /chatapp/:chatappId`, for any company's connection.",
      response: connectionDeletedSchema,
      errors: [notFound, superOnly],
      handler: async ({ actor, params }) => {
        await app.connections.deleteConnection.execute({ actor, connectionId: params.chatappId, anyCompany: true });
        return { message: 'Connection deleted' as const };
      },
    }),
    route({
      method: 'POST',
      path: '/chatappsession/:chatappId',
      auth: 'isAuth',
      tag,
      summary: 'Start the session (admin)',
      params: byId,
      body: pairingBody,
      description:
        'Admins only: the connection shows `OPENING` at once and the runtime reports the real status later (`chatappSession` events, action `update`). ' +
        PAIRING_TEXT,
      response: connectionViewSchema,
      errors: [notFound, adminOnly, pairingErrors],
      handler: async ({ actor, params, body }) =>
        app.connections.controlSession.execute({ actor, connectionId: params.chatappId, action: 'start', ...pairingOf(body) }),
    }),
    route({
      method: 'PUT',
      path: '/chatappsession/:chatappId',
      auth: 'isAuth',
      tag,
      summary: 'Restart the session (admin)',
      params: byId,
      body: pairingBody,
      description:
        'Admins only: the connection shows `OPENING` at once and the runtime reports the real status later (`chatappSession` events, action `update`). ' +
        PAIRING_TEXT,
      response: connectionViewSchema,
      errors: [notFound, adminOnly, pairingErrors],
      handler: async ({ actor, params, body }) =>
        app.connections.controlSession.execute({ actor, connectionId: params.chatappId, action: 'restart', ...pairingOf(body) }),
    }),
    route({
      method: 'DELETE',
      path: '/chatappsession/:chatappId',
      auth: 'isAuth',
      tag,
      summary: 'Log the session out (admin)',
      params: byId,
      description: 'Admins only: the connection shows `DISCONNECTED` at once and emits the `chatappSession` event (action `update`); the connection stays.',
      response: connectionViewSchema,
      errors: [notFound, adminOnly],
      handler: async ({ actor, params }) => app.connections.controlSession.execute({ actor, connectionId: params.chatappId, action: 'logout' }),
    }),
  ];
}
