import type { Application } from '@servicedesk/core';
import type { ProxyInput } from '@servicedesk/core/proxies/manage-proxies';
import { PROXY_PROTOCOLS, PROXY_STATUSES } from '@servicedesk/core/proxies/proxy';
import { z } from 'zod';
import { deletedSchema } from '../company-api/company-api-schemas.js';
import { route, type RouteError } from '../http/route.js';
import { formBoolean, id, idParam } from '../http/schemas.js';
import { assignmentSchema, balanceResultSchema, disableResultSchema, proxyListSchema, proxySchema, proxyStatsSchema } from './proxy-schemas.js';

type ProxiesApp = Pick<Application, 'proxies'>;

const TAG = 'Proxies';
const ADMIN_ONLY: RouteError = { status: 403, codes: ['ERR_NO_PERMISSION'], description: 'Admins only' };
const MANAGED: RouteError = {
  status: 403,
  codes: ['ERR_NO_PERMISSION', 'ERR_PROXY_READ_ONLY'],
  description: "Admins only; the platform's proxies only for the super admin",
};
const NO_PROXY: RouteError = { status: 404, codes: ['ERR_NO_PROXY_FOUND'] };
const FIELD_ERRORS: RouteError = {
  status: 422,
  codes: [
    'ERR_PROXY_INVALID_NAME',
    'ERR_PROXY_INVALID_HOST',
    'ERR_PROXY_INVALID_PORT',
    'ERR_PROXY_INVALID_COUNTRY',
    'ERR_PROXY_INVALID_CAPACITY',
    'ERR_PROXY_INVALID_CREDENTIALS',
    'ERR_PROXY_CHECK_FAILED',
    'ERR_URL_NOT_ALLOWED',
    'ERR_PROXY_CREDENTIALS_UNREADABLE',
  ],
  description: '`ERR_PROXY_CHECK_FAILED`: the tunnel through the proxy failed; `ERR_URL_NOT_ALLOWED`: the proxy is on a private address',
};
const CHATAPP_ERRORS: RouteError[] = [
  { status: 404, codes: ['ERR_NO_CONNECTION_FOUND', 'ERR_NO_PROXY_FOUND', 'ERR_NO_PROXY_ASSIGNMENT'] },
  { status: 422, codes: ['ERR_PROXY_NOT_FOR_CONNECTION'], description: 'Only chat-application (session) connections go through proxies' },
];

/** What a proxy form sends; on an edit the whole loaded proxy may come back (read-only fields are ignored). */
const proxyBody = z
  .object({
    name: z.string().max(1000).meta({ description: 'A label for admins, 1 to 100 characters after trimming', example: 'São Paulo 1' }),
    protocol: z.enum(PROXY_PROTOCOLS).meta({ description: 'Default `http`' }),
    host: z
      .string()
      .max(1000)
      .meta({ description: 'Host name, IPv4 or IPv6 address of the proxy (stored lower case); it must be a public address', example: 'br1.proxies.example' }),
    port: z.coerce.number().int().meta({ description: 'TCP port of the proxy, 1 to 65535', example: 1080 }),
    username: z.string().max(1000).nullable().meta({ description: 'Null or `""`: no authentication' }),
    password: z
      .string()
      .max(1000)
      .nullable()
      .meta({ description: 'Write-only: stored sealed, never shown. On an edit, absent keeps it, null or `""` removes it' }),
    country: z.string().max(100).nullable().meta({ description: 'ISO 3166-1 alpha-2 (`BR`); null: unknown' }),
    maxConnections: z.coerce.number().int().meta({ description: 'Capacity, 1 to 1000; default 5 (a few sessions per address looks natural; many does not)' }),
    active: formBoolean.meta({ description: 'False disables it (its connections move to other proxies); true brings a disabled one back after a check' }),
    skipCheck: formBoolean.meta({
      description:
        'Save without opening a tunnel through the proxy first: it is saved `unchecked` (the health job checks it later). ' +
        'Its address must still be public (422 `ERR_URL_NOT_ALLOWED`)',
    }),
  })
  .partial();

const PROXY_BODY_EXAMPLE = {
  name: 'São Paulo 1',
  protocol: 'socks5',
  host: 'br1.proxies.example',
  port: 1080,
  username: 'acme',
  password: 's3cret-pass',
  country: 'BR',
  maxConnections: 5,
};

const input = (body: z.output<typeof proxyBody>): ProxyInput => Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined)) as ProxyInput;

/**
 * The proxy pools session connections go through (`/proxy*`): the platform's (the super admin's)
 * and each company's own, which connection uses which, balancing, and the pools' figures.
 */
export function proxyRoutes(app: ProxiesApp) {
  const p = app.proxies;
  const byId = idParam('id');
  const chatapp = idParam('chatappId');
  return [
    route({
      method: 'GET',
      path: '/proxy',
      auth: 'isAuth',
      tag: TAG,
      operationId: 'listProxies',
      summary: 'The proxies the company can use (admin)',
      description: "Admins only. The company's own proxies and the platform's, by name, each with how many connections use it. Passwords are never shown.",
      query: z.object({
        status: z.enum(PROXY_STATUSES).optional().meta({ description: 'Only the proxies in this status; absent: every proxy', example: 'healthy' }),
      }),
      response: proxyListSchema,
      errors: [ADMIN_ONLY],
      handler: async ({ actor, query }) => p.listProxies.execute({ actor, ...(query.status ? { status: query.status } : {}) }),
    }),
    route({
      method: 'GET',
      path: '/proxy/stats',
      auth: 'isAuth',
      tag: TAG,
      operationId: 'proxyStats',
      summary: 'Figures of the proxy pool (admin)',
      description: 'Admins only. Capacity, use, status and country of the proxies the company can use, and how many of its session connections have none.',
      response: proxyStatsSchema,
      errors: [ADMIN_ONLY],
      handler: async ({ actor }) => p.proxyStats.execute({ actor }),
    }),
    route({
      method: 'POST',
      path: '/proxy',
      auth: 'isAuth',
      tag: TAG,
      operationId: 'createProxy',
      summary: "Add a proxy (admin; the super admin adds to the platform's pool)",
      body: proxyBody.required({ name: true, host: true, port: true }).meta({ example: PROXY_BODY_EXAMPLE }),
      description:
        "An admin adds to the company's pool, the super admin to the platform's (every company may use it). A tunnel is opened through the proxy " +
        'first (to a fixed target, never one the request names): when it fails nothing is saved (422 `ERR_PROXY_CHECK_FAILED`), unless ' +
        '`skipCheck` (then saved `unchecked`). A proxy on an address that is not public is refused either way (422 `ERR_URL_NOT_ALLOWED`). ' +
        'The password is sealed (AES-256-GCM) and never shown again.',
      response: proxySchema,
      errors: [ADMIN_ONLY, FIELD_ERRORS],
      handler: async ({ actor, body }) => p.createProxy.execute({ ...input(body), actor, name: body.name, host: body.host, port: body.port }),
    }),
    route({
      method: 'PUT',
      path: '/proxy/:id',
      auth: 'isAuth',
      tag: TAG,
      operationId: 'updateProxy',
      summary: 'Edit a proxy (admin)',
      params: byId,
      body: proxyBody.meta({ example: { maxConnections: 10, country: 'BR', active: true } }),
      description:
        'Only the fields sent change (the password only when `password` is sent). A new address or credentials, or `active: true` on a disabled proxy, ' +
        'is checked through the proxy first; the running sessions on it then restart. `active: false` disables it and moves its connections to other proxies.',
      response: proxySchema,
      errors: [MANAGED, NO_PROXY, FIELD_ERRORS],
      handler: async ({ actor, params, body }) => p.updateProxy.execute({ ...input(body), actor, proxyId: params.id }),
    }),
    route({
      method: 'DELETE',
      path: '/proxy/:id',
      auth: 'isAuth',
      tag: TAG,
      operationId: 'deleteProxy',
      summary: 'Remove a proxy (admin)',
      params: byId,
      query: z.object({
        force: formBoolean
          .optional()
          .meta({ description: '`true` or `1`: remove it even while connections use it, moving them to other proxies; default false (409 instead)' }),
      }),
      description: '409 while connections use it; with `?force=true` they move to the least-loaded other proxies (or to none) and their sessions restart.',
      response: deletedSchema,
      errors: [MANAGED, NO_PROXY, { status: 409, codes: ['ERR_PROXY_IN_USE'] }],
      handler: async ({ actor, params, query }) => {
        await p.deleteProxy.execute({ actor, proxyId: params.id, force: query.force ?? false });
        return { message: 'Proxy deleted' };
      },
    }),
    route({
      method: 'POST',
      path: '/proxy/auto-balance',
      auth: 'isAuth',
      tag: TAG,
      operationId: 'autoBalanceProxies',
      summary: 'Give a proxy to every connection that has none (admin)',
      description:
        "Each of the company's session connections without a proxy gets the least-loaded usable one with room; those left over are in `skipped`. " +
        'Connections that have a proxy keep it (one address per number stays stable).',
      response: balanceResultSchema,
      errors: [ADMIN_ONLY],
      handler: async ({ actor }) => p.autoBalance.execute({ actor }),
    }),
    route({
      method: 'POST',
      path: '/proxy/force-reassign',
      auth: 'isAuth',
      tag: TAG,
      operationId: 'forceReassignProxies',
      summary: 'Move connections off failing, disabled or over-full proxies (admin)',
      description:
        "The company's connections on a proxy that is failing, disabled or above its capacity move to the least-loaded usable one (the same country first).",
      response: balanceResultSchema,
      errors: [ADMIN_ONLY],
      handler: async ({ actor }) => p.forceReassign.execute({ actor }),
    }),
    route({
      method: 'POST',
      path: '/proxy/force-rebalance-all',
      auth: 'isAuth',
      tag: TAG,
      operationId: 'forceRebalanceAllProxies',
      summary: 'Spread every connection evenly over the usable proxies (admin)',
      description:
        "Computes an even share of the company's connections for each usable proxy (by its free capacity) and moves only the connections above " +
        "their proxy's share, so the fewest sessions reconnect (a mass reconnection is itself a ban signal).",
      response: balanceResultSchema,
      errors: [ADMIN_ONLY],
      handler: async ({ actor }) => p.forceRebalanceAll.execute({ actor }),
    }),
    route({
      method: 'POST',
      path: '/proxy/disable-problematic/:proxyId',
      auth: 'isAuth',
      tag: TAG,
      operationId: 'disableProblematicProxy',
      summary: 'Disable a proxy and move its connections (admin)',
      params: idParam('proxyId'),
      body: z
        .object({
          reason: z
            .string()
            .max(1000)
            .optional()
            .meta({ description: "Kept as `disabledReason` (at most 500 characters); absent or blank: 'disabled as problematic'" }),
        })
        .meta({ example: { reason: 'Banned numbers on this address since yesterday' } }),
      description:
        'Marks the proxy `disabled` with the reason and moves every connection on it (of any company, for a platform proxy) to the least-loaded ' +
        'usable one; `PUT /proxy/:id` with `active: true` brings it back.',
      response: disableResultSchema,
      errors: [MANAGED, NO_PROXY, { status: 422, codes: ['ERR_PROXY_INVALID_REASON'] }],
      handler: async ({ actor, params, body }) =>
        p.disableProblematic.execute({ actor, proxyId: params.proxyId, ...(body.reason !== undefined ? { reason: body.reason } : {}) }),
    }),
    route({
      method: 'POST',
      path: '/proxy/assign/:chatappId',
      auth: 'isAuth',
      tag: TAG,
      operationId: 'assignProxy',
      summary: 'Put a connection on a proxy (admin)',
      params: chatapp,
      body: z
        .object({
          proxyId: id
            .optional()
            .meta({ description: 'A proxy the company can use; absent: the least-loaded usable one with room (a connection that has one keeps it)' }),
        })
        .meta({ example: { proxyId: 4 } }),
      description: 'The session restarts when it runs, to connect through the proxy (its socket is opened through it).',
      response: assignmentSchema,
      errors: [ADMIN_ONLY, ...CHATAPP_ERRORS, { status: 409, codes: ['ERR_PROXY_UNAVAILABLE', 'ERR_PROXY_FULL', 'ERR_PROXY_NO_CAPACITY'] }],
      handler: async ({ actor, params, body }) =>
        p.assignProxy.execute({ actor, chatappId: params.chatappId, ...(body.proxyId !== undefined ? { proxyId: body.proxyId } : {}) }),
    }),
    route({
      method: 'DELETE',
      path: '/proxy/remove/:chatappId',
      auth: 'isAuth',
      tag: TAG,
      operationId: 'removeProxyAssignment',
      summary: 'Take a connection off its proxy (admin)',
      params: chatapp,
      description: 'The session restarts when it runs, to connect directly.',
      response: assignmentSchema,
      errors: [ADMIN_ONLY, ...CHATAPP_ERRORS],
      handler: async ({ actor, params }) => p.removeProxyAssignment.execute({ actor, chatappId: params.chatappId }),
    }),
  ];
}
