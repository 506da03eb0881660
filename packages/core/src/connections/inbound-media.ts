import { safeFileName, safeMediaType } from './connection-media.js';
import type { Connection } from './connection.js';
import { ValidationError } from '../shared/errors.js';

/** What kind of file a contact sent: `voice` is a recorded voice note, `sticker` a WhatsApp sticker (a WebP image). */
export type InboundMediaKind = 'image' | 'audio' | 'voice' | 'video' | 'document' | 'sticker';
export const INBOUND_MEDIA_KINDS: readonly InboundMediaKind[] = ['image', 'audio', 'voice', 'video', 'document', 'sticker'];

/**
 * Where a contact's file is fetched from, per provider; never the bytes themselves (broker
 * payloads stay small, and the bytes go to blob storage from a background job):
 * - `whatsapp`: a WhatsApp Web (Baileys) media message's encrypted file, its `url` or `directPath`
 *   on WhatsApp's CDN and the `mediaKey` (base64) that decrypts it;
 * - `cloudapi`: the Cloud API's media id (`GET /{media-id}` with the connection's token answers a URL);
 * - `url`: a plain URL (Messenger and Instagram attachments, the sandbox).
 */
export type InboundMediaSource =
  | {
      readonly from: 'whatsapp';
      readonly url?: string;
      readonly directPath?: string;
      readonly mediaKey: string;
      /** Base64 SHA-256 of the decrypted file, as the message declares it. */
      readonly fileSha256?: string;
    }
  | { readonly from: 'cloudapi'; readonly mediaId: string }
  | { readonly from: 'url'; readonly url: string };

/** A file a contact sent, as a channel reports it with its message (the caption is the message's body). */
export interface InboundMedia {
  readonly kind: InboundMediaKind;
  /** The type the provider declares (`image/jpeg`, `audio/ogg; codecs=opus`). */
  readonly mimetype: string;
  readonly fileName?: string;
  /** Bytes, as the provider declares them. */
  readonly size?: number;
  readonly source: InboundMediaSource;
}

/** What a fetcher is asked: the file's source, and the connection it came through (its token, for the Cloud API). */
export interface InboundMediaRequest {
  readonly media: InboundMedia;
  readonly connection: Pick<Connection, 'id' | 'companyId' | 'provider' | 'externalId' | 'secrets'>;
  /** Over this many bytes the fetch stops with `ERR_MEDIA_TOO_LARGE` (nothing is kept). */
  readonly maxBytes: number;
}

export interface FetchedMedia {
  readonly data: Buffer;
  /** The type the server answered with, when it said one. */
  readonly contentType: string | null;
}

/**
 * Brings a contact's file from its provider. Throws a `DomainError` for what retrying cannot
 * change (`ERR_MEDIA_TOO_LARGE`, `ERR_MEDIA_NOT_FOUND`, `ERR_MEDIA_REFUSED`…) and anything else
 * (a `ServiceUnavailableError`, a network error) for what may work later.
 */
export interface InboundMediaFetcher {
  fetch(request: InboundMediaRequest): Promise<FetchedMedia>;
}

/** One fetcher per kind of source; a source without one is refused (`ERR_MEDIA_NOT_SUPPORTED`). */
export function inboundMediaFetchers(byKind: { readonly [K in InboundMediaSource['from']]?: InboundMediaFetcher }): InboundMediaFetcher {
  return {
    fetch(request) {
      const fetcher = byKind[request.media.source.from];
      if (!fetcher) return Promise.reject(new ValidationError('ERR_MEDIA_NOT_SUPPORTED'));
      return fetcher.fetch(request);
    },
  };
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (v: unknown, max: number): string | undefined => (typeof v === 'string' && v.length > 0 && v.length <= max ? v : undefined);
const httpUrl = (v: unknown): string | undefined => {
  const s = text(v, 4096);
  return s && /^https?:\/\/[^\s]+$/i.test(s) ? s : undefined;
};

function sourceOf(v: unknown): InboundMediaSource | undefined {
  if (!isRecord(v)) return undefined;
  switch (v.from) {
    case 'whatsapp': {
      const mediaKey = text(v.mediaKey, 128);
      const url = httpUrl(v.url);
      const directPath = text(v.directPath, 2048);
      if (!mediaKey || !/^[A-Za-z0-9+/_-]+={0,2}$/.test(mediaKey) || (!url && !directPath?.startsWith('/'))) return undefined;
      const fileSha256 = text(v.fileSha256, 128);
      return {
        from: 'whatsapp',
        mediaKey,
        ...(url ? { url } : {}),
        ...(directPath?.startsWith('/') ? { directPath } : {}),
        ...(fileSha256 ? { fileSha256 } : {}),
      };
    }
    case 'cloudapi': {
      const mediaId = text(v.mediaId, 200);
      return mediaId && /^[\w.-]+$/.test(mediaId) ? { from: 'cloudapi', mediaId } : undefined;
    }
    case 'url': {
      const url = httpUrl(v.url);
      return url ? { from: 'url', url } : undefined;
    }
    default:
      return undefined;
  }
}

/**
 * The media descriptor of an event from outside (the broker, a webhook's parsed payload) as this
 * process will trust it: a known kind and source, strings capped; undefined when it is not one.
 */
export function inboundMediaOf(value: unknown): InboundMedia | undefined {
  if (!isRecord(value)) return undefined;
  const kind = INBOUND_MEDIA_KINDS.find((k) => k === value.kind);
  const source = sourceOf(value.source);
  if (!kind || !source) return undefined;
  const mimetype = text(value.mimetype, 200)?.trim().toLowerCase() || defaultMimetype(kind);
  const fileName = text(value.fileName, 255);
  const size = typeof value.size === 'number' && Number.isSafeInteger(value.size) && value.size >= 0 ? value.size : undefined;
  return { kind, mimetype, ...(fileName ? { fileName } : {}), ...(size !== undefined ? { size } : {}), source };
}

/** The type a kind's file has when the provider names none. */
export function defaultMimetype(kind: InboundMediaKind): string {
  switch (kind) {
    case 'image':
      return 'image/jpeg';
    case 'sticker':
      return 'image/webp';
    case 'audio':
      return 'audio/mpeg';
    case 'voice':
      return 'audio/ogg';
    case 'video':
      return 'video/mp4';
    case 'document':
      return 'application/octet-stream';
  }
}

/** The first part of the types a kind's file may have (`image/…`); null for a document (any type). */
export function majorTypeOf(kind: InboundMediaKind): string | null {
  if (kind === 'image' || kind === 'sticker') return 'image';
  if (kind === 'audio' || kind === 'voice') return 'audio';
  if (kind === 'video') return 'video';
  return null;
}

const EXTENSIONS: Record<string, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'audio/ogg': 'ogg',
  'audio/mpeg': 'mp3',
  'audio/mp4': 'm4a',
  'audio/aac': 'aac',
  'audio/amr': 'amr',
  'video/mp4': 'mp4',
  'video/3gpp': '3gp',
  'application/pdf': 'pdf',
};

/** The name the file is stored and shown under: the contact's file name, else its kind and our message id with the type's extension. */
export function inboundFileName(media: InboundMedia, messageId: string): string {
  if (media.fileName) return media.fileName;
  const type = media.mimetype.split(';')[0]!.trim();
  const extension = EXTENSIONS[type] ?? type.split('/')[1]?.replace(/[^\w]/g, '') ?? 'bin';
  return `${media.kind}-${messageId.slice(0, 8)}.${extension || 'bin'}`;
}

/** The type a contact's file is stored and served with (made safe: a type browsers would run becomes a download). */
export function inboundContentType(media: InboundMedia): string {
  return safeMediaType(media.mimetype);
}

/** The storage key of a contact's file: under its company's public media, as operators' files are. */
export function inboundMediaKey(companyId: number, uuid: string, fileName: string): string {
  return `public/company-${companyId}/media/${uuid}-${safeFileName(fileName)}`;
}
