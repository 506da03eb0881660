import { randomBytes } from 'node:crypto';
import { DomainError, type ErrorCode } from '@servicedesk/core';
import type { ObjstoreConnection } from '@servicedesk/core/objstore/objstore-config';
import type { ObjstoreCheckReport, ObjstoreCheckStep, ObjstoreProbe } from '@servicedesk/core/objstore/ports';
import { createS3BlobStorage, type S3BlobStorageOptions } from '../blobs/s3-blob-storage.js';

/** S3's error names for a key pair it does not take. */
const DENIED = new Set(['AccessDenied', 'InvalidAccessKeyId', 'SignatureDoesNotMatch', 'InvalidToken', 'ExpiredToken', 'Forbidden', 'Unauthorized']);

/** What a failed request says, in the catalog's words. */
export function objstoreErrorOf(error: unknown): ErrorCode {
  if (error instanceof DomainError) return error.code; // the address guard: ERR_URL_NOT_ALLOWED
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } } | null;
  const status = e?.$metadata?.httpStatusCode;
  if (e?.name === 'NoSuchBucket') return 'ERR_OBJSTORE_BUCKET_NOT_FOUND';
  if ((e?.name && DENIED.has(e.name)) || status === 401 || status === 403) return 'ERR_OBJSTORE_ACCESS_DENIED';
  // No HTTP answer at all: refused, unresolved, reset or timed out.
  if (status === undefined) return 'ERR_OBJSTORE_UNREACHABLE';
  return 'ERR_OBJSTORE_CHECK_FAILED';
}

/**
 * The connection test on the real bucket: puts a few random bytes at the probe key, reads them back
 * and deletes them, one try each. A failure of the first request that got no answer (or an address
 * refused) is reported at `connect`; any other at the step that failed. `latencyMs` is the whole test.
 */
export class S3ObjstoreProbe implements ObjstoreProbe {
  constructor(private readonly options: Omit<S3BlobStorageOptions, 'maxAttempts'> = {}) {}

  async check(connection: ObjstoreConnection, probeKey: string): Promise<ObjstoreCheckReport> {
    const store = createS3BlobStorage(connection, { ...this.options, timeoutMs: this.options.timeoutMs ?? 10_000, maxAttempts: 1 });
    const body = randomBytes(32);
    const started = performance.now();
    let step: ObjstoreCheckStep = 'write';
    try {
      await store.put(probeKey, body, 'application/octet-stream');
      step = 'read';
      const read = await store.get(probeKey);
      if (!read || !read.data.equals(body)) return { ok: false, step, error: 'ERR_OBJSTORE_CHECK_FAILED' };
      step = 'delete';
      await store.delete(probeKey);
      return { ok: true, latencyMs: Math.round(performance.now() - started) };
    } catch (error) {
      const code = objstoreErrorOf(error);
      const unreached = code === 'ERR_OBJSTORE_UNREACHABLE' || code === 'ERR_URL_NOT_ALLOWED';
      return { ok: false, step: step === 'write' && unreached ? 'connect' : step, error: code };
    } finally {
      // A probe written but not read back is not left behind, as far as the bucket lets us.
      if (step === 'read') await store.delete(probeKey).catch(() => undefined);
      store.close();
    }
  }
}
