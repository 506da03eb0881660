import { safeFileName } from '../connections/connection-media.js';
import { acceptListFile } from '../files/file-media.js';
import type { BlobStorage, IdGenerator } from '../shared/ports.js';
import { storeUpload, uploadSize, type UploadedFile } from '../uploads/image-upload.js';
import type { TemplateMedia } from './company-template.js';

/**
 * Stores a template's file as a public blob (the composer attaches it by URL, as schedules'
 * attachments are sent), after the checks of a file list's files: up to 16 MiB, its type
 * recognised from its bytes (`acceptListFile`).
 */
export async function storeTemplateMedia(deps: { blobs: BlobStorage; ids: IdGenerator }, companyId: number, file: UploadedFile): Promise<TemplateMedia> {
  const mediaType = acceptListFile(file);
  const mediaKey = `public/company-${companyId}/templates/${deps.ids.uuid()}-${safeFileName(file.filename)}`;
  await storeUpload(deps.blobs, mediaKey, file, mediaType);
  return { mediaKey, mediaName: file.filename.slice(0, 255) || 'file', mediaType, mediaSize: uploadSize(file) };
}
