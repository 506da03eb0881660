import { MAX_GREETING_MEDIA_BYTES, type Application } from '@servicedesk/core';
import { z } from 'zod';
import { route } from '../http/route.js';
import { id, idParam } from '../http/schemas.js';

const kind = z.enum(['chatapp', 'socialnet', 'bizchat']);
const provider = z.enum(['sandbox', 'baileys', 'messenger', 'instagram']);
const status = z.enum(['OPENING', 'qrcode', 'CONNECTED', 'DISCONNECTED', 'PENDING']);
const text = z.string().max(4000).nullable();

/** Every editable field; the use cases apply the rules (name, token format, provider of the kind). */
const connectionFields = z.object({
  name: z.string().max(120),
  provider,
  greetingMessage: text,
  farewellMessage: text,
  outOfHoursMessage: text,
  isDefault: z.boolean(),
  reopenWindowMinutes: z.number().int().min(0).max(10_080),
  /** The "Token API": write-only, answered masked. */
  token: z.string().max(256).nullable(),
  externalId: z.string().max(128).nullable(),
  secrets: z.record(z.string().max(64), z.string().max(4096)),
  /** The queues its menu offers, replacing the current ones. */
  queueIds: z.array(id).max(100),
}).partial();

const createBody = connectionFields.extend({ name: z.string().max(120) });

/**
 * A page or account as Meta's documentation names it: `channel` facebook|instagram, `pageId`,
 * `pageAccessToken` — accepted beside the generic `provider`, `externalId` and `secrets`.
 */
const socialBody = createBody.extend({
  channel: z.enum(['facebook', 'instagram']).optional(),
  pageId: z.string().min(1).max(128).optional(),
  pageAccessToken: z.string().min(1).max(4096).optional(),
}).transform(({ channel, pageId, pageAccessToken, ...rest }) => ({
  ...rest,
  ...(channel ? { provider: channel === 'facebook' ? ('messenger' as const) : ('instagram' as const) } : {}),
  ...(pageId ? { externalId: pageId } : {}),
  ...(pageAccessToken ? { secrets: { ...rest.secrets, pageAccessToken } } : {}),
}));
const filterQuery = z.object({ kind: kind.optional(), status: status.optional(), provider: provider.optional() });

/**
 * Connections (chat-application sessions and social-network pages) and their sessions. Reads are
 * open to every operator of the company; changes need an admin; `/chatapp-admin/*` and
 * `/chatapp/all` reach every company and need a super user.
 */
export function connectionRoutes(app: Application) {
  const tag = 'Chat application, social network and sessions (connections)';
  const byId = idParam('chatappId');
  return [
    route({
      method: 'GET', path: '/chatapp/', auth: 'isAuth', tag, summary: 'The company connections',
      handler: async ({ actor }) => app.listConnections.execute({ actor }),
    }),
    route({
      method: 'GET', path: '/chatapp/filter', auth: 'isAuth', tag, summary: 'The company connections filtered by kind, status and provider',
      query: filterQuery,
      handler: async ({ actor, query }) => app.listConnections.execute({ actor, ...query }),
    }),
    route({
      method: 'GET', path: '/chatapp/all', auth: 'isAuth', tag, summary: 'Every company connections (super)', query: filterQuery,
      handler: async ({ actor, query }) => app.listAllConnections.execute({ actor, ...query }),
    }),
    route({
      method: 'POST', path: '/chatapp/', auth: 'isAuth', tag, summary: 'Create a chat-application connection (admin)', status: 201,
      body: createBody,
      handler: async ({ actor, body }) => app.createConnection.execute({ actor, kind: 'chatapp', ...body }),
    }),
    route({
      method: 'POST', path: '/socialnet/', auth: 'isAuth', tag, summary: 'Connect a social-network page or account (admin)', status: 201,
      body: socialBody,
      handler: async ({ actor, body }) => app.createConnection.execute({ actor, kind: 'socialnet', ...body }),
    }),
    route({
      method: 'GET', path: '/chatapp/:chatappId', auth: 'isAuth', tag, summary: 'Show a connection', params: byId,
      handler: async ({ actor, params }) => app.showConnection.execute({ actor, connectionId: params.chatappId }),
    }),
    route({
      method: 'PUT', path: '/chatapp/:chatappId', auth: 'isAuth', tag, summary: 'Update a connection (admin); `token: null` removes the token',
      params: byId, body: connectionFields.extend({ kind: kind.optional() }),
      handler: async ({ actor, params, body }) => app.updateConnection.execute({ actor, connectionId: params.chatappId, ...body }),
    }),
    route({
      method: 'DELETE', path: '/chatapp/:chatappId', auth: 'isAuth', tag, summary: 'Log out and delete a connection (admin)', params: byId,
      handler: async ({ actor, params }) => {
        await app.deleteConnection.execute({ actor, connectionId: params.chatappId });
        return { message: 'Connection deleted' };
      },
    }),
    route({
      method: 'POST', path: '/closedimported/:chatappId', auth: 'isAuth', tag, summary: 'Close the pending unassigned tickets of a connection (admin)',
      params: byId,
      handler: async ({ actor, params }) => app.closeImportedTickets.execute({ actor, connectionId: params.chatappId }),
    }),
    route({
      method: 'POST', path: '/chatapp-restart/', auth: 'isAuth', tag, summary: 'Restart every chat-application session of the company (admin)',
      handler: async ({ actor }) => {
        const connections = await app.restartAllSessions.execute({ actor });
        return { restarted: connections.length, connections };
      },
    }),
    route({
      method: 'POST', path: '/chatapp/:chatappId/media-upload', auth: 'isAuth', tag, summary: 'Attach the greeting file (field `file`, admin)',
      params: byId, multipart: { fileFields: ['file'], maxFileBytes: MAX_GREETING_MEDIA_BYTES, maxFiles: 1 },
      handler: async ({ actor, params, multipart }) =>
        app.setGreetingMedia.execute({ actor, connectionId: params.chatappId, file: multipart.files.file?.[0] }),
    }),
    route({
      method: 'DELETE', path: '/chatapp/:chatappId/media-upload', auth: 'isAuth', tag, summary: 'Remove the greeting file (admin)', params: byId,
      handler: async ({ actor, params }) => app.removeGreetingMedia.execute({ actor, connectionId: params.chatappId }),
    }),
    route({
      method: 'GET', path: '/chatapp-admin/:chatappId', auth: 'isAuth', tag, summary: 'Show any company connection (super)', params: byId,
      handler: async ({ actor, params }) => app.showConnection.execute({ actor, connectionId: params.chatappId, anyCompany: true }),
    }),
    route({
      method: 'PUT', path: '/chatapp-admin/:chatappId', auth: 'isAuth', tag, summary: 'Update any company connection (super)', params: byId,
      body: connectionFields.extend({ kind: kind.optional() }),
      handler: async ({ actor, params, body }) => app.updateConnection.execute({ actor, connectionId: params.chatappId, anyCompany: true, ...body }),
    }),
    route({
      method: 'DELETE', path: '/chatapp-admin/:chatappId', auth: 'isAuth', tag, summary: 'Delete any company connection (super)', params: byId,
      handler: async ({ actor, params }) => {
        await app.deleteConnection.execute({ actor, connectionId: params.chatappId, anyCompany: true });
        return { message: 'Connection deleted' };
      },
    }),
    route({
      method: 'POST', path: '/chatappsession/:chatappId', auth: 'isAuth', tag, summary: 'Start the session (admin)', params: byId,
      handler: async ({ actor, params }) => app.controlSession.execute({ actor, connectionId: params.chatappId, action: 'start' }),
    }),
    route({
      method: 'PUT', path: '/chatappsession/:chatappId', auth: 'isAuth', tag, summary: 'Restart the session (admin)', params: byId,
      handler: async ({ actor, params }) => app.controlSession.execute({ actor, connectionId: params.chatappId, action: 'restart' }),
    }),
    route({
      method: 'DELETE', path: '/chatappsession/:chatappId', auth: 'isAuth', tag, summary: 'Log the session out (admin)', params: byId,
      handler: async ({ actor, params }) => app.controlSession.execute({ actor, connectionId: params.chatappId, action: 'logout' }),
    }),
  ];
}
