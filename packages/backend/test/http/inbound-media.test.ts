import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import WebSocket from 'ws';
import { client, newCompanyWithAdmin, startTestBackend, type TestBackend } from '../support/test-backend.js';
import { startFakeGraph, type FakeGraph } from '../support/fake-graph.js';
import { eventually } from '../support/eventually.js';

interface Frame {
  seq?: number;
  event: string;
  data: { action: string } & Record<string, unknown>;
}

interface MessageFrame {
  id: string;
  body: string;
  mediaUrl: string | null;
  mediaType: string;
  media: { key: string; url: string; contentType: string; filename: string; size: number; status?: string; error?: string } | null;
}

function listen(url: string): Promise<{ ws: WebSocket; frames: Frame[] }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url);
    const frames: Frame[] = [];
    ws.on('message', (raw) => frames.push(JSON.parse(String(raw)) as Frame));
    ws.on('open', () => resolve({ ws, frames }));
    ws.on('error', reject);
  });
}

/**
 * A contact's photo from the embedded runtime's sandbox connector (the file at a URL a fake CDN
 * serves): stored at once with its caption as pending, shown live, then fetched by its job into
 * blob storage under the company, the message's update frame carrying the URL that serves the same
 * bytes; an outage retried, and given up on after the last try with the reason on the message.
 */
const META_APP_SECRET = 'inbound-media-meta-app-secret';

describe("HTTP: a contact's file becomes a message whose URL serves it", () => {
  let b: TestBackend;
  let graph: FakeGraph;
  let cdn: http.Server;
  let cdnUrl: string;
  const hits = new Map<string, number>();
  const photo = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.alloc(4096, 0x2a)]);

  before(async () => {
    cdn = http.createServer((req, res) => {
      const n = (hits.get(req.url ?? '') ?? 0) + 1;
      hits.set(req.url ?? '', n);
      if (req.url === '/photo.png' || (req.url === '/flaky.png' && n > 1)) return void res.writeHead(200, { 'content-type': 'image/png' }).end(photo);
      if (req.url === '/flaky.png' || req.url === '/down.png') return void res.writeHead(503).end();
      res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => cdn.listen(0, '127.0.0.1', resolve));
    cdnUrl = `http://127.0.0.1:${(cdn.address() as AddressInfo).port}`;
    graph = await startFakeGraph({ 'media-page-token': 'MEDIA-PAGE' });
    b = await startTestBackend({ ALLOW_PRIVATE_URLS: 'true', INBOUND_MEDIA_RETRY_MS: '50', META_APP_SECRET, META_GRAPH_URL: graph.url });
  });
  after(async () => {
    await b?.close();
    await graph?.close();
    await new Promise<void>((resolve) => cdn.close(() => resolve()));
  });
  beforeEach(async () => {
    await b.reset();
    hits.clear();
  });

  async function desk() {
    const { api, company, token } = await newCompanyWithAdmin(b);
    const id = (await api.post('/chatapp/', { name: 'Files', provider: 'sandbox' })).body.id as number;
    await eventually('the session to connect', async () => (await api.get(`/chatapp/${id}`)).body.status === 'CONNECTED');
    const socket = await listen(`${b.url.replace('http', 'ws')}/${company.id}?token=${token}`);
    const frames = (action: string) =>
      socket.frames.filter((f) => f.event === `company-${company.id}-appMessage` && f.data.action === action).map((f) => f.data.message as MessageFrame);
    const send = (from: string, path: string, body = '') =>
      b.sandbox!.inject(id, { from, body, media: { kind: 'image', mimetype: 'image/png', source: { from: 'url', url: `${cdnUrl}${path}` } } });
    return { api, company, socket, frames, send };
  }

  it('is shown at once as pending with its caption, then its update frame carries a URL serving the same bytes, under the company', async () => {
    const d = await desk();
    await d.send('5511988880001', '/photo.png', 'my receipt');
    const [created] = await eventually('the message shown live', () => (d.frames('create').length ? d.frames('create') : null));
    expect(created).to.deep.include({ body: 'my receipt', mediaType: 'image' });
    const updated = await eventually('the file stored', () => d.frames('update').find((m) => m.id === created!.id && m.mediaUrl));
    expect(updated.media!.status).to.equal(undefined);
    expect(updated.media!.key.startsWith(`public/company-${d.company.id}/media/`)).to.equal(true);
    expect(updated.media!.size).to.equal(photo.length);
    const served = await fetch(`${b.url}${new URL(updated.mediaUrl!).pathname}`);
    expect(served.status).to.equal(200);
    expect(Buffer.from(await served.arrayBuffer()).equals(photo)).to.equal(true);
    // The created frame said pending, and came first (the fetch is due a moment after the message).
    expect(created!.media).to.deep.include({ status: 'pending', url: '' });
    expect(created!.mediaUrl).to.equal(null);
    const page = (await d.api.get(`/messages/${(await d.api.get('/tickets?showAll=true')).body.tickets[0].id}`)).body.messages as MessageFrame[];
    expect(page.find((m) => m.id === created!.id)).to.deep.include({ mediaUrl: updated.mediaUrl, body: 'my receipt' });
    d.socket.ws.close();
  });

  it('an outage is retried with backoff; one that lasts past the last try leaves the message failed with the reason', async () => {
    const d = await desk();
    await d.send('5511988880002', '/flaky.png');
    const flaky = await eventually('the flaky file stored after a retry', () => d.frames('update').find((m) => m.mediaUrl));
    expect(hits.get('/flaky.png')).to.equal(2);
    expect(Buffer.from(await (await fetch(`${b.url}${new URL(flaky.mediaUrl!).pathname}`)).arrayBuffer()).equals(photo)).to.equal(true);

    await d.send('5511988880003', '/down.png', 'are you getting this?');
    const failed = await eventually('the file given up on', () => d.frames('update').find((m) => m.media?.status === 'failed'), 20_000);
    expect(failed).to.deep.include({ body: 'are you getting this?', mediaUrl: null });
    expect(failed.media).to.deep.include({ status: 'failed', error: 'ERR_MEDIA_UNAVAILABLE' });
    expect(hits.get('/down.png')).to.equal(5);
    d.socket.ws.close();
  });

  it("another company's operators are not told of the file, nor can they read its message", async () => {
    const d = await desk();
    const other = await newCompanyWithAdmin(b);
    const spy = await listen(`${b.url.replace('http', 'ws')}/${other.company.id}?token=${other.token}`);
    await d.send('5511988880004', '/photo.png');
    const stored = await eventually('the file stored', () => d.frames('update').find((m) => m.mediaUrl));
    const ticketId = (await d.api.get('/tickets?showAll=true')).body.tickets[0].id as number;
    expect((await other.api.get(`/messages/${ticketId}`)).status).to.be.oneOf([403, 404]);
    expect(spy.frames.filter((f) => f.event.includes('appMessage'))).to.deep.equal([]);
    expect(new URL(stored.mediaUrl!).pathname.startsWith(`/public/company-${d.company.id}/media/`)).to.equal(true);
    spy.ws.close();
    d.socket.ws.close();
  });
  it('a Messenger message with two attachments becomes two messages, each file fetched from its URL', async () => {
    const { api, company } = await newCompanyWithAdmin(b);
    const page = await api.post('/socialnet/', {
      name: 'Página',
      provider: 'sandbox',
      externalId: 'MEDIA-PAGE',
      secrets: { pageAccessToken: 'media-page-token' },
    });
    expect(page.status, JSON.stringify(page.body)).to.equal(201);
    const raw = JSON.stringify({
      object: 'page',
      entry: [
        {
          id: 'MEDIA-PAGE',
          time: Date.now(),
          messaging: [
            {
              sender: { id: 'PSID-MEDIA' },
              recipient: { id: 'MEDIA-PAGE' },
              timestamp: Date.now(),
              message: {
                mid: 'm_media_1',
                attachments: [
                  { type: 'image', payload: { url: `${cdnUrl}/photo.png` } },
                  { type: 'file', payload: { url: `${cdnUrl}/photo.png` } },
                ],
              },
            },
          ],
        },
      ],
    });
    const signature = `sha256=${createHmac('sha256', META_APP_SECRET).update(raw).digest('hex')}`;
    expect((await client(b.url).post('/webhook/', raw, { 'x-hub-signature-256': signature })).body).to.deep.equal({ received: true, accepted: 2 });
    const stored = await eventually('both files stored', async () => {
      const ticket = (await api.get('/tickets?showAll=true')).body.tickets[0] as { id: number } | undefined;
      const messages = ticket ? ((await api.get(`/messages/${ticket.id}`)).body.messages as MessageFrame[]) : [];
      return messages.length === 2 && messages.every((m) => m.mediaUrl) && messages;
    });
    expect(stored.map((m) => m.mediaType).sort()).to.deep.equal(['application', 'image']);
    for (const m of stored) {
      expect(new URL(m.mediaUrl!).pathname.startsWith(`/public/company-${company.id}/media/`)).to.equal(true);
      expect(Buffer.from(await (await fetch(`${b.url}${new URL(m.mediaUrl!).pathname}`)).arrayBuffer()).equals(photo)).to.equal(true);
    }
  });
});
