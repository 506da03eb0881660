import busboy from 'busboy';
import type { Context } from 'koa';
import type { UploadedFile } from '@servicedesk/core';
import { HttpError } from './error-middleware.js';

export interface MultipartLimits {
  /** Field names that may carry files; files under other names are refused. */
  readonly fileFields: readonly string[];
  readonly maxFileBytes: number;
  readonly maxFiles: number;
  readonly maxFields?: number;
}

export interface MultipartBody {
  readonly fields: Record<string, string>;
  readonly files: Record<string, UploadedFile[]>;
}

/** Streams a multipart body through busboy, enforcing every limit while reading. */
export function readMultipart(ctx: Context, limits: MultipartLimits): Promise<MultipartBody> {
  if (!ctx.is('multipart/form-data')) return Promise.reject(new HttpError(415, 'ERR_UNSUPPORTED_CONTENT_TYPE'));
  return new Promise((resolve, reject) => {
    let failed: HttpError | null = null;
    const fail = (err: HttpError) => { if (!failed) { failed = err; reject(err); ctx.req.unpipe(); ctx.req.resume(); } };
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: ctx.req.headers,
        limits: { fileSize: limits.maxFileBytes, files: limits.maxFiles, fields: limits.maxFields ?? 50, fieldSize: 64 * 1024 },
      });
    } catch {
      return reject(new HttpError(400, 'ERR_INVALID_MULTIPART'));
    }
    const fields: Record<string, string> = {};
    const files: Record<string, UploadedFile[]> = {};
    const pending: Promise<void>[] = [];
    parser.on('field', (name, value, info) => {
      if (info.valueTruncated) return fail(new HttpError(413, 'ERR_FIELD_TOO_LARGE'));
      fields[name] = value;
    });
    parser.on('file', (name, stream, info) => {
      if (!limits.fileFields.includes(name)) {
        stream.resume();
        return fail(new HttpError(422, 'ERR_UNEXPECTED_FILE_FIELD'));
      }
      const chunks: Buffer[] = [];
      pending.push(new Promise<void>((done) => {
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('limit', () => fail(new HttpError(413, 'ERR_FILE_TOO_LARGE')));
        stream.on('close', () => {
          (files[name] ??= []).push({ filename: info.filename ?? 'file', contentType: info.mimeType, data: Buffer.concat(chunks) });
          done();
        });
      }));
    });
    parser.on('filesLimit', () => fail(new HttpError(413, 'ERR_TOO_MANY_FILES')));
    parser.on('fieldsLimit', () => fail(new HttpError(413, 'ERR_TOO_MANY_FIELDS')));
    parser.on('error', () => fail(new HttpError(400, 'ERR_INVALID_MULTIPART')));
    parser.on('close', () => { void Promise.all(pending).then(() => { if (!failed) resolve({ fields, files }); }); });
    ctx.req.pipe(parser);
  });
}
