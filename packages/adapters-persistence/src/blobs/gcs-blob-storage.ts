import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import type { GetFilesOptions, GetFilesResponse, Storage } from '@google-cloud/storage';
import { onceAsync, type BlobStorage, type StoredBlob } from '@servicedesk/core';
import { keyOfPublicUrl, publicUrlOf } from './public-urls.js';

const DEFAULT_CONTENT_TYPE = 'application/octet-stream';

function isNotFound(error: unknown) {
  return typeof error === 'object' && error !== null && 'code' in error && (error as { code: unknown }).code === 404;
}

/**
 * Blobs as objects of one Google Cloud Storage bucket, named by their keys. Public URLs default to
 * `https://storage.googleapis.com/<bucket>/<key>` (each key segment URL-encoded); set `publicBaseUrl` when the bucket
 * is served through a CDN or a custom domain.
 *
 * `storage` is a client, or a function that makes one on first use: `createGcsBlobStorage` passes
 * the latter, so that the SDK (~30 MB once imported) is loaded only by a backend that stores in GCS.
 */
export class GcsBlobStorage implements BlobStorage {
  private readonly bucketName: string;
  /** The client, made once; one that could not be made is tried again next time. */
  private readonly storage: () => Promise<Storage>;
  private readonly publicBaseUrl: string;

  constructor(options: { bucket: string; storage: Storage | (() => Promise<Storage>); publicBaseUrl?: string }) {
    const { storage } = options;
    this.bucketName = options.bucket;
    this.storage = typeof storage === 'function' ? onceAsync(storage) : async () => storage;
    this.publicBaseUrl = (options.publicBaseUrl ?? `https://storage.googleapis.com/${encodeURIComponent(options.bucket)}`).replace(/\/+$/, '');
  }

  private async bucket() {
    return (await this.storage()).bucket(this.bucketName);
  }

  async put(key: string, data: Buffer, contentType: string): Promise<StoredBlob> {
    // A simple (multipart) upload: blobs here are small, and one request is all or nothing.
    await (await this.bucket()).file(key).save(data, { contentType, resumable: false });
    return { key, size: data.length, contentType };
  }

  async putFile(key: string, source: string, contentType: string): Promise<StoredBlob> {
    // The same one-request upload, its body streamed from the file (uploads are at most a few tens of MB).
    const { size } = await stat(source);
    const target = (await this.bucket()).file(key).createWriteStream({ contentType, resumable: false });
    await pipeline(createReadStream(source), target);
    return { key, size, contentType };
  }

  async get(key: string) {
    const bucket = await this.bucket();
    try {
      const [metadata] = await bucket.file(key).getMetadata();
      // Download the generation whose metadata was read, so that data and content type belong together.
      const pinned = metadata.generation === undefined ? {} : { generation: metadata.generation };
      const [data] = await bucket.file(key, pinned).download();
      return { data, contentType: metadata.contentType ?? DEFAULT_CONTENT_TYPE };
    } catch (error) {
      if (isNotFound(error)) return null; // absent, or deleted between the two requests
      throw error;
    }
  }

  async delete(key: string) {
    const bucket = await this.bucket();
    try {
      await bucket.file(key).delete();
    } catch (error) {
      if (!isNotFound(error)) throw error;
    }
  }

  async usage(prefix: string) {
    let total = 0;
    const bucket = await this.bucket();
    let query: GetFilesOptions | null = { prefix, autoPaginate: false };
    // Page by page, so that a large bucket is never held in memory at once.
    while (query) {
      const [files, next]: GetFilesResponse = await bucket.getFiles(query);
      for (const file of files) total += Number(file.metadata.size ?? 0);
      // The SDK answers null (typed as an object) when there is no further page.
      const pageToken: string | undefined = (next as typeof next | null)?.pageToken;
      query = pageToken ? { ...query, pageToken } : null;
    }
    return total;
  }

  publicUrl(key: string) {
    return publicUrlOf(this.publicBaseUrl, key);
  }

  keyOfPublicUrl(url: string) {
    return keyOfPublicUrl(this.publicBaseUrl, url);
  }
}

export interface GcsBlobStorageConfig {
  readonly bucket: string;
  readonly projectId?: string;
  /** A service-account key file; without it the SDK uses Application Default Credentials. */
  readonly keyFilename?: string;
  /** A custom endpoint such as an emulator; requests to it are not authenticated. */
  readonly apiEndpoint?: string;
  readonly publicBaseUrl?: string;
}

/** The GCS adapter of a configuration; the SDK is imported when the first blob operation runs, not here. */
export function createGcsBlobStorage(config: GcsBlobStorageConfig): GcsBlobStorage {
  const storage = async () => {
    const { Storage } = await import('@google-cloud/storage');
    return new Storage({ projectId: config.projectId, keyFilename: config.keyFilename, apiEndpoint: config.apiEndpoint });
  };
  return new GcsBlobStorage({ bucket: config.bucket, storage, publicBaseUrl: config.publicBaseUrl });
}
