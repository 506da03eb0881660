import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { DomainError, type InboundMedia, type InboundMediaRequest } from '@servicedesk/core';
import { expect } from 'chai';
import { GraphMediaFetcher, parseMetaDelivery, UrlMediaFetcher } from '../src/index.js';
import { parseBizchatDelivery } from '../src/bizchat/bizchat-webhook.js';

const codeOf = (p: Promise<unknown>) =>
  p.then(
    () => 'resolved',
    (err: unknown) => (err instanceof DomainError ? err.code : String(err)),
  );

describe("Meta's webhooks: a contact's files", () => {
  const cloud = (message: Record<string, unknown>) =>
    parseBizchatDelivery({
      object: 'whatsapp_business_account',
      entry: [
        {
          id: 'WABA',
          changes: [
            {
              field: 'messages',
              value: {
                metadata: { phone_number_id: 'PN1' },
                messages: [{ id: 'wamid.X', from: '5511988887777', timestamp: '1700000000', ...message }],
              },
            },
          ],
        },
      ],
    }).numbers[0]!.events[0] as { body: string; media?: InboundMedia };

  it('Cloud API image, audio (voice), video, document and sticker messages carry their media id, the caption as the body', () => {
    expect(cloud({ type: 'image', image: { id: 'M1', mime_type: 'image/jpeg', sha256: 'x', caption: 'my receipt' } })).to.deep.include({
      body: 'my receipt',
      media: { kind: 'image', mimetype: 'image/jpeg', source: { from: 'cloudapi', mediaId: 'M1' } },
    });
    expect(cloud({ type: 'audio', audio: { id: 'M2', mime_type: 'audio/ogg; codecs=opus', voice: true } }).media).to.deep.equal({
      kind: 'voice',
      mimetype: 'audio/ogg; codecs=opus',
      source: { from: 'cloudapi', mediaId: 'M2' },
    });
    expect(cloud({ type: 'audio', audio: { id: 'M3', mime_type: 'audio/mpeg' } }).media!.kind).to.equal('audio');
    expect(cloud({ type: 'video', video: { id: 'M4', mime_type: 'video/mp4' } })).to.deep.include({ body: '' });
    expect(cloud({ type: 'document', document: { id: 'M5', mime_type: 'application/pdf', filename: 'invoice.pdf' } }).media).to.deep.include({
      kind: 'document',
      fileName: 'invoice.pdf',
    });
    expect(cloud({ type: 'sticker', sticker: { id: 'M6', mime_type: 'image/webp', animated: false } }).media!.kind).to.equal('sticker');
    // Without an id there is nothing to fetch: the message says what it was in words, as before.
    expect(cloud({ type: 'image', image: { mime_type: 'image/jpeg' } })).to.deep.include({ body: '[image]' });
    expect(cloud({ type: 'image', image: { mime_type: 'image/jpeg' } }).media).to.equal(undefined);
  });

  it('Messenger attachments (image, audio, video, file) carry their URL; each further file is a message of its own', () => {
    const [delivery] = parseMetaDelivery({
      object: 'page',
      entry: [
        {
          id: 'PAGE',
          messaging: [
            {
              sender: { id: 'PSID' },
              timestamp: 1_700_000_000_000,
              message: {
                mid: 'm_1',
                attachments: [
                  { type: 'image', payload: { url: 'https://scontent.xx.fbcdn.net/a.jpg' } },
                  { type: 'file', payload: { url: 'https://cdn.fbsbx.com/v/t59/price%20list.pdf?x=1' } },
                  { type: 'template', payload: { url: 'https://example.com' } },
                ],
              },
            },
            { sender: { id: 'PSID' }, message: { mid: 'm_2', attachments: [{ type: 'audio', payload: { url: 'https://cdn.fbsbx.com/a.mp4' } }] } },
            {
              sender: { id: 'PSID' },
              message: { mid: 'm_3', attachments: [{ type: 'image', payload: { url: 'https://x.fbcdn.net/s.png', sticker_id: 369 } }] },
            },
          ],
        },
      ],
    });
    const events = delivery!.events as Array<{ providerMessageId: string; body: string; media?: InboundMedia }>;
    expect(events.map((e) => [e.providerMessageId, e.body, e.media?.kind, e.media?.source])).to.deep.equal([
      ['m_1', '', 'image', { from: 'url', url: 'https://scontent.xx.fbcdn.net/a.jpg' }],
      ['m_1#2', '', 'document', { from: 'url', url: 'https://cdn.fbsbx.com/v/t59/price%20list.pdf?x=1' }],
      ['m_2', '', 'audio', { from: 'url', url: 'https://cdn.fbsbx.com/a.mp4' }],
      ['m_3', '', 'sticker', { from: 'url', url: 'https://x.fbcdn.net/s.png' }],
    ]);
    expect(events[1]!.media!.fileName).to.equal('price list.pdf');
  });
});

describe("Fetching a contact's file from Meta", () => {
  let server: http.Server;
  let base: string;
  const photo = Buffer.from('89504e470d0a1a0a0000000d4948445200000001', 'hex');
  const seen: Array<{ url: string; authorization: string | undefined }> = [];
  before(async () => {
    // Answers as the Graph API documents: GET /{media-id} → { url, mime_type, sha256, file_size, id }; the URL with the same bearer → the bytes.
    server = http.createServer((req, res) => {
      const authorization = req.headers.authorization;
      seen.push({ url: req.url ?? '', authorization });
      const json = (status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      // A Messenger-like CDN: its URLs need no credentials.
      if (req.url === '/cdn/photo.png') return void res.writeHead(200, { 'content-type': 'image/png' }).end(photo);
      if (req.url === '/cdn/moved.png') return void res.writeHead(302, { location: '/cdn/photo.png' }).end();
      if (authorization !== 'Bearer TOKEN-1') return void json(401, { error: { code: 190, message: 'Invalid OAuth access token' } });
      if (req.url === '/v21.0/MEDIA-1')
        return void json(200, {
          messaging_product: 'whatsapp',
          url: `${base}/files/MEDIA-1?ext=1`,
          mime_type: 'image/png',
          sha256: 'x',
          file_size: photo.length,
          id: 'MEDIA-1',
        });
      if (req.url === '/v21.0/MEDIA-BIG')
        return void json(200, { url: `${base}/files/MEDIA-1`, mime_type: 'image/png', file_size: 10_000_000, id: 'MEDIA-BIG' });
      if (req.url === '/v21.0/MEDIA-GONE') return void json(400, { error: { code: 100, message: 'Unsupported get request' } });
      if (req.url === '/v21.0/MEDIA-DOWN') return void json(500, { error: { code: 2, message: 'Service temporarily unavailable' } });
      if (req.url === '/files/MEDIA-1?ext=1' || req.url === '/files/MEDIA-1') return void res.writeHead(200, { 'content-type': 'image/png' }).end(photo);
      res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));
  beforeEach(() => {
    seen.length = 0;
  });

  const request = (source: InboundMedia['source'], token = 'TOKEN-1', maxBytes = 1024): InboundMediaRequest => ({
    media: { kind: 'image', mimetype: 'image/png', source },
    connection: { id: 3, companyId: 1, provider: 'cloudapi', externalId: 'PN1', secrets: { accessToken: token } },
    maxBytes,
  });

  it("the Cloud API: the media id's URL, then its bytes, both with the connection's token", async () => {
    const graph = new GraphMediaFetcher({ baseUrl: `${base}/v21.0`, allowPrivate: true });
    const got = await graph.fetch(request({ from: 'cloudapi', mediaId: 'MEDIA-1' }));
    expect(got.data.equals(photo)).to.equal(true);
    expect(got.contentType).to.equal('image/png');
    expect(seen).to.deep.equal([
      { url: '/v21.0/MEDIA-1', authorization: 'Bearer TOKEN-1' },
      { url: '/files/MEDIA-1?ext=1', authorization: 'Bearer TOKEN-1' },
    ]);
  });

  it('the Cloud API: a wrong token, an unknown id, a file over the cap, an outage, a URL inside our network', async () => {
    const graph = new GraphMediaFetcher({ baseUrl: `${base}/v21.0`, allowPrivate: true });
    expect(await codeOf(graph.fetch(request({ from: 'cloudapi', mediaId: 'MEDIA-1' }, 'WRONG')))).to.equal('ERR_MEDIA_REFUSED');
    expect(await codeOf(graph.fetch(request({ from: 'cloudapi', mediaId: 'MEDIA-GONE' })))).to.equal('ERR_MEDIA_NOT_FOUND');
    expect(await codeOf(graph.fetch(request({ from: 'cloudapi', mediaId: 'MEDIA-BIG' })))).to.equal('ERR_MEDIA_TOO_LARGE');
    expect(await codeOf(graph.fetch(request({ from: 'cloudapi', mediaId: 'MEDIA-1' }, 'TOKEN-1', 10)))).to.equal('ERR_MEDIA_TOO_LARGE');
    expect(await codeOf(graph.fetch(request({ from: 'cloudapi', mediaId: 'MEDIA-DOWN' })))).to.equal('ERR_MEDIA_UNAVAILABLE');
    // The file's URL comes from an answer: without allowPrivate a loopback one is refused.
    const strict = new GraphMediaFetcher({ baseUrl: `${base}/v21.0` });
    expect(await codeOf(strict.fetch(request({ from: 'cloudapi', mediaId: 'MEDIA-1' })))).to.equal('ERR_URL_NOT_ALLOWED');
  });

  it('a plain URL (Messenger): a GET without credentials, redirects followed, capped; a refusal, a URL inside our network', async () => {
    const url = new UrlMediaFetcher({ allowPrivate: true });
    const got = await url.fetch(request({ from: 'url', url: `${base}/cdn/moved.png` }));
    expect(got).to.deep.include({ contentType: 'image/png' });
    expect(got.data.equals(photo)).to.equal(true);
    expect(seen.map((s) => [s.url, s.authorization])).to.deep.equal([
      ['/cdn/moved.png', undefined],
      ['/cdn/photo.png', undefined],
    ]);
    expect(await codeOf(url.fetch(request({ from: 'url', url: `${base}/cdn/photo.png` }, 'TOKEN-1', 10)))).to.equal('ERR_MEDIA_TOO_LARGE');
    expect(await codeOf(url.fetch(request({ from: 'url', url: `${base}/files/MEDIA-1` })))).to.equal('ERR_MEDIA_REFUSED');
    expect(await codeOf(new UrlMediaFetcher().fetch(request({ from: 'url', url: `${base}/cdn/photo.png` })))).to.equal('ERR_URL_NOT_ALLOWED');
  });
});
