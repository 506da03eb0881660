import { PayloadTooLargeError, ValidationError } from '../shared/errors.js';
import { sniffImage, uploadHead, uploadSize, type ImageType, type UploadedFile } from '../uploads/image-upload.js';

/** An announcement's attachment: shown in the bell's dialog and list (images) or opened (PDF). */
export const MAX_ANNOUNCEMENT_MEDIA_BYTES = 10 * 1024 * 1024;

const IMAGE_TYPES: Partial<Record<ImageType, string>> = { png: 'image/png', jpeg: 'image/jpeg', webp: 'image/webp', gif: 'image/gif' };

/**
 * The attachment's real type, recognised by its first bytes (never the claimed name or type):
 * a PNG, JPEG, WebP or GIF image, or a PDF. Anything else, SVG included, is 422
 * `ERR_FILE_TYPE_NOT_ALLOWED`; no file or an empty one 422 `ERR_NO_FILE`; over the limit 413.
 */
export function acceptAnnouncementMedia(file: UploadedFile | undefined): { contentType: string } {
  if (!file || uploadSize(file) === 0) throw new ValidationError('ERR_NO_FILE');
  if (uploadSize(file) > MAX_ANNOUNCEMENT_MEDIA_BYTES) throw new PayloadTooLargeError('ERR_FILE_TOO_LARGE');
  const head = uploadHead(file);
  const image = sniffImage(head);
  const contentType = image ? IMAGE_TYPES[image] : head.subarray(0, 5).toString('latin1') === '%PDF-' ? 'application/pdf' : undefined;
  if (!contentType) throw new ValidationError('ERR_FILE_TYPE_NOT_ALLOWED');
  return { contentType };
}
