import { PayloadTooLargeError, ValidationError } from '../shared/errors.js';

export interface UploadedFile {
  readonly filename: string;
  readonly contentType: string;
  readonly data: Buffer;
}

export type ImageType = 'png' | 'jpeg' | 'webp' | 'gif' | 'ico';
const CONTENT_TYPES: Record<ImageType, string> = {
  png: 'image/png', jpeg: 'image/jpeg', webp: 'image/webp', gif: 'image/gif', ico: 'image/x-icon',
};

/**
 * Recognizes an image by its leading bytes, not by the name or type the client claims, so a
 * script renamed `logo.png` is refused. SVG is refused on purpose: it can carry scripts.
 */
export function sniffImage(data: Buffer): ImageType | null {
  if (data.length >= 8 && data.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'png';
  if (data.length >= 3 && data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff) return 'jpeg';
  if (data.length >= 12 && data.toString('ascii', 0, 4) === 'RIFF' && data.toString('ascii', 8, 12) === 'WEBP') return 'webp';
  if (data.length >= 6 && (data.toString('ascii', 0, 6) === 'GIF87a' || data.toString('ascii', 0, 6) === 'GIF89a')) return 'gif';
  if (data.length >= 4 && data[0] === 0 && data[1] === 0 && data[2] === 1 && data[3] === 0) return 'ico';
  return null;
}

/** Checks an uploaded image against a size limit and a set of allowed types; returns its real type. */
export function acceptImage(file: UploadedFile | undefined, allowed: readonly ImageType[], maxBytes: number): { ext: ImageType; contentType: string } {
  if (!file || file.data.length === 0) throw new ValidationError('ERR_NO_FILE');
  if (file.data.length > maxBytes) throw new PayloadTooLargeError('ERR_FILE_TOO_LARGE');
  const ext = sniffImage(file.data);
  if (!ext || !allowed.includes(ext)) throw new ValidationError('ERR_FILE_TYPE_NOT_ALLOWED');
  return { ext, contentType: CONTENT_TYPES[ext] };
}
