import { inboundMediaOf, type InboundMedia, type InboundMediaKind } from '@servicedesk/core';

/*
 * A contact's file in Messenger's and Instagram's webhook deliveries, as a provider event's `media`:
 * what it is and where the backend fetches it, never the bytes. Anything not shaped as documented is
 * no file. (The Cloud API's files: `cloudApiMediaOf` in bizchat/bizchat-webhook.ts.)
 */

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (v: unknown): string | undefined => (typeof v === 'string' && v.length > 0 ? v : undefined);

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
