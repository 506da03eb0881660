import { expect } from 'chai';
import { startFakeHttpProxy } from '@servicedesk/core/contracts/fake-proxies';
import type { CallerApis, ClientCalls, Params } from '../client-call.js';

/**
 * Proxies. No public lineage client has a proxy screen (the routes exist only in the spec), so these
 * entries are the calls such a settings page makes, in our shapes: the pool list with its figures,
 * the proxy modal (create, edit), the balancing buttons, the "disable" action, and the connection
 * page's proxy selector (assign, remove). The proxy is a fake HTTP CONNECT proxy on loopback; the
 * contract's backend checks through it to the default target, which it cannot reach, so the modal
 * saves with `skipCheck` (the checked path is covered by the HTTP tests). The entries that move a
 * connection use one of their own (`proxiedChatappId`), so the shared session is never restarted.
 */

/** What the list and the modal read of a proxy. */
const PROXY = [
  'id',
  'name',
  'protocol',
  'host',
  'port',
  'username',
  'hasPassword',
  'country',
  'maxConnections',
  'assignedConnections',
  'status',
  'active',
  'isGlobal',
];

let port = 0;
let n = 0;

/** A proxy of the company's pool, for an entry that edits, disables or deletes it. */
async function ownProxy(api: CallerApis): Promise<Params> {
  n += 1;
  const res = await api.admin.post('/proxy', {
    name: `Proxy ${n}`,
    protocol: 'http',
    host: '127.0.0.1',
    port,
    username: 'acme',
    password: 'secret',
    skipCheck: true,
  });
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  return { target: res.body.id as number };
}

export default {
  area: 'proxies',
  async prepare(_p, api) {
    const proxy = await startFakeHttpProxy();
    port = proxy.port;
    const res = await api.admin.post('/proxy', {
      name: 'São Paulo 1',
      protocol: 'http',
      host: '127.0.0.1',
      port,
      country: 'BR',
      maxConnections: 50,
      skipCheck: true,
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const connection = await api.admin.post('/chatapp/', { name: 'Proxied', provider: 'sandbox' });
    expect(connection.status, JSON.stringify(connection.body)).to.equal(201);
    return { proxyId: res.body.id as number, proxiedChatappId: connection.body.id as number };
  },
  calls: [
    {
      page: 'pages/Proxies (list)',
      method: 'GET',
      path: '/proxy',
      as: 'admin',
      returns: 'array',
      reads: PROXY.map((f) => `[].${f}`),
      note: 'the password is never in the answer: `hasPassword` tells the admin one is stored',
    },
    {
      page: 'pages/Proxies (figures)',
      method: 'GET',
      path: '/proxy/stats',
      as: 'admin',
      reads: ['total', 'active', 'capacity', 'used', 'free', 'byStatus.healthy', 'perProxy[].id', 'perProxy[].utilisation', 'unassignedConnections'],
    },
    {
      page: 'components/ProxyModal (new)',
      method: 'POST',
      path: '/proxy',
      as: 'admin',
      body: () => ({
        name: 'Rio 1',
        protocol: 'http',
        host: '127.0.0.1',
        port,
        username: 'acme',
        password: 'secret',
        country: 'BR',
        maxConnections: 3,
        skipCheck: true,
      }),
      reads: PROXY,
    },
    {
      page: 'components/ProxyModal (edit)',
      method: 'PUT',
      path: '/proxy/:target',
      as: 'admin',
      setup: async (_p, api) => ownProxy(api),
      body: (p: Params) => ({
        id: p.target,
        name: 'Renomeado',
        protocol: 'http',
        host: '127.0.0.1',
        port,
        username: 'acme',
        hasPassword: true,
        maxConnections: 4,
      }),
      reads: ['id', 'name', 'hasPassword', 'maxConnections'],
      note: 'the modal sends the loaded proxy back without `password`: the stored one stays',
    },
    {
      page: 'pages/Proxies (delete)',
      method: 'DELETE',
      path: '/proxy/:target',
      as: 'admin',
      setup: async (_p, api) => ownProxy(api),
      reads: ['message'],
    },
    {
      page: 'pages/Proxies (disable problematic)',
      method: 'POST',
      path: '/proxy/disable-problematic/:target',
      as: 'admin',
      setup: async (_p, api) => ownProxy(api),
      body: { reason: 'muitas quedas' },
      reads: ['proxyId', 'moved', 'skipped'],
    },
    {
      page: 'components/ChatappModal (proxy selector)',
      method: 'POST',
      path: '/proxy/assign/:proxiedChatappId',
      as: 'admin',
      body: (p: Params) => ({ proxyId: p.proxyId }),
      reads: ['chatappId', 'proxyId', 'restarted'],
      note: 'the session restarts to connect through the proxy',
    },
    {
      page: 'components/ChatappModal (no proxy)',
      method: 'DELETE',
      path: '/proxy/remove/:proxiedChatappId',
      as: 'admin',
      setup: async (p, api) => {
        const res = await api.admin.post(`/proxy/assign/${p.proxiedChatappId}`, { proxyId: p.proxyId });
        expect(res.status, JSON.stringify(res.body)).to.equal(200);
        return {};
      },
      reads: ['chatappId', 'proxyId'],
    },
    {
      page: 'pages/Proxies (auto-balance)',
      method: 'POST',
      path: '/proxy/auto-balance',
      as: 'admin',
      reads: ['moved', 'skipped'],
    },
    {
      page: 'pages/Proxies (force reassign)',
      method: 'POST',
      path: '/proxy/force-reassign',
      as: 'admin',
      reads: ['moved', 'skipped'],
    },
    {
      page: 'pages/Proxies (rebalance all)',
      method: 'POST',
      path: '/proxy/force-rebalance-all',
      as: 'admin',
      reads: ['moved', 'skipped'],
    },
    {
      page: 'pages/Proxies (operator)',
      method: 'GET',
      path: '/proxy',
      as: 'user',
      status: 403,
      reads: ['error'],
      note: '`ERR_NO_PERMISSION`: the page is for admins',
    },
  ],
} satisfies ClientCalls;
