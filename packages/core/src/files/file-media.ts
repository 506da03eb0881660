import { PayloadTooLargeError, ValidationError } from '../shared/errors.js';
import { sniffImage, uploadHead, uploadSize, type ImageType, type UploadedFile } from '../uploads/image-upload.js';

/** A file of a list is sent as a chat message's media: the largest a channel takes for a document. */
export const MAX_FILE_OPTION_BYTES = 16 * 1024 * 1024;
/** Files one upload request may carry. */
export const MAX_FILES_PER_UPLOAD = 10;

const IMAGES: Partial<Record<ImageType, string>> = { png: 'image/png', jpeg: 'image/jpeg', webp: 'image/webp', gif: 'image/gif' };
/** Office documents are ZIP (OOXML) or OLE containers: the bytes tell the container, the claimed type which document. */
const ZIP_DOCUMENTS = new Set([
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  'application/vnd.oasis.opendocument.text',
  'application/vnd.oasis.opendocument.spreadsheet',
]);
const OLE_DOCUMENTS = new Set(['application/msword', 'application/vnd.ms-excel', 'application/vnd.ms-powerpoint']);
const OLE_MAGIC = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);

/**
 * The type of a list's file, recognised by its first bytes (the claimed type only names the
 * document inside an Office container): PNG, JPEG, WebP or GIF images, PDF, MP3, Ogg and MP4/M4A
 * audio, MP4 and 3GP video, ZIP archives and Office documents. Null for anything else (scripts,
 * HTML, SVG, executables, plain text whose bytes prove nothing).
 */
export function sniffFileType(head: Buffer, claimed: string): string | null {
  const image = sniffImage(head);
  if (image) return IMAGES[image] ?? null;
  const ascii = (from: number, to: number) => (head.length >= to ? head.toString('latin1', from, to) : '');
  if (ascii(0, 5) === '%PDF-') return 'application/pdf';
  if (ascii(0, 4) === 'OggS') return 'audio/ogg';
  if (ascii(0, 3) === 'ID3' || (head.length >= 2 && head[0] === 0xff && (head[1]! & 0xe6) === 0xe2)) return 'audio/mpeg';
  if (ascii(4, 8) === 'ftyp') {
    const brand = ascii(8, 12);
    if (brand.startsWith('M4A')) return 'audio/mp4';
    if (brand.startsWith('3gp')) return 'video/3gpp';
    return 'video/mp4';
  }
  const type = claimed.split(';')[0]!.trim().toLowerCase();
  if (ascii(0, 4) === 'PK\u0003\u0004') return ZIP_DOCUMENTS.has(type) ? type : 'application/zip';
  if (head.length >= 8 && head.subarray(0, 8).equals(OLE_MAGIC)) return OLE_DOCUMENTS.has(type) ? type : null;
  return null;
}

/**
 * Checks one uploaded file of a list: none or empty is 422 `ERR_NO_FILE`, over 16 MiB 413
 * `ERR_FILE_TOO_LARGE`, a type not recognised 422 `ERR_FILE_TYPE_NOT_ALLOWED`; answers its real type.
 */
export function acceptListFile(file: UploadedFile | undefined): string {
  if (!file || uploadSize(file) === 0) throw new ValidationError('ERR_NO_FILE');
  if (uploadSize(file) > MAX_FILE_OPTION_BYTES) throw new PayloadTooLargeError('ERR_FILE_TOO_LARGE');
  const type = sniffFileType(uploadHead(file), file.contentType);
  if (!type) throw new ValidationError('ERR_FILE_TYPE_NOT_ALLOWED');
  return type;
}
