import type { TFunction } from 'i18next';

/** What a file is shown as: an image, a player, a link to a PDF, or a plain document. */
export type FileKind = 'image' | 'audio' | 'video' | 'pdf' | 'document';

/** The kind of a file by its media type (`image/png`, `audio/ogg; codecs=opus`, `application/pdf`…); anything else is a document. */
export function fileKind(mediaType: string | null | undefined): FileKind {
  const type = (mediaType ?? '').split(';')[0]!.trim().toLowerCase();
  if (type === 'application/pdf') return 'pdf';
  const top = type.split('/')[0];
  return top === 'image' || top === 'audio' || top === 'video' ? top : 'document';
}

const UNITS = ['byte', 'kilobyte', 'megabyte', 'gigabyte'] as const;

/** A size in the reader's language and the largest unit under which it stays at least 1 (1,024 to a step): "512 byte", "1.5 MB". */
export function formatSize(bytes: number, language: string): string {
  let value = Math.max(0, bytes);
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  return new Intl.NumberFormat(language, { style: 'unit', unit: UNITS[unit], unitDisplay: 'short', maximumFractionDigits: unit === 0 ? 0 : 1 }).format(value);
}

/** An uploaded file in words: its name, kind and size. */
export function storedFileInfo(t: TFunction, language: string, o: { path: string | null; mediaType: string | null; size: number | null }): string | null {
  if (!o.path) return null;
  return t('fileInfo', { name: o.path, type: t(`types.${fileKind(o.mediaType)}`), size: formatSize(o.size ?? 0, language) });
}
