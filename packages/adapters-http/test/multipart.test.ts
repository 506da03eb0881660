import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { readFile, readdir, stat } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import Router from '@koa/router';
import Koa from 'koa';
import { expect } from 'chai';
import { pino } from 'pino';
import { z } from 'zod';
import type { TempFileUpload } from '@servicedesk/core';
import {
  errorMiddleware,
  type HttpError,
  MAX_MULTIPART_BYTES,
  mountRoutes,
  multipartTotalLimit,
  readMultipart,
  route,
  TEMP_FILE_PREFIX,
  type AccessApi,
} from '../src/index.js';

const BOUNDARY = 'unit-boundary-42';

function part(name: string, value: string | Buffer, filename?: string): Buffer {
  const disposition = `form-data; name="${name}"${filename === undefined ? '' : `; filename="${filename}"`}`;
  const type = filename === undefined ? '' : 'Content-Type: application/octet-stream\r\n';
  return Buffer.concat([Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: ${disposition}\r\n${type}\r\n`), Buffer.from(value), Buffer.from('\r\n')]);
}
const closing = Buffer.from(`--${BOUNDARY}--\r\n`);

async function leftovers() {
  return (await readdir(os.tmpdir())).filter((n) => n.startsWith(TEMP_FILE_PREFIX));
}

describe('HTTP multipart reader', () => {
  let server: Server;
  let port: number;
  /** What the handler saw of each file while the request ran, and whether the file existed then. */
  let seen: Array<{ field: string; file: TempFileUpload; content: Buffer }> = [];
  let handled = 0;
  before(async () => {
    const koa = new Koa();
    const router = new Router();
    koa.use(errorMiddleware(pino({ level: 'silent' })));
    const capture = async (files: Record<string, TempFileUpload[]>) => {
      handled++;
      for (const [field, list] of Object.entries(files)) for (const file of list) seen.push({ field, file, content: await readFile(file.path) });
    };
    mountRoutes(
      router,
      [
        route({
          method: 'POST',
          path: '/upload',
          auth: 'none',
          tag: 't',
          summary: 's',
          body: z.object({ note: z.string().optional() }),
          multipart: { fileFields: ['file', 'more'], maxFileBytes: 1000, maxFiles: 3, maxTotalBytes: 2500 },
          handler: async ({ body, multipart }) => {
            await capture(multipart.files);
            return { note: body.note ?? null };
          },
        }),
        route({
          method: 'POST',
          path: '/upload-then-fail',
          auth: 'none',
          tag: 't',
          summary: 's',
          multipart: { fileFields: ['file'], maxFileBytes: 1000, maxFiles: 1 },
          handler: async ({ multipart }) => {
            await capture(multipart.files);
            throw new Error('handler failed');
          },
        }),
      ],
      { app: {} as AccessApi },
    );
    koa.use(router.routes());
    server = createServer(koa.callback()).listen(0);
    server.on('clientError', (_err, socket) => socket.destroy()); // the client that goes away mid-body
    port = (server.address() as { port: number }).port;
  });
  after(() => {
    server.close();
  });
  beforeEach(() => {
    seen = [];
    handled = 0;
  });

  const post = async (path: string, body: Buffer, contentType = `multipart/form-data; boundary=${BOUNDARY}`) => {
    const res = await fetch(`http://127.0.0.1:${port}${path}`, { method: 'POST', body, headers: { 'content-type': contentType } });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };

  it('streams files to temporary files the handler reads, keeps their first bytes, and removes them after the request', async () => {
    const big = Buffer.from(Array.from({ length: 900 }, (_, i) => i % 251));
    const res = await post(
      '/upload',
      Buffer.concat([part('note', 'hi'), part('file', big, 'a.bin'), part('more', 'second', 'b.txt'), part('more', 'third', 'c.txt'), closing]),
    );
    expect(res).to.deep.equal({ status: 200, body: { note: 'hi' } });
    expect(seen.map((s) => [s.field, s.file.filename, s.file.size])).to.deep.equal([
      ['file', 'a.bin', 900],
      ['more', 'b.txt', 6],
      ['more', 'c.txt', 5],
    ]);
    expect(seen[0]!.content.equals(big)).to.equal(true);
    expect(seen[0]!.file.head.equals(big.subarray(0, 64))).to.equal(true);
    expect(seen[1]!.file.head.toString()).to.equal('second');
    // Each file's digest, computed while it streamed, is that of its whole content.
    expect(seen.map((s) => s.file.sha256)).to.deep.equal([big, 'second', 'third'].map((c) => createHash('sha256').update(c).digest('hex')));
    expect(seen[0]!.file.path.startsWith(os.tmpdir())).to.equal(true);
    for (const s of seen)
      expect(
        await stat(s.file.path).then(
          () => 'exists',
          () => 'removed',
        ),
      ).to.equal('removed');
    expect(await leftovers()).to.deep.equal([]);
  });

  it('reads a file name sent as UTF-8, as browsers send it', async () => {
    const res = await post('/upload', Buffer.concat([part('file', 'bytes', 'Promoção de Março.png'), closing]));
    expect(res.status).to.equal(200);
    expect(seen.map((s) => s.file.filename)).to.deep.equal(['Promoção de Março.png']);
  });

  it('removes the temporary files when the handler fails', async () => {
    const res = await post('/upload-then-fail', Buffer.concat([part('file', 'data', 'a.bin'), closing]));
    expect(res.status).to.equal(500);
    expect(seen).to.have.length(1);
    expect(await leftovers()).to.deep.equal([]);
  });

  it('answers a body cut inside a file part with 400, and the server keeps serving', async () => {
    const truncated = Buffer.concat([
      Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="a.bin"\r\n\r\n`),
      Buffer.alloc(500, 1),
    ]);
    expect(await post('/upload', truncated)).to.deep.equal({ status: 400, body: { error: 'ERR_INVALID_MULTIPART' } });
    expect(await leftovers()).to.deep.equal([]);
    // The same over a raw socket with a declared length the body never reaches, the client going away.
    await new Promise<void>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.write(`POST /upload HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary=${BOUNDARY}\r\nContent-Length: 2000\r\n\r\n`);
        socket.end(truncated);
      });
      socket.on('close', () => resolve());
      socket.on('error', () => undefined);
      socket.resume();
    });
    expect(await post('/upload', Buffer.concat([part('file', 'ok', 'a.bin'), closing]))).to.deep.equal({ status: 200, body: { note: null } });
    expect(handled).to.equal(1);
  });

  it('removes the temporary file of a cut body even when the disk creates it only after the part failed', async () => {
    // A slow disk: the temporary file is opened 30 ms late, when its part has long failed (no closing boundary).
    const opens: Promise<void>[] = [];
    const realOpen = fs.open;
    const lateOpen = (file: fs.PathLike, ...rest: unknown[]) => {
      const callback = rest.pop() as (err: NodeJS.ErrnoException | null, fd: number) => void;
      const open = realOpen as (...args: unknown[]) => void;
      if (typeof file !== 'string' || !path.basename(file).startsWith(TEMP_FILE_PREFIX)) return open(file, ...rest, callback);
      opens.push(
        new Promise((resolve) => {
          setTimeout(
            () =>
              open(file, ...rest, (err: NodeJS.ErrnoException | null, fd: number) => {
                callback(err, fd);
                resolve();
              }),
            30,
          );
        }),
      );
    };
    fs.open = lateOpen as unknown as typeof fs.open;
    try {
      const truncated = Buffer.concat([
        Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="a.bin"\r\n\r\n`),
        Buffer.alloc(50, 1),
      ]);
      expect(await post('/upload', truncated)).to.deep.equal({ status: 400, body: { error: 'ERR_INVALID_MULTIPART' } });
    } finally {
      fs.open = realOpen;
    }
    expect(opens).to.have.length(1);
    // Once the late open has created the file, nothing may be left of it.
    await Promise.all(opens);
    expect(await leftovers()).to.deep.equal([]);
  });

  it('refuses at once a body whose client went away before the route came to read it', async function () {
    this.timeout(5000); // the failure to catch is a read that never settles
    const koa = new Koa();
    koa.silent = true;
    let outcome: Promise<string> | undefined;
    let arrived!: () => void;
    let read!: () => void;
    const arrival = new Promise<void>((resolve) => {
      arrived = resolve;
    });
    const reading = new Promise<void>((resolve) => {
      read = resolve;
    });
    koa.use(async (ctx) => {
      arrived();
      // The route is still busy (authenticating, say) when the client goes away.
      await new Promise((resolve) => ctx.req.once('close', resolve));
      outcome = readMultipart(ctx, { fileFields: ['file'], maxFileBytes: 1000, maxFiles: 1 }).then(
        async (upload) => {
          await upload.dispose();
          return 'read';
        },
        (err: HttpError) => `${err.status} ${err.code}`,
      );
      read();
      await outcome;
    });
    const slow = createServer(koa.callback()).listen(0);
    try {
      const socket = connect((slow.address() as AddressInfo).port, '127.0.0.1', () => {
        socket.write(`POST / HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary=${BOUNDARY}\r\nContent-Length: 2000\r\n\r\n`);
        socket.write(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="a.bin"\r\n\r\n${'x'.repeat(300)}`);
      });
      socket.on('error', () => undefined);
      await arrival;
      socket.destroy();
      await reading;
      expect(await outcome).to.equal('400 ERR_INVALID_MULTIPART');
      expect(await leftovers()).to.deep.equal([]);
    } finally {
      slow.close();
    }
  });

  it('answers a malformed or missing boundary with 400 and a non-multipart body with 415', async () => {
    expect(await post('/upload', Buffer.from('garbage'), 'multipart/form-data')).to.deep.equal({ status: 400, body: { error: 'ERR_INVALID_MULTIPART' } });
    expect((await post('/upload', Buffer.from('no boundary line at all'))).status).to.equal(400);
    expect((await post('/upload', Buffer.from('{}'), 'application/json')).status).to.equal(415);
    expect(handled).to.equal(0);
  });

  it('enforces file size, file count and the total while streaming: 413, nothing handed on, nothing left', async () => {
    expect(await post('/upload', Buffer.concat([part('file', Buffer.alloc(1001), 'big.bin'), closing]))).to.deep.equal({
      status: 413,
      body: { error: 'ERR_FILE_TOO_LARGE' },
    });
    const four = [1, 2, 3, 4].map((i) => part('more', 'x', `${i}.txt`));
    expect(await post('/upload', Buffer.concat([...four, closing]))).to.deep.equal({ status: 413, body: { error: 'ERR_TOO_MANY_FILES' } });
    // Three files of 900 bytes: each under 1000, together over the route's 2500.
    const three = [1, 2, 3].map((i) => part('more', Buffer.alloc(900, i), `${i}.bin`));
    expect(await post('/upload', Buffer.concat([...three, closing]))).to.deep.equal({ status: 413, body: { error: 'ERR_BODY_TOO_LARGE' } });
    expect(await post('/upload', Buffer.concat([part('other', 'x', 'x.bin'), closing]))).to.deep.equal({
      status: 422,
      body: { error: 'ERR_UNEXPECTED_FILE_FIELD' },
    });
    expect(handled).to.equal(0);
    expect(await leftovers()).to.deep.equal([]);
  });

  it('refuses an empty file with 422, but reads a file input left empty (no file name) as no file', async () => {
    expect(await post('/upload', Buffer.concat([part('file', 'data', 'a.bin'), part('more', '', 'empty.bin'), closing]))).to.deep.equal({
      status: 422,
      body: { error: 'ERR_EMPTY_FILE' },
    });
    expect(handled).to.equal(0);
    expect(await post('/upload', Buffer.concat([part('note', 'n'), part('file', '', ''), closing]))).to.deep.equal({ status: 200, body: { note: 'n' } });
    expect(seen).to.deep.equal([]);
    expect(await leftovers()).to.deep.equal([]);
  });

  it('derives the default total from the file limits, capped', () => {
    expect(multipartTotalLimit({ fileFields: ['f'], maxFileBytes: 2 * 1024 * 1024, maxFiles: 1 })).to.equal(3 * 1024 * 1024);
    expect(multipartTotalLimit({ fileFields: ['f'], maxFileBytes: 16 * 1024 * 1024, maxFiles: 10 })).to.equal(MAX_MULTIPART_BYTES);
    expect(multipartTotalLimit({ fileFields: ['f'], maxFileBytes: 10, maxFiles: 1, maxTotalBytes: 99 })).to.equal(99);
  });
});
