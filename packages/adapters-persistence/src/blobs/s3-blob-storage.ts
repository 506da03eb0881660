import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { S3Client } from '@aws-sdk/client-s3';
import { onceAsync, type BlobStorage, type StoredBlob } from '@servicedesk/core';
import type { ObjstoreConnection } from '@servicedesk/core/objstore/objstore-config';
import { keyOfPublicUrl, publicUrlOf } from './public-urls.js';

const DEFAULT_CONTENT_TYPE = 'application/octet-stream';
/** The SDK's module, loaded on first use. */
type S3Sdk = typeof import('@aws-sdk/client-s3');

/** The SDK's error for an object or a bucket that is not there. */
function isNotFound(error: unknown) {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } } | null;
  return e?.name === 'NoSuchKey' || e?.name === 'NotFound' || e?.$metadata?.httpStatusCode === 404;
}

/**
 * Blobs as objects of one bucket of an S3-compatible service, named `<prefix>/<key>`. Public URLs
 * are `<publicBaseUrl>/<prefix>/<key>` (a CDN in front of the bucket), by default the bucket's own
 * address (`<endpoint>/<bucket>` in path style, `<bucket>.<host>` otherwise).
 *
 * `client` is an SDK client, or a function making one on first use: `createS3BlobStorage` passes
 * the latter, so that the SDK is loaded only by a process that reaches a bucket.
 */
export class S3BlobStorage implements BlobStorage {
  private readonly client: () => Promise<{ sdk: S3Sdk; s3: S3Client }>;
  private made: S3Client | null = null;
  private readonly bucket: string;
  private readonly prefix: string;
  private readonly publicBaseUrl: string;

  constructor(options: { bucket: string; prefix?: string; publicBaseUrl: string; client: () => Promise<{ sdk: S3Sdk; s3: S3Client }> }) {
    this.client = onceAsync(async () => {
      const made = await options.client();
      this.made = made.s3;
      return made;
    });
    this.bucket = options.bucket;
    this.prefix = options.prefix ? `${options.prefix.replace(/^\/+|\/+$/g, '')}/` : '';
    this.publicBaseUrl = options.publicBaseUrl.replace(/\/+$/, '');
  }

  private objectKey(key: string): string {
    if (key === '') throw new Error('Unsafe blob key "": is empty');
    return this.prefix + key;
  }

  async put(key: string, data: Buffer, contentType: string): Promise<StoredBlob> {
    const { sdk, s3 } = await this.client();
    await s3.send(
      new sdk.PutObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key), Body: data, ContentType: contentType, ContentLength: data.length }),
    );
    return { key, size: data.length, contentType };
  }

  async putFile(key: string, source: string, contentType: string): Promise<StoredBlob> {
    const { size } = await stat(source); // a missing source fails before anything is sent
    const { sdk, s3 } = await this.client();
    // One request, its body streamed from the file with its length known up front.
    await s3.send(
      new sdk.PutObjectCommand({
        Bucket: this.bucket,
        Key: this.objectKey(key),
        Body: createReadStream(source),
        ContentType: contentType,
        ContentLength: size,
      }),
    );
    return { key, size, contentType };
  }

  async get(key: string) {
    const { sdk, s3 } = await this.client();
    try {
      const answer = await s3.send(new sdk.GetObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) }));
      const data = answer.Body ? Buffer.from(await answer.Body.transformToByteArray()) : Buffer.alloc(0);
      return { data, contentType: answer.ContentType ?? DEFAULT_CONTENT_TYPE };
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }

  async delete(key: string) {
    const { sdk, s3 } = await this.client();
    // S3 answers 204 for a key that is not there too.
    await s3.send(new sdk.DeleteObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) }));
  }

  async usage(prefix: string) {
    const { sdk, s3 } = await this.client();
    let total = 0;
    let token: string | undefined;
    // Page by page (1,000 keys each), so that a large bucket is never held in memory at once.
    do {
      const page = await s3.send(new sdk.ListObjectsV2Command({ Bucket: this.bucket, Prefix: this.prefix + prefix, ContinuationToken: token }));
      for (const object of page.Contents ?? []) total += object.Size ?? 0;
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return total;
  }

  publicUrl(key: string) {
    return publicUrlOf(this.publicBaseUrl, this.objectKey(key));
  }

  /** Closes the client's connections; the store is not used again. */
  close(): void {
    this.made?.destroy();
  }

  keyOfPublicUrl(url: string) {
    const objectKey = keyOfPublicUrl(this.publicBaseUrl, url);
    if (objectKey === null || !objectKey.startsWith(this.prefix) || objectKey.length === this.prefix.length) return null;
    return objectKey.slice(this.prefix.length);
  }
}

export interface S3BlobStorageOptions {
  /**
   * Resolves the host a request goes to and answers a `lookup` pinned to the checked address (null:
   * it does not resolve); throws to refuse it (a private address). Absent: the system's resolver.
   */
  readonly lookupFor?: (url: URL) => Promise<LookupFunction | null>;
  /** Each request must be answered within this; default 30 s. */
  readonly timeoutMs?: number;
  /** Tries of a request that failed on the way (the SDK retries with back-off); default 2. */
  readonly maxAttempts?: number;
}

/** An IP literal names no bucket subdomain: such endpoints are always reached in path style. */
function isIpHost(host: string): boolean {
  return /^[\d.]+$/.test(host) || host.startsWith('[');
}

/** The address of the bucket: where objects are requested and, without a CDN, read by clients. */
export function bucketUrl(c: Pick<ObjstoreConnection, 'endpoint' | 'bucket' | 'forcePathStyle'>): string {
  const endpoint = new URL(c.endpoint);
  if (c.forcePathStyle || isIpHost(endpoint.hostname)) return `${endpoint.origin}/${encodeURIComponent(c.bucket)}`;
  return `${endpoint.protocol}//${c.bucket}.${endpoint.host}`;
}

/**
 * The S3 adapter of a connection; the SDK is imported when the first blob operation runs, not here.
 * Checksums are computed only where the API requires them, which every S3-compatible service reads.
 */
export function createS3BlobStorage(c: ObjstoreConnection, options: S3BlobStorageOptions = {}): S3BlobStorage {
  const forcePathStyle = c.forcePathStyle || isIpHost(new URL(c.endpoint).hostname);
  const client = async () => {
    const target = new URL(bucketUrl(c));
    const lookup = options.lookupFor ? await options.lookupFor(target) : undefined;
    if (lookup === null) throw Object.assign(new Error(`${target.hostname} does not resolve`), { code: 'ENOTFOUND' });
    const sdk = await import('@aws-sdk/client-s3');
    const agent = { keepAlive: true, ...(lookup ? { lookup } : {}) };
    const s3 = new sdk.S3Client({
      endpoint: c.endpoint,
      region: c.region,
      forcePathStyle,
      credentials: { accessKeyId: c.accessKeyId, secretAccessKey: c.secretAccessKey },
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      maxAttempts: options.maxAttempts ?? 2,
      requestHandler: {
        httpAgent: new http.Agent(agent),
        httpsAgent: new https.Agent(agent),
        connectionTimeout: 10_000,
        requestTimeout: options.timeoutMs ?? 30_000,
      },
    });
    return { sdk, s3 };
  };
  return new S3BlobStorage({ bucket: c.bucket, prefix: c.prefix, publicBaseUrl: c.publicBaseUrl ?? bucketUrl(c), client });
}
