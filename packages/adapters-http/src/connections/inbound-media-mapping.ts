import { inboundMediaOf, type InboundMedia, type InboundMediaKind } from '@servicedesk/core';

/*
 * A contact's file in Meta's webhook deliveries, as a provider event's `media`: what it is and
 * where the backend fetches it, never the bytes. Anything not shaped as documented is no file.
 */

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (v: unknown): string | undefined => (typeof v === 'string' && v.length > 0 ? v : undefined);

const CLOUD_API_KINDS: Readonly<Record<string, InboundMediaKind>> = {
  image: 'image',
  audio: 'audio',
  video: 'video',
  document: 'document',
  sticker: 'sticker',
};

/**
 * A Cloud API message's file (`type` image, audio, video, document or sticker: the part under its
 * type holds `id`, `mime_type`, a document's `filename`, an audio's `voice` flag, a `caption`),
 * fetched later by its media id; with its caption, the message's body. Undefined for any other message.
 */
export function cloudApiMediaOf(m: Record<string, unknown>): { media: InboundMedia; caption: string } | undefined {
  const type = text(m.type);
  const kind = type ? CLOUD_API_KINDS[type] : undefined;
  const part = type && isRecord(m[type]) ? (m[type] as Record<string, unknown>) : undefined;
  if (!kind || !part) return undefined;
  const media = inboundMediaOf({
    kind: kind === 'audio' && part.voice === true ? 'voice' : kind,
    mimetype: text(part.mime_type),
    fileName: text(part.filename),
    source: { from: 'cloudapi', mediaId: text(part.id) },
  });
  return media ? { media, caption: typeof part.caption === 'string' ? part.caption : '' } : undefined;
}

const MESSENGER_KINDS: Readonly<Record<string, InboundMediaKind>> = { image: 'image', audio: 'audio', video: 'video', file: 'document' };

/**
 * The files of a Messenger or Instagram message (`attachments[]` of `type` image, audio, video or
 * file, each at `payload.url`), in order; a sticker is an image attachment with a `sticker_id`.
 * Other attachments (a location, a template, a fallback link) are not files.
 */
export function messengerMediaOf(attachments: readonly unknown[]): InboundMedia[] {
  const files: InboundMedia[] = [];
  for (const a of attachments) {
    if (!isRecord(a) || !isRecord(a.payload)) continue;
    const kind = MESSENGER_KINDS[text(a.type) ?? ''];
    if (!kind) continue;
    const sticker = kind === 'image' && a.payload.sticker_id !== undefined;
    const media = inboundMediaOf({
      kind: sticker ? 'sticker' : kind,
      mimetype: sticker ? 'image/png' : undefined,
      fileName: kind === 'document' ? fileNameOf(text(a.payload.url)) : undefined,
      source: { from: 'url', url: text(a.payload.url) },
    });
    if (media) files.push(media);
  }
  return files;
}

/** The last segment of a file's URL path, decoded (Messenger names a file only there). */
function fileNameOf(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    const name = decodeURIComponent(new URL(url).pathname.split('/').pop() ?? '');
    return name || undefined;
  } catch {
    return undefined;
  }
}
