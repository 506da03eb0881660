import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { WebSocketServer, type WebSocket } from 'ws';
import { InProcessBroker, SUBJECTS, type SessionControl, type SessionProxy } from '@servicedesk/core';
import { startFakeHttpProxy, startFakeSocks5Proxy, type FakeProxy } from '@servicedesk/core/contracts/fake-proxies';
import type { Database } from '@servicedesk/adapters-persistence';
import { openPgliteDatabase } from '@servicedesk/adapters-persistence/testing';
import { BaileysConnector, CHANNEL_DATABASE_OPTIONS, ChannelRuntime, databaseAuthStore } from '../../src/index.js';

/** A WebSocket that reached the stand-in for WhatsApp Web, with the tunnels each proxy had opened by then. */
interface Arrival {
  readonly socket: WebSocket;
  readonly tunnels: { readonly http: number; readonly socks: number };
}

const HTTP_CREDENTIALS = { username: 'ana', password: 'p@ss:w/rd%' };
const SOCKS_CREDENTIALS = { username: 'bia', password: 's3nh@' };

describe("Baileys sessions through the connection's proxy (real Baileys socket, loopback WebSocket server)", () => {
  let db: Database;
  let server: WebSocketServer;
  let wsPort: number;
  let httpProxy: FakeProxy;
  let socksProxy: FakeProxy;
  const arrivals: Arrival[] = [];
  const waiting: Array<(arrival: Arrival) => void> = [];
  const logs: Array<{ level: string; obj: object; msg: string }> = [];
  const logger = {
    info: (obj: object, msg: string) => {
      logs.push({ level: 'info', obj, msg });
    },
    warn: (obj: object, msg: string) => {
      logs.push({ level: 'warn', obj, msg });
    },
    error: (obj: object, msg: string) => {
      logs.push({ level: 'error', obj, msg });
    },
  };

  /** The next WebSocket to reach the server. */
  const nextArrival = () =>
    new Promise<Arrival>((resolve) => {
      waiting.push(resolve);
    });

  before(async () => {
    db = await openPgliteDatabase(CHANNEL_DATABASE_OPTIONS);
    await db.orm.em.getConnection().execute('delete from channel.auth_state where connection_id in (61, 62)');
    httpProxy = await startFakeHttpProxy({ credentials: HTTP_CREDENTIALS });
    socksProxy = await startFakeSocks5Proxy({ credentials: SOCKS_CREDENTIALS });
    // Holds each socket open without answering Baileys' noise handshake: arriving is what is checked.
    server = new WebSocketServer({ host: '127.0.0.1', port: 0, path: '/ws/chat' });
    await once(server, 'listening');
    wsPort = (server.address() as AddressInfo).port;
    server.on('connection', (socket) => {
      const arrival = { socket, tunnels: { http: httpProxy.tunnels.length, socks: socksProxy.tunnels.length } };
      arrivals.push(arrival);
      waiting.shift()?.(arrival);
    });
  });

  after(async () => {
    for (const client of server.clients) client.terminate();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await httpProxy.close();
    await socksProxy.close();
    await db.close();
  });

  async function runtimeWithBaileys() {
    const broker = new InProcessBroker();
    const connector = new BaileysConnector({
      authStore: databaseAuthStore(db),
      logger,
      webSocketUrl: `ws://127.0.0.1:${wsPort}/ws/chat`,
      // The server never completes the handshake: a closed socket is not tried again.
      reconnect: { baseMs: 60_000, maxMs: 60_000, maxAttempts: 0 },
    });
    const runtime = new ChannelRuntime({ broker, connectors: [connector], logger, retryDelayMs: 5, maxSendAttempts: 2 });
    await runtime.start();
    return { broker, runtime };
  }

  it('opens the socket through the HTTP CONNECT proxy, and through the SOCKS5 proxy after a restart carrying it', async () => {
    const { broker, runtime } = await runtimeWithBaileys();
    try {
      const viaHttp: SessionProxy = { protocol: 'http', host: '127.0.0.1', port: httpProxy.port, ...HTTP_CREDENTIALS };
      const viaSocks: SessionProxy = { protocol: 'socks5', host: '127.0.0.1', port: socksProxy.port, ...SOCKS_CREDENTIALS };
      const control: SessionControl = {
        type: 'SessionControl',
        action: 'start',
        companyId: 1,
        chatappId: 61,
        provider: 'baileys',
        secrets: {},
        externalId: null,
        proxy: viaHttp,
      };

      const first = nextArrival();
      await broker.publish({ id: 'proxy-c1', subject: SUBJECTS.sessionControl(61), payload: control });
      const throughHttp = await first;
      expect(httpProxy.tunnels).to.deep.equal([{ host: '127.0.0.1', port: wsPort, username: 'ana', accepted: true }]);
      expect(throughHttp.tunnels).to.deep.equal({ http: 1, socks: 0 });

      const second = nextArrival();
      const firstClosed = once(throughHttp.socket, 'close');
      await broker.publish({ id: 'proxy-c2', subject: SUBJECTS.sessionControl(61), payload: { ...control, action: 'restart', proxy: viaSocks } });
      const throughSocks = await second;
      await firstClosed;
      expect(socksProxy.tunnels).to.deep.equal([{ host: '127.0.0.1', port: wsPort, username: 'bia', accepted: true }]);
      expect(throughSocks.tunnels).to.deep.equal({ http: 1, socks: 1 });

      const infos = logs.filter((l) => l.level === 'info' && l.msg === 'baileys session goes through its proxy').map((l) => l.obj);
      expect(infos).to.deep.equal([
        { chatappId: 61, proxy: `http://127.0.0.1:${httpProxy.port}` },
        { chatappId: 61, proxy: `socks5://127.0.0.1:${socksProxy.port}` },
      ]);
      const logged = JSON.stringify(logs);
      expect(logged).not.to.include(HTTP_CREDENTIALS.password);
      expect(logged).not.to.include(SOCKS_CREDENTIALS.password);
    } finally {
      await runtime.stop();
    }
  });

  it('connects directly when the connection has no proxy', async () => {
    const { broker, runtime } = await runtimeWithBaileys();
    try {
      const before = { http: httpProxy.tunnels.length, socks: socksProxy.tunnels.length };
      const control: SessionControl = {
        type: 'SessionControl',
        action: 'start',
        companyId: 1,
        chatappId: 62,
        provider: 'baileys',
        secrets: {},
        externalId: null,
      };
      const arrival = nextArrival();
      await broker.publish({ id: 'proxy-c3', subject: SUBJECTS.sessionControl(62), payload: control });
      expect((await arrival).tunnels).to.deep.equal(before);
      expect({ http: httpProxy.tunnels.length, socks: socksProxy.tunnels.length }).to.deep.equal(before);
    } finally {
      await runtime.stop();
    }
  });
});
