import { safeFileName, safeMediaType } from '../connections/connection-media.js';
import { PayloadTooLargeError, ValidationError } from '../shared/errors.js';
import type { BlobStorage, IdGenerator } from '../shared/ports.js';
import { storeUpload, uploadSize, type UploadedFile } from '../uploads/image-upload.js';
import type { ScheduleMedia } from './schedule.js';

/** Attachments up to this size (the channel runtime's media limit). */
export const MAX_SCHEDULE_MEDIA_BYTES = 16 * 1024 * 1024;

/** Where schedules' attachments are kept: public, since the channel runtime fetches them by URL. */
export class ScheduleMediaStore {
  constructor(private readonly deps: { blobs: BlobStorage; ids: IdGenerator }) {}

  /** Stores an uploaded attachment under a fresh name of the company's folder. */
  async store(companyId: number, file: UploadedFile): Promise<ScheduleMedia> {
    const size = uploadSize(file);
    if (size === 0) throw new ValidationError('ERR_EMPTY_FILE');
    if (size > MAX_SCHEDULE_MEDIA_BYTES) throw new PayloadTooLargeError('ERR_FILE_TOO_LARGE');
    const name = safeFileName(file.filename);
    const path = `public/company-${companyId}/schedules/${this.deps.ids.uuid()}-${name}`;
    const contentType = safeMediaType(file.contentType);
    await storeUpload(this.deps.blobs, path, file, contentType);
    return { path, name: file.filename.slice(0, 255) || name, contentType, size };
  }

  /** Removes an attachment's file (replaced, removed, or its schedule deleted). */
  async remove(media: ScheduleMedia): Promise<void> {
    await this.deps.blobs.delete(media.path);
  }

  /** The attachment as a send carries it: its key and public URL. */
  outgoing(media: ScheduleMedia): { key: string; url: string; contentType: string; filename: string; size: number } {
    return { key: media.path, url: this.deps.blobs.publicUrl(media.path), contentType: media.contentType, filename: media.name, size: media.size };
  }
}
