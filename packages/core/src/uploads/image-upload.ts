import { createHash } from 'node:crypto';
import { PayloadTooLargeError, ValidationError } from '../shared/errors.js';
import type { BlobStorage, StoredBlob } from '../shared/ports.js';

/** Bytes already in memory: a small downloaded image, a test's fixture. */
export interface BufferedUpload {
  readonly filename: string;
  readonly contentType: string;
  readonly data: Buffer;
}

/**
 * An upload streamed to a temporary file (multipart requests): only its first bytes are in
 * memory. The file belongs to the request and is removed after it; use cases store it with
 * `storeUpload` (a streaming copy) and never keep the path.
 */
export interface TempFileUpload {
  readonly filename: string;
  readonly contentType: string;
  readonly path: string;
  readonly size: number;
  /** The first `UPLOAD_HEAD_BYTES` bytes (fewer for a shorter file), to recognise the type. */
  readonly head: Buffer;
  /** The SHA-256 of the whole file (hex), computed while it was written: what a request's fingerprint compares. */
  readonly sha256: string;
}

export type UploadedFile = BufferedUpload | TempFileUpload;

/** How many leading bytes of an upload are kept in memory for type recognition. */
export const UPLOAD_HEAD_BYTES = 64;

export function uploadSize(file: UploadedFile): number {
  return 'path' in file ? file.size : file.data.length;
}

/** The SHA-256 of an upload's bytes (hex): two uploads with equal digests hold the same file. */
export function uploadDigest(file: UploadedFile): string {
  return 'path' in file ? file.sha256 : createHash('sha256').update(file.data).digest('hex');
}

export function uploadHead(file: UploadedFile): Buffer {
  return 'path' in file ? file.head : file.data.subarray(0, UPLOAD_HEAD_BYTES);
}

/** Stores an upload under `key`: a temporary file is streamed, bytes in memory are put as they are. */
export function storeUpload(blobs: BlobStorage, key: string, file: UploadedFile, contentType: string): Promise<StoredBlob> {
  return 'path' in file ? blobs.putFile(key, file.path, contentType) : blobs.put(key, file.data, contentType);
}

export type ImageType = 'png' | 'jpeg' | 'webp' | 'gif' | 'ico';
const CONTENT_TYPES: Record<ImageType, string> = {
  png: 'image/png',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
  gif: 'image/gif',
  ico: 'image/x-icon',
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

/** Checks an uploaded image (by its first bytes only) against a size limit and a set of allowed types; returns its real type. */
export function acceptImage(file: UploadedFile | undefined, allowed: readonly ImageType[], maxBytes: number): { ext: ImageType; contentType: string } {
  if (!file || uploadSize(file) === 0) throw new ValidationError('ERR_NO_FILE');
  if (uploadSize(file) > maxBytes) throw new PayloadTooLargeError('ERR_FILE_TOO_LARGE');
  const ext = sniffImage(uploadHead(file));
  if (!ext || !allowed.includes(ext)) throw new ValidationError('ERR_FILE_TYPE_NOT_ALLOWED');
  return { ext, contentType: CONTENT_TYPES[ext] };
}
