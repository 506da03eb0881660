import { inboundMediaOf, type InboundMedia, type InboundMediaKind } from '@servicedesk/core';
import { normalizeMessageContent, type proto } from 'baileys';

/*
 * A contact's file in a Baileys message, as the runtime reports it: what it is and where the
 * backend fetches it (the encrypted file's `url` and `directPath` with its `mediaKey`), never the
 * bytes. Imports Baileys: loaded only with the connector (see load-baileys.ts).
 */

type MediaFields = {
  url?: string | null;
  directPath?: string | null;
  mediaKey?: Uint8Array | null;
  mimetype?: string | null;
  fileSha256?: Uint8Array | null;
  fileLength?: number | { toString(): string } | null;
};

const base64 = (bytes: Uint8Array | null | undefined) => (bytes?.length ? Buffer.from(bytes).toString('base64') : undefined);

function lengthOf(n: MediaFields['fileLength']): number | undefined {
  if (n === null || n === undefined) return undefined;
  const value = typeof n === 'number' ? n : Number(n.toString());
  return Number.isSafeInteger(value) && value >= 0 ? value : undefined;
}

function described(kind: InboundMediaKind, m: MediaFields, fileName?: string | null): InboundMedia | undefined {
  const mediaKey = base64(m.mediaKey);
  const fileSha256 = base64(m.fileSha256);
  // Checked as the backend will check it: a message without a key or a place to fetch from is no file.
  return inboundMediaOf({
    kind,
    mimetype: m.mimetype ?? undefined,
    fileName: fileName ?? undefined,
    size: lengthOf(m.fileLength),
    source: {
      from: 'whatsapp',
      mediaKey,
      url: m.url ?? undefined,
      directPath: m.directPath ?? undefined,
      ...(fileSha256 ? { fileSha256 } : {}),
    },
  });
}

/**
 * The file of an image, video (a GIF and a round video note too), audio (`ptt`: a voice note),
 * document or sticker message; undefined for any other message. The caption is the text
 * (`textOf`), not part of this.
 */
export function mediaOf(message: proto.IMessage | null | undefined): InboundMedia | undefined {
  const m = normalizeMessageContent(message);
  if (!m) return undefined;
  if (m.imageMessage) return described('image', m.imageMessage);
  if (m.videoMessage) return described('video', m.videoMessage);
  if (m.ptvMessage) return described('video', m.ptvMessage);
  if (m.audioMessage) return described(m.audioMessage.ptt ? 'voice' : 'audio', m.audioMessage);
  if (m.documentMessage) return described('document', m.documentMessage, m.documentMessage.fileName || m.documentMessage.title);
  if (m.stickerMessage) return described('sticker', m.stickerMessage);
  return undefined;
}
