import { createServer, type Server } from 'node:http';
import { expect } from 'chai';
import { pino } from 'pino';
import WebSocket from 'ws';
import { InMemoryCache, InProcessRealtimeFanout, UnauthorizedError, type Actor, type RealtimeViewer, type Ticket } from '@servicedesk/core';
import { seqKey, WsNamespaces, WsRealtimeEvents, type AccessApi } from '../src/index.js';

const COMPANY = 1;
const ANA: Actor = { userId: 10, companyId: COMPANY, profile: 'user' };
const BOSS: Actor = { userId: 1, companyId: COMPANY, profile: 'admin' };

interface Frame {
  seq: number;
  event: string;
  data: Record<string, any>;
}

describe('Realtime namespaces: per-socket audience and re-checks', () => {
  let server: Server;
  let namespaces: WsNamespaces;
  let events: WsRealtimeEvents;
  let fanout: InProcessRealtimeFanout;
  let cache: InMemoryCache;
  let url: string;
  const versions = new Map<number, number>();
  const tickets = new Map<number, Pick<Ticket, 'id' | 'queueId' | 'userId' | 'status'>>();

  const viewer = async (actor: Actor): Promise<RealtimeViewer | null> => {
    const version = versions.get(actor.userId);
    if (version === undefined) return null;
    const seesAll = actor.profile !== 'user';
    return { tokenVersion: version, name: `User ${actor.userId}`, access: { actor, seesAll, queueIds: seesAll ? [] : [7] } };
  };
  const app = {
    identity: {
      authenticate: {
        execute: async (token?: string) => {
          const actor = token === 'ana' ? ANA : token === 'boss' ? BOSS : null;
          if (!actor || !versions.has(actor.userId)) throw new UnauthorizedError('ERR_SESSION_EXPIRED');
          return { actor, mustChangePassword: false };
        },
      },
    },
  } as unknown as AccessApi;

  const deps = () => ({
    app,
    cache,
    fanout,
    logger: pino({ level: 'silent' }),
    viewer,
    ticket: async (_companyId: number, id: number) => tickets.get(id) ?? null,
  });

  beforeEach(async () => {
    versions.clear();
    versions.set(ANA.userId, 0).set(BOSS.userId, 0);
    tickets.clear();
    cache = new InMemoryCache();
    fanout = new InProcessRealtimeFanout();
    events = new WsRealtimeEvents({ cache, fanout, tickets: { findById: async (_c, id) => (tickets.get(id) as Ticket | undefined) ?? null } });
    server = createServer();
    namespaces = new WsNamespaces({ ...deps(), recheckMs: 50 });
    await namespaces.attach(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    const address = server.address();
    url = `ws://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/${COMPANY}`;
  });
  afterEach(async () => {
    await namespaces.close();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  async function open(token: string, at = url) {
    const ws = new WebSocket(`${at}?token=${token}`);
    const frames: Frame[] = [];
    const waiters = new Set<() => void>();
    ws.on('message', (raw) => {
      frames.push(JSON.parse(String(raw)) as Frame);
      for (const w of [...waiters]) w();
    });
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    return {
      ws,
      frames,
      waitFor: (match: (f: Frame) => boolean) =>
        new Promise<Frame>((resolve, reject) => {
          const timer = setTimeout(() => reject(new Error(`no matching frame (${JSON.stringify(frames)})`)), 3000);
          const check = () => {
            const f = frames.find(match);
            if (f) {
              waiters.delete(check);
              clearTimeout(timer);
              resolve(f);
            }
          };
          waiters.add(check);
          check();
        }),
    };
  }
  const marker = (value: string) => events.publish(COMPANY, { entity: 'settings', data: { action: 'update', setting: { key: 'marker', value } } });

  it('narrows a bulk close to the tickets the user may read, and drops it when there are none', async () => {
    tickets.set(1, { id: 1, queueId: 7, userId: ANA.userId, status: 'closed' });
    tickets.set(2, { id: 2, queueId: 8, userId: 99, status: 'closed' });
    const ana = await open('ana');
    const boss = await open('boss');
    await events.publish(COMPANY, { entity: 'ticket', data: { action: 'closeMany', ticketIds: [2], status: 'closed' } });
    await events.publish(COMPANY, { entity: 'ticket', data: { action: 'closeMany', ticketIds: [1, 2], status: 'closed' } });
    await marker('end');
    await ana.waitFor((f) => f.data.setting?.value === 'end');
    await boss.waitFor((f) => f.data.setting?.value === 'end');
    expect(ana.frames.filter((f) => f.data.action === 'closeMany').map((f) => f.data.ticketIds)).to.deep.equal([[1]]);
    expect(boss.frames.filter((f) => f.data.action === 'closeMany').map((f) => f.data.ticketIds)).to.deep.equal([[2], [1, 2]]);
    ana.ws.close();
    boss.ws.close();
  });

  it('looks up the ticket of a message update; a frame without an audience (an older instance) goes only to those who see every ticket', async () => {
    tickets.set(3, { id: 3, queueId: 7, userId: null, status: 'pending' });
    tickets.set(4, { id: 4, queueId: 8, userId: null, status: 'pending' });
    const ana = await open('ana');
    const boss = await open('boss');
    const message = (id: number, ticketId: number) => ({ id, ticketId, body: `m${id}` }) as any;
    await events.publish(COMPANY, { entity: 'appMessage', data: { action: 'update', message: message(40, 4) } });
    await events.publish(COMPANY, { entity: 'appMessage', data: { action: 'update', message: message(30, 3) } });
    const seq = await cache.increment(seqKey(COMPANY), 3600);
    await fanout.publish(COMPANY, JSON.stringify({ seq, event: `company-${COMPANY}-probe`, data: { action: 'probe' } }));
    await marker('end');
    await ana.waitFor((f) => f.data.setting?.value === 'end');
    await boss.waitFor((f) => f.data.setting?.value === 'end');
    expect(ana.frames.map((f) => f.data.message?.id ?? f.data.action)).to.deep.equal([30, 'update']);
    expect(boss.frames.map((f) => f.data.message?.id ?? f.data.action)).to.deep.equal([40, 30, 'probe', 'update']);
    ana.ws.close();
    boss.ws.close();
  });

  it('tells the viewers of a ticket across instances sharing the fan-out, to its readers only; a socket closing on one instance leaves on every other', async () => {
    tickets.set(5, { id: 5, queueId: 7, userId: null, status: 'pending' });
    tickets.set(6, { id: 6, queueId: 8, userId: null, status: 'pending' });
    // A second instance on its own HTTP server, the fan-out shared (as Redis or NATS would).
    const otherServer = createServer();
    const other = new WsNamespaces(deps());
    await other.attach(otherServer);
    await new Promise<void>((resolve) => otherServer.listen(0, '127.0.0.1', () => resolve()));
    const address = otherServer.address();
    const otherUrl = `ws://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/${COMPANY}`;
    try {
      const ana = await open('ana');
      const boss = await open('boss', otherUrl);
      boss.ws.send(JSON.stringify({ event: 'joinChatBox', data: 6 }));
      boss.ws.send(JSON.stringify({ event: 'joinChatBox', data: 5 }));
      const joined = await ana.waitFor((f) => f.event.endsWith('-ticketViewer'));
      expect(joined).to.deep.equal({
        event: `company-${COMPANY}-ticketViewer`,
        data: { action: 'join', ticketId: 5, userId: BOSS.userId, userName: 'User 1' },
      });
      ana.ws.send(JSON.stringify({ event: 'joinChatBox', data: 5 }));
      await boss.waitFor((f) => f.event.endsWith('-ticketViewer') && f.data.userId === ANA.userId && f.data.action === 'join');
      boss.ws.close();
      await ana.waitFor((f) => f.event.endsWith('-ticketViewer') && f.data.action === 'leave');
      await marker('end');
      await ana.waitFor((f) => f.data.setting?.value === 'end');
      // Ticket 6 (queue 8) is not Ana's to see: neither its join nor its leave reached her.
      expect(ana.frames.filter((f) => f.event.endsWith('-ticketViewer')).map((f) => [f.data.action, f.data.ticketId, f.data.userId])).to.deep.equal([
        ['join', 5, BOSS.userId],
        ['join', 5, ANA.userId],
        ['leave', 5, BOSS.userId],
      ]);
      ana.ws.close();
    } finally {
      await other.close();
      await new Promise<void>((resolve) => otherServer.close(() => resolve()));
    }
  });

  it('closes a socket with 4001 when the periodic re-check finds its tokens revoked, without any event', async () => {
    const ana = await open('ana');
    const boss = await open('boss');
    const closed = new Promise<[number, string]>((resolve) => ana.ws.once('close', (code, reason) => resolve([code, String(reason)])));
    versions.set(ANA.userId, 1);
    expect(await closed).to.deep.equal([4001, 'ERR_SESSION_EXPIRED']);
    await marker('still here');
    await boss.waitFor((f) => f.data.setting?.value === 'still here');
    boss.ws.close();
  });
});
