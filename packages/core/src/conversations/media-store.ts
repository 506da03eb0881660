import { type PayloadTooLargeError, ValidationError } from '../shared/errors.js';
import type { BlobStorage, IdGenerator } from '../shared/ports.js';
import { storeUpload, uploadSize, type UploadedFile } from '../uploads/image-upload.js';
import { safeFileName, safeMediaType } from '../connections/connection-media.js';
import type { MessageMedia } from '../messages/message.js';

/** What is answered for a file over the limit: the operators' send says 413, the message API 400 (as each documents). */
export type TooLargeFile = typeof PayloadTooLargeError | typeof ValidationError;

/**
 * Files sent in messages, stored as public media of the company under a key of their own; the
 * name and type are made safe to serve. Every file is checked (size, not empty) before any is stored.
 */
export class MediaStore {
  constructor(private readonly deps: { blobs: BlobStorage; ids: IdGenerator }) {}

  async store(companyId: number, files: readonly UploadedFile[], limit: { maxBytes: number; tooLarge: TooLargeFile }): Promise<MessageMedia[]> {
    const { blobs, ids } = this.deps;
    for (const file of files) {
      const size = uploadSize(file);
      if (size > limit.maxBytes) throw new limit.tooLarge('ERR_FILE_TOO_LARGE');
      if (size === 0) throw new ValidationError('ERR_EMPTY_FILE');
    }
    const stored: MessageMedia[] = [];
    for (const file of files) {
      const key = `public/company-${companyId}/media/${ids.uuid()}-${safeFileName(file.filename)}`;
      const contentType = safeMediaType(file.contentType);
      await storeUpload(blobs, key, file, contentType);
      stored.push({ key, url: blobs.publicUrl(key), contentType, filename: file.filename, size: uploadSize(file) });
    }
    return stored;
  }
}
