import { PROXY_PROTOCOLS, PROXY_STATUSES } from '@servicedesk/core/proxies/proxy';
import { z } from 'zod';

/** What the proxy routes answer (packages/core/src/proxies): proxies with credentials write-only, assignments, balancing outcomes and figures. */

const timestamp = z.iso.datetime();
const proxyId = z.number().int().positive();

const PROXY_EXAMPLE = {
  id: 4,
  companyId: 1,
  isGlobal: false,
  name: 'São Paulo 1',
  protocol: 'socks5' as const,
  host: 'br1.proxies.example',
  port: 1080,
  username: 'acme',
  hasPassword: true,
  country: 'BR',
  maxConnections: 5,
  assignedConnections: 2,
  active: true,
  status: 'healthy' as const,
  disabledReason: null,
  failCount: 0,
  lastError: null,
  lastLatencyMs: 84,
  lastCheckAt: '2025-11-27T18:00:00.000Z',
  createdAt: '2025-11-20T12:00:00.000Z',
  updatedAt: '2025-11-27T18:00:00.000Z',
};

export const proxySchema = z
  .object({
    id: proxyId,
    companyId: z
      .number()
      .int()
      .positive()
      .nullable()
      .meta({ description: "The company whose pool it is; null: the platform's pool (managed by the super admin)" }),
    isGlobal: z.boolean().meta({ description: "In the platform's pool (read-only to company admins)" }),
    name: z.string(),
    protocol: z.enum(PROXY_PROTOCOLS).meta({ description: '`http` / `https` (HTTP CONNECT, in clear or over TLS to the proxy), `socks4`, `socks5`' }),
    host: z.string(),
    port: z.number().int().min(1).max(65535),
    username: z.string().nullable(),
    hasPassword: z.boolean().meta({ description: 'A password is stored (it is never shown)' }),
    country: z
      .string()
      .nullable()
      .meta({ description: "ISO 3166-1 alpha-2 code of the proxy's address; assignment prefers the same country when moving a connection" }),
    maxConnections: z.number().int().positive().meta({ description: 'How many connections may use it at once' }),
    assignedConnections: z.number().int().nonnegative().meta({ description: 'How many connections (of every company) use it now' }),
    active: z.boolean().meta({ description: 'False when disabled' }),
    status: z.enum(PROXY_STATUSES).meta({
      description:
        '`healthy`; `unchecked` (saved with `skipCheck`, not checked yet); `degraded` (the last check failed); `failing` (3 failed checks in a row: ' +
        'assignment skips it and its connections were moved); `disabled`',
    }),
    disabledReason: z.string().nullable(),
    failCount: z.number().int().nonnegative().meta({ description: 'Failed checks in a row' }),
    lastError: z.string().nullable().meta({ description: 'Why the last failed check failed' }),
    lastLatencyMs: z.number().int().nonnegative().nullable().meta({ description: 'How long the last passed check took to open a tunnel' }),
    lastCheckAt: timestamp.nullable(),
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .meta({ id: 'Proxy', description: 'A proxy of a pool session connections go through; the password is write-only', example: PROXY_EXAMPLE });

export const proxyListSchema = z.array(proxySchema).meta({ description: "The company's proxies and the platform's, by name", example: [PROXY_EXAMPLE] });

const moveSchema = z.object({
  chatappId: z.number().int().positive(),
  from: proxyId.nullable().meta({ description: 'The proxy it was on (null: none)' }),
  to: proxyId.nullable().meta({ description: 'The proxy it is on now (null: none: no other had room)' }),
});

const balanceFields = {
  moved: z.array(moveSchema).meta({ description: 'Connections put on another proxy; each running session restarts through it' }),
  skipped: z
    .array(z.object({ chatappId: z.number().int().positive(), reason: z.enum(['no-capacity']) }))
    .meta({ description: 'Connections left as they were, and why' }),
};

export const balanceResultSchema = z.object(balanceFields).meta({
  id: 'ProxyBalanceResult',
  description: 'What a balancing changed',
  example: { moved: [{ chatappId: 7, from: 4, to: 5 }], skipped: [{ chatappId: 9, reason: 'no-capacity' }] },
});

export const disableResultSchema = z.object({ proxyId, ...balanceFields }).meta({
  id: 'ProxyDisableResult',
  description: 'The proxy disabled, and where its connections went',
  example: { proxyId: 4, moved: [{ chatappId: 7, from: 4, to: 5 }], skipped: [] },
});

export const assignmentSchema = z
  .object({
    chatappId: z.number().int().positive(),
    proxyId: proxyId.nullable().meta({ description: 'The proxy the connection now goes through (null: none)' }),
    assignedAt: timestamp.nullable(),
    restarted: z.boolean().meta({ description: 'The session was running and restarts to connect through the new proxy' }),
  })
  .meta({
    id: 'ProxyAssignment',
    description: 'Which proxy a connection goes through',
    example: { chatappId: 7, proxyId: 4, assignedAt: '2025-11-27T18:00:00.000Z', restarted: true },
  });

const count = z.number().int().nonnegative();

export const proxyStatsSchema = z
  .object({
    total: count,
    active: count,
    disabled: count,
    capacity: count.meta({ description: 'Connections the proxies not disabled can carry' }),
    used: count.meta({ description: 'Connections on the proxies now' }),
    free: count,
    byStatus: z.object(Object.fromEntries(PROXY_STATUSES.map((s) => [s, count])) as Record<(typeof PROXY_STATUSES)[number], typeof count>),
    byCountry: z.record(z.string(), count).meta({ description: 'Proxies per country (`unknown`: none given)' }),
    perProxy: z.array(
      z.object({
        id: proxyId,
        name: z.string(),
        assigned: count,
        capacity: count,
        utilisation: z.number().nonnegative().meta({ description: 'assigned / capacity (1 = full)' }),
        latencyMs: count.nullable(),
        failCount: count,
        status: z.enum(PROXY_STATUSES),
      }),
    ),
    unassignedConnections: count.meta({ description: "The company's chat-application connections with no proxy" }),
  })
  .meta({
    id: 'ProxyStats',
    description: 'Figures of the proxies the company can use, from what is stored',
    example: {
      total: 2,
      active: 2,
      disabled: 0,
      capacity: 10,
      used: 3,
      free: 7,
      byStatus: { healthy: 1, unchecked: 0, degraded: 1, failing: 0, disabled: 0 },
      byCountry: { BR: 2 },
      perProxy: [{ id: 4, name: 'São Paulo 1', assigned: 2, capacity: 5, utilisation: 0.4, latencyMs: 84, failCount: 0, status: 'healthy' }],
      unassignedConnections: 1,
    },
  });
