import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import {
  NotFoundError,
  PayloadTooLargeError,
  ServiceUnavailableError,
  ValidationError,
  type FetchedMedia,
  type InboundMediaFetcher,
  type InboundMediaKind,
  type InboundMediaRequest,
} from '@servicedesk/core';
import { loadBaileys } from './load-baileys.js';

/** The hosts of WhatsApp's media CDN: a message naming any other host is not fetched from. */
export const WHATSAPP_MEDIA_HOSTS = /(^|\.)whatsapp\.net$/i;

/** The media type whose keys decrypt a kind's file (WhatsApp derives a different key for each). */
function baileysTypeOf(kind: InboundMediaKind): 'image' | 'sticker' | 'video' | 'audio' | 'document' {
  if (kind === 'voice') return 'audio';
  return kind;
}

/** The HTTP status on Baileys' error for an answer that was not 2xx (a Boom's `output.statusCode`). */
function statusOf(err: unknown): number | undefined {
  const code = (err as { output?: { statusCode?: unknown } } | undefined)?.output?.statusCode;
  return typeof code === 'number' ? code : undefined;
}

/**
 * A WhatsApp Web (Baileys) file: the encrypted file on WhatsApp's CDN (`directPath` on the host of
 * `url`, as Baileys resolves it), decrypted with the message's `mediaKey` by Baileys' own
 * `downloadContentFromMessage`, which needs no socket, so the backend fetches without holding the
 * session. Baileys is loaded on first use (`loadBaileys`). At most `maxBytes` decrypted bytes are
 * held; when the message declares the file's SHA-256 the bytes must match it.
 */
export class BaileysMediaFetcher implements InboundMediaFetcher {
  constructor(
    private readonly o: {
      /** The hosts files may be fetched from (default WhatsApp's); tests name their fake CDN. */
      readonly hosts?: RegExp;
      readonly timeoutMs?: number;
    } = {},
  ) {}

  async fetch({ media, maxBytes }: InboundMediaRequest): Promise<FetchedMedia> {
    const source = media.source;
    if (source.from !== 'whatsapp') throw new ValidationError('ERR_MEDIA_NOT_SUPPORTED');
    const hosts = this.o.hosts ?? WHATSAPP_MEDIA_HOSTS;
    const host = source.url ? new URL(source.url).hostname : 'mmg.whatsapp.net';
    if (!hosts.test(host)) throw new ValidationError('ERR_URL_NOT_ALLOWED');
    const baileys = await loadBaileys();
    let stream: Readable;
    try {
      stream = await baileys.downloadContentFromMessage(
        { mediaKey: Buffer.from(source.mediaKey, 'base64'), directPath: source.directPath ?? null, url: source.url ?? null },
        baileysTypeOf(media.kind),
      );
    } catch (err) {
      const status = statusOf(err);
      if (status === 404 || status === 410) throw new NotFoundError('ERR_MEDIA_NOT_FOUND');
      if (status !== undefined && status < 500 && status !== 429) throw new ValidationError('ERR_MEDIA_REFUSED');
      throw new ServiceUnavailableError('ERR_MEDIA_UNAVAILABLE');
    }
    const data = await this.collect(stream, maxBytes);
    if (source.fileSha256 && createHash('sha256').update(data).digest('base64') !== source.fileSha256) throw new ValidationError('ERR_MEDIA_UNREADABLE');
    return { data, contentType: null };
  }

  /** The decrypted bytes, at most `maxBytes`, within the time-out; a file that does not decrypt is `ERR_MEDIA_UNREADABLE`. */
  private collect(stream: Readable, maxBytes: number): Promise<Buffer> {
    return new Promise<Buffer>((resolve, reject) => {
      const chunks: Buffer[] = [];
      let size = 0;
      let done = false;
      const finish = (err: Error | null, data?: Buffer) => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        if (err) {
          chunks.length = 0;
          stream.destroy();
          reject(err);
        } else resolve(data!);
      };
      const timer = setTimeout(() => finish(new ServiceUnavailableError('ERR_MEDIA_UNAVAILABLE')), this.o.timeoutMs ?? 120_000);
      stream.on('data', (c: Buffer) => {
        size += c.length;
        if (size > maxBytes) finish(new PayloadTooLargeError('ERR_MEDIA_TOO_LARGE'));
        else chunks.push(c);
      });
      stream.on('end', () => finish(null, Buffer.concat(chunks)));
      stream.on('error', (err: Error & { code?: string }) => {
        // A decipher error (a wrong key, a damaged file) is for good; a broken download may work later.
        const decrypt = typeof err.message === 'string' && /decrypt|bad|wrong final block/i.test(err.message);
        finish(decrypt ? new ValidationError('ERR_MEDIA_UNREADABLE') : new ServiceUnavailableError('ERR_MEDIA_UNAVAILABLE'));
      });
    });
  }
}
