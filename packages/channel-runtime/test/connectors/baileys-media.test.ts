import { randomBytes } from 'node:crypto';
import { readFile, rm } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { DomainError, type InboundMedia, type InboundMediaRequest } from '@servicedesk/core';
import { encryptedStream, type WAMessage } from 'baileys';
import { expect } from 'chai';
import { BaileysMediaFetcher } from '../../src/index.js';
import { inboundOf } from '../../src/connectors/baileys-messages.js';

const KEY = Buffer.alloc(32, 7);
const SHA = Buffer.alloc(32, 9);
const media = { url: 'https://mmg.whatsapp.net/v/t62.7118-24/abc.enc?ccb=11-4', directPath: '/v/t62.7118-24/abc.enc?ccb=11-4', mediaKey: KEY, fileSha256: SHA };

function message(id: string, content: WAMessage['message']): WAMessage {
  return { key: { remoteJid: '5511988887777@s.whatsapp.net', fromMe: false, id }, message: content, pushName: 'Bia', messageTimestamp: 1_700_000_000 };
}

describe("Baileys: a contact's files", () => {
  it('image, video, voice note, audio, document and sticker messages carry where to fetch the file, the caption as the body', () => {
    const whatsapp = { from: 'whatsapp', url: media.url, directPath: media.directPath, mediaKey: KEY.toString('base64'), fileSha256: SHA.toString('base64') };
    const cases: Array<[WAMessage['message'], string, Partial<InboundMedia>]> = [
      [
        { imageMessage: { ...media, mimetype: 'image/jpeg', caption: 'a receipt', fileLength: 2048 } },
        'a receipt',
        { kind: 'image', mimetype: 'image/jpeg', size: 2048 },
      ],
      [{ videoMessage: { ...media, mimetype: 'video/mp4' } }, '', { kind: 'video', mimetype: 'video/mp4' }],
      [{ audioMessage: { ...media, mimetype: 'audio/ogg; codecs=opus', ptt: true } }, '', { kind: 'voice', mimetype: 'audio/ogg; codecs=opus' }],
      [{ audioMessage: { ...media, mimetype: 'audio/mpeg' } }, '', { kind: 'audio', mimetype: 'audio/mpeg' }],
      [
        {
          documentWithCaptionMessage: {
            message: { documentMessage: { ...media, mimetype: 'application/pdf', fileName: 'invoice.pdf', caption: 'the invoice' } },
          },
        },
        'the invoice',
        { kind: 'document', mimetype: 'application/pdf', fileName: 'invoice.pdf' },
      ],
      [{ stickerMessage: { ...media, mimetype: 'image/webp' } }, '', { kind: 'sticker', mimetype: 'image/webp' }],
      [{ ephemeralMessage: { message: { imageMessage: { ...media, mimetype: 'image/png' } } } }, '', { kind: 'image', mimetype: 'image/png' }],
    ];
    cases.forEach(([content, body, expected], i) => {
      const got = inboundOf(message(`M${i}`, content));
      expect(got, `case ${i}`).to.not.equal(undefined);
      expect(got!.body, `case ${i}`).to.equal(body);
      expect(got!.media, `case ${i}`).to.deep.include({ ...expected, source: whatsapp });
    });
  });

  it('a file without its key or without a place to fetch it from is no file: a message without a caption is then dropped', () => {
    expect(inboundOf(message('N1', { imageMessage: { url: media.url, mimetype: 'image/jpeg' } }))).to.equal(undefined);
    expect(inboundOf(message('N2', { imageMessage: { mediaKey: KEY, mimetype: 'image/jpeg', caption: 'only text' } }))).to.deep.include({ body: 'only text' });
    expect(inboundOf(message('N2', { imageMessage: { mediaKey: KEY, mimetype: 'image/jpeg', caption: 'only text' } }))!.media).to.equal(undefined);
    expect(inboundOf(message('N3', { conversation: 'oi' }))!.media).to.equal(undefined);
  });

  describe('the fetcher, against a CDN serving files encrypted as WhatsApp does', () => {
    let server: http.Server;
    let base: string;
    const files = new Map<string, Buffer>();
    const plain = randomBytes(50_000);
    let mediaKey: Buffer;
    let fileSha256: Buffer;

    before(async () => {
      // Baileys' own encryption of an upload: AES-256-CBC with keys derived from a random media key, a MAC appended.
      const enc = await encryptedStream(plain, 'image');
      files.set('/v/photo.enc', await readFile(enc.encFilePath));
      await rm(enc.encFilePath, { force: true });
      mediaKey = enc.mediaKey;
      fileSha256 = enc.fileSha256;
      server = http.createServer((req, res) => {
        if (req.url === '/v/broken.enc') return void res.writeHead(503).end();
        const file = files.get(req.url ?? '');
        if (!file) return void res.writeHead(404).end();
        res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(file);
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    after(() => new Promise<void>((resolve) => server.close(() => resolve())));

    const request = (path: string, over: Partial<{ mediaKey: Buffer; maxBytes: number; sha: Buffer | null }> = {}): InboundMediaRequest => ({
      media: {
        kind: 'image',
        mimetype: 'image/jpeg',
        source: {
          from: 'whatsapp',
          url: `${base}${path}`,
          mediaKey: (over.mediaKey ?? mediaKey).toString('base64'),
          ...(over.sha === null ? {} : { fileSha256: (over.sha ?? fileSha256).toString('base64') }),
        },
      },
      connection: { id: 1, companyId: 1, provider: 'baileys', externalId: null, secrets: {} },
      maxBytes: over.maxBytes ?? 1024 * 1024,
    });
    const fetcher = () => new BaileysMediaFetcher({ hosts: /^127\.0\.0\.1$/ });
    const codeOf = (p: Promise<unknown>) =>
      p.then(
        () => 'resolved',
        (err: unknown) => (err instanceof DomainError ? err.code : String(err)),
      );

    it('decrypts the file with the message key, as the contact sent it', async () => {
      const got = await fetcher().fetch(request('/v/photo.enc'));
      expect(got.data.equals(plain)).to.equal(true);
    });

    it('refuses what it cannot keep: over the cap, a key that does not open it, gone, or a host that is not WhatsApp’s', async () => {
      expect(await codeOf(fetcher().fetch(request('/v/photo.enc', { maxBytes: 10_000 })))).to.equal('ERR_MEDIA_TOO_LARGE');
      expect(await codeOf(fetcher().fetch(request('/v/photo.enc', { mediaKey: Buffer.alloc(32, 1) })))).to.equal('ERR_MEDIA_UNREADABLE');
      expect(await codeOf(fetcher().fetch(request('/v/photo.enc', { sha: Buffer.alloc(32, 2) })))).to.equal('ERR_MEDIA_UNREADABLE');
      expect(await codeOf(fetcher().fetch(request('/v/gone.enc')))).to.equal('ERR_MEDIA_NOT_FOUND');
      expect(await codeOf(fetcher().fetch(request('/v/broken.enc')))).to.equal('ERR_MEDIA_UNAVAILABLE');
      expect(await codeOf(new BaileysMediaFetcher().fetch(request('/v/photo.enc')))).to.equal('ERR_URL_NOT_ALLOWED');
    });
  });
});
