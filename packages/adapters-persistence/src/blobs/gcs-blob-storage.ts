import { Storage } from '@google-cloud/storage';
import type { GetFilesOptions, GetFilesResponse } from '@google-cloud/storage';
import type { BlobStorage, StoredBlob } from '@servicedesk/core';
import { keyOfPublicUrl, publicUrlOf } from './public-urls.js';

const DEFAULT_CONTENT_TYPE = 'application/octet-stream';

function isNotFound(error: unknown) {
  return typeof error === 'object' && error !== null && 'code' in error && (error as { code: unknown }).code === 404;
}

/**
 * Blobs as objects of one Google Cloud Storage bucket, named by their keys. Public URLs default to
 * `https://storage.googleapis.com/<bucket>/<key>` (each key segment URL-encoded); set `publicBaseUrl` when the bucket
 * is served through a CDN or a custom domain.
 */
export class GcsBlobStorage implements BlobStorage {
  private readonly bucketName: string;
  private readonly storage: Storage;
  private readonly publicBaseUrl: string;

  constructor(options: { bucket: string; storage: Storage; publicBaseUrl?: string }) {
    this.bucketName = options.bucket;
    this.storage = options.storage;
    this.publicBaseUrl = (options.publicBaseUrl ?? `https://storage.googleapis.com/${encodeURIComponent(options.bucket)}`).replace(/\/+$/, '');
  }

  private get bucket() { return this.storage.bucket(this.bucketName); }

  async put(key: string, data: Buffer, contentType: string): Promise<StoredBlob> {
    // A simple (multipart) upload: blobs here are small, and one request is all or nothing.
    await this.bucket.file(key).save(data, { contentType, resumable: false });
    return { key, size: data.length, contentType };
  }

  async get(key: string) {
    try {
      const [metadata] = await this.bucket.file(key).getMetadata();
      // Download the generation whose metadata was read, so that data and content type belong together.
      const pinned = metadata.generation === undefined ? {} : { generation: metadata.generation };
      const [data] = await this.bucket.file(key, pinned).download();
      return { data, contentType: metadata.contentType ?? DEFAULT_CONTENT_TYPE };
    } catch (error) {
      if (isNotFound(error)) return null; // absent, or deleted between the two requests
      throw error;
    }
  }

  async delete(key: string) {
    try {
      await this.bucket.file(key).delete();
    } catch (error) {
      if (!isNotFound(error)) throw error;
    }
  }

  async usage(prefix: string) {
    let total = 0;
    let query: GetFilesOptions | null = { prefix, autoPaginate: false };
    // Page by page, so that a large bucket is never held in memory at once.
    while (query) {
      const [files, next]: GetFilesResponse = await this.bucket.getFiles(query);
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

export function createGcsBlobStorage(config: GcsBlobStorageConfig): GcsBlobStorage {
  const storage = new Storage({ projectId: config.projectId, keyFilename: config.keyFilename, apiEndpoint: config.apiEndpoint });
  return new GcsBlobStorage({ bucket: config.bucket, storage, publicBaseUrl: config.publicBaseUrl });
}
