import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { unlink } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import busboy from 'busboy';
import type { Context } from 'koa';
import { UPLOAD_HEAD_BYTES, type TempFileUpload } from '@servicedesk/core';
import { HttpError } from './error-middleware.js';

export interface MultipartLimits {
  /** Field names that may carry files; files under other names are refused. */
  readonly fileFields: readonly string[];
  readonly maxFileBytes: number;
  readonly maxFiles: number;
  readonly maxFields?: number;
  /**
   * Bytes of the whole request body (files, fields and part headers); over it the request answers
   * 413 `ERR_BODY_TOO_LARGE`. Default: `multipartTotalLimit`.
   */
  readonly maxTotalBytes?: number;
}

export interface MultipartBody {
  /** Each text field's value (the last one when a name repeats). */
  readonly fields: Record<string, string>;
  /** Every value of each text field, in the body's order (forms send parallel arrays under one repeated name). */
  readonly fieldLists: Record<string, string[]>;
  readonly files: Record<string, TempFileUpload[]>;
}

/** A read multipart body whose files are temporary files, removed by `dispose`. */
export interface MultipartUpload extends MultipartBody {
  dispose(): Promise<void>;
}

/** No multipart request may be larger than this unless its route says so (`maxTotalBytes`). */
export const MAX_MULTIPART_BYTES = 64 * 1024 * 1024;
/** Room for text fields and part headers next to the files. */
const FIELDS_ALLOWANCE = 1024 * 1024;
const MAX_FIELD_BYTES = 64 * 1024;

/** The per-request byte limit of a route: its own, or every file at its largest plus fields, capped. */
export function multipartTotalLimit(limits: MultipartLimits): number {
  return limits.maxTotalBytes ?? Math.min(limits.maxFiles * limits.maxFileBytes + FIELDS_ALLOWANCE, MAX_MULTIPART_BYTES);
}

/** Temporary upload files are named after the process, so a test can tell its own leftovers. */
export const TEMP_FILE_PREFIX = `sd-upload-${process.pid}-`;

/** The uploads read for a request, removed by `releaseMultipart` once the route is done. */
const uploadsOf = new WeakMap<Context, MultipartUpload>();

/** Removes the temporary files of the request's multipart body, if one was read; never throws. */
export async function releaseMultipart(ctx: Context): Promise<void> {
  const upload = uploadsOf.get(ctx);
  uploadsOf.delete(ctx);
  await upload?.dispose().catch(() => undefined);
}

/**
 * Gives a stream an `error` listener, so that an error it emits during teardown (busboy destroys the
 * part being read with "Unexpected end of file") is not uncaught: the failure is reported elsewhere.
 */
function quiet<T extends NodeJS.EventEmitter>(stream: T): T {
  return stream.on('error', () => undefined);
}

function isSystemError(err: unknown): boolean {
  return typeof err === 'object' && err !== null && 'syscall' in err;
}

/**
 * Streams a multipart body through busboy, enforcing every limit while reading: each file goes to
 * its own temporary file (only its first bytes stay in memory), the whole body is counted against
 * the route's total limit. Any failure (malformed or truncated body, a limit, an empty file, the
 * client going away) stops reading, removes the temporary files and rejects with a 4xx HttpError;
 * on success the caller must `dispose()` (or `releaseMultipart(ctx)`) once done with the files.
 */
export function readMultipart(ctx: Context, limits: MultipartLimits): Promise<MultipartUpload> {
  if (!ctx.is('multipart/form-data')) return Promise.reject(new HttpError(415, 'ERR_UNSUPPORTED_CONTENT_TYPE'));
  const totalLimit = multipartTotalLimit(limits);
  const declared = ctx.request.length;
  if (declared !== undefined && declared > totalLimit) {
    // Nothing is read: the connection is closed after the answer rather than drained.
    ctx.set('Connection', 'close');
    return Promise.reject(new HttpError(413, 'ERR_BODY_TOO_LARGE'));
  }
  const req = ctx.req;
  // The client went away before the route came to its body: its 'close' has passed and nothing will be read.
  if (req.destroyed) return Promise.reject(new HttpError(400, 'ERR_INVALID_MULTIPART'));
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: req.headers,
        // Browsers send file names as UTF-8 bytes (busboy's default reads them as latin1: "PromoÃ§Ã£o.png").
        defParamCharset: 'utf8',
        limits: { fileSize: limits.maxFileBytes, files: limits.maxFiles, fields: limits.maxFields ?? 50, fieldSize: MAX_FIELD_BYTES },
      });
    } catch {
      reject(new HttpError(400, 'ERR_INVALID_MULTIPART'));
      return;
    }
    // Before anything is written to it: busboy reports a malformed body as an error of the parser.
    parser.on('error', () => fail(new HttpError(400, 'ERR_INVALID_MULTIPART')));
    // Without a prototype: a field named `constructor` or `__proto__` is a field like any other.
    const fields: Record<string, string> = Object.create(null);
    const fieldLists: Record<string, string[]> = Object.create(null);
    /** Files in the order of the body; null for a part without a chosen file. */
    const slots: Record<string, Array<TempFileUpload | null>> = Object.create(null);
    const temps: string[] = [];
    /** Every file's writing, settled once its temporary file is closed: only then may it be removed. */
    const writes: Promise<void>[] = [];
    let failed = false;
    let received = 0;

    const removeTemps = async () => {
      await Promise.allSettled(writes);
      await Promise.all(temps.map((t) => unlink(t).catch(() => undefined)));
    };
    const onData = (chunk: Buffer) => {
      received += chunk.length;
      if (received > totalLimit) fail(new HttpError(413, 'ERR_BODY_TOO_LARGE'));
    };
    const onClose = () => {
      if (!req.complete) fail(new HttpError(400, 'ERR_INVALID_MULTIPART'));
    };
    const onError = () => fail(new HttpError(400, 'ERR_INVALID_MULTIPART'));
    const detach = () => {
      req.off('data', onData);
      req.off('close', onClose);
      req.off('error', onError);
    };
    function fail(err: Error) {
      if (failed) return;
      failed = true;
      req.off('data', onData);
      req.off('close', onClose);
      // The error listener stays: the rest of the body is still read (below), and the client may reset meanwhile.
      req.unpipe(parser);
      // The rest of the body is discarded, never parsed or stored; the answer can then be read by the client.
      req.resume();
      // Not now: fail may run inside a busboy callback ('limit'), which goes on using its state.
      process.nextTick(() => parser.destroy());
      void removeTemps().then(() => reject(err));
    }

    req.on('data', onData);
    req.on('close', onClose);
    req.on('error', onError);
    parser.on('field', (name, value, info) => {
      if (info.valueTruncated) return fail(new HttpError(413, 'ERR_FIELD_TOO_LARGE'));
      fields[name] = value;
      (fieldLists[name] ??= []).push(value);
    });
    parser.on('file', (name, stream, info) => {
      // First of all: a part still streaming when the parser is destroyed gets an error, whether read or skipped.
      quiet(stream);
      if (failed || !limits.fileFields.includes(name)) {
        stream.resume();
        return fail(new HttpError(422, 'ERR_UNEXPECTED_FILE_FIELD'));
      }
      const slot = (slots[name] ??= []);
      const index = slot.push(null) - 1;
      const temp = path.join(os.tmpdir(), `${TEMP_FILE_PREFIX}${randomBytes(8).toString('hex')}`);
      temps.push(temp);
      let size = 0;
      const head: Buffer[] = [];
      let headBytes = 0;
      // Hashed as it streams past (no second read): an idempotent send compares the files' contents.
      const digest = createHash('sha256');
      const meter = quiet(
        new Transform({
          transform(chunk: Buffer, _encoding, done) {
            size += chunk.length;
            digest.update(chunk);
            if (headBytes < UPLOAD_HEAD_BYTES) {
              const part = Buffer.from(chunk.subarray(0, UPLOAD_HEAD_BYTES - headBytes)); // a copy: the chunk is not kept
              head.push(part);
              headBytes += part.length;
            }
            done(null, chunk);
          },
        }),
      );
      stream.on('limit', () => fail(new HttpError(413, 'ERR_FILE_TOO_LARGE')));
      // The pipeline reports these streams' errors; the listeners cover an error after it has settled.
      const out = quiet(createWriteStream(temp, { flags: 'wx', mode: 0o600 }));
      // A failing part settles the pipeline at once, possibly before the file is even opened: an
      // unlink then would come before the file exists. The file is done with only once closed.
      writes.push(new Promise<void>((done) => out.once('close', () => done())));
      writes.push(
        pipeline(stream, meter, out).then(
          () => {
            if (failed) return;
            if (size === 0) {
              // A form's file input left empty sends a part without a file name: no file, not an empty one.
              if (!info.filename) return;
              return fail(new HttpError(422, 'ERR_EMPTY_FILE'));
            }
            slot[index] = {
              filename: info.filename || 'file',
              contentType: info.mimeType,
              path: temp,
              size,
              head: Buffer.concat(head),
              sha256: digest.digest('hex'),
            };
          },
          (err: unknown) => fail(isSystemError(err) ? (err as Error) : new HttpError(400, 'ERR_INVALID_MULTIPART')),
        ),
      );
    });
    parser.on('filesLimit', () => fail(new HttpError(413, 'ERR_TOO_MANY_FILES')));
    parser.on('fieldsLimit', () => fail(new HttpError(413, 'ERR_TOO_MANY_FIELDS')));
    parser.on('close', () => {
      void Promise.allSettled(writes).then(() => {
        if (failed) return;
        detach();
        const files: Record<string, TempFileUpload[]> = {};
        for (const [name, list] of Object.entries(slots)) {
          const present = list.filter((f): f is TempFileUpload => f !== null);
          if (present.length) files[name] = present;
        }
        const upload = { fields, fieldLists, files, dispose: removeTemps };
        uploadsOf.set(ctx, upload);
        resolve(upload);
      });
    });
    req.pipe(parser);
  });
}
