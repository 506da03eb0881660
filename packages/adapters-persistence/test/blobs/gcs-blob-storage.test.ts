import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Storage } from '@google-cloud/storage';
import { describeBlobStorageContract } from '@servicedesk/core/contracts/blob-storage-contract';
import { expect } from 'chai';
import { createGcsBlobStorage, GcsBlobStorage } from '../../src/blobs/gcs-blob-storage.js';

const BUCKET = 'test-bucket';

// --- CRC32C (Castagnoli, reflected polynomial 0x82F63B78), as GCS reports it: base64 of the big-endian value. ---
const CRC32C_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0x82f63b78 : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

function crc32c(data: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of data) crc = CRC32C_TABLE[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function crc32cBase64(data: Buffer): string {
  const out = Buffer.alloc(4);
  out.writeUInt32BE(crc32c(data));
  return out.toString('base64');
}

// --- A fake of the few GCS JSON API calls the SDK makes for put, get, delete and usage. ---
interface StoredObject {
  data: Buffer;
  contentType: string;
  generation: number;
  updated: string;
}
interface SeenRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  authorization: string | undefined;
}

class FakeGcs {
  readonly objects = new Map<string, StoredObject>();
  readonly requests: SeenRequest[] = [];
  /** Objects per page of a list answer, small so that pagination is exercised. */
  pageSize = 2;
  /** Flip a byte of every download, to prove that the SDK's integrity check is on. */
  corruptDownloads = false;
  private generation = 1_700_000_000_000_000;
  private server: Server | undefined;
  endpoint = '';

  async start() {
    this.server = createServer((req, res) => {
      this.handle(req, res).catch((error: unknown) => this.send(res, 500, { error: { code: 500, message: String(error) } }));
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.endpoint = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop() {
    await new Promise<void>((resolve, reject) => this.server?.close((error) => (error ? reject(error) : resolve())) ?? resolve());
  }

  private resource(name: string, o: StoredObject) {
    return {
      kind: 'storage#object',
      id: `${BUCKET}/${name}/${o.generation}`,
      name,
      bucket: BUCKET,
      generation: String(o.generation),
      metageneration: '1',
      contentType: o.contentType,
      size: String(o.data.length),
      updated: o.updated,
      md5Hash: createHash('md5').update(o.data).digest('base64'),
      crc32c: crc32cBase64(o.data),
    };
  }

  private send(res: ServerResponse, status: number, body?: unknown) {
    if (body === undefined) {
      res.writeHead(status).end();
      return;
    }
    res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8' }).end(JSON.stringify(body));
  }

  private notFound(res: ServerResponse, what: string) {
    this.send(res, 404, { error: { code: 404, message: `No such object: ${what}`, errors: [{ message: `No such object: ${what}`, reason: 'notFound' }] } });
  }

  private async handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://fake');
    const method = req.method ?? 'GET';
    this.requests.push({ method, path: url.pathname, query: url.searchParams, authorization: req.headers.authorization });
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);

    const upload = /^\/upload\/storage\/v1\/b\/([^/]+)\/o$/.exec(url.pathname);
    const object = /^\/storage\/v1\/b\/([^/]+)\/o\/(.+)$/.exec(url.pathname);
    const list = /^\/storage\/v1\/b\/([^/]+)\/o$/.exec(url.pathname);
    const bucket = decodeURIComponent((upload ?? object ?? list)?.[1] ?? '');
    if (bucket === 'forbidden-bucket') {
      this.send(res, 403, { error: { code: 403, message: 'Access denied.', errors: [{ reason: 'forbidden' }] } });
      return;
    }
    if (bucket !== BUCKET) {
      this.send(res, 404, { error: { code: 404, message: 'No such bucket' } });
      return;
    }

    if (upload && method === 'POST' && url.searchParams.get('uploadType') === 'multipart') {
      const [metaPart, dataPart] = parseMultipart(body, String(req.headers['content-type']));
      const meta = JSON.parse(metaPart!.body.toString('utf8')) as { contentType?: string; name?: string };
      const name = url.searchParams.get('name') ?? meta.name;
      if (!name || !dataPart) {
        this.send(res, 400, { error: { code: 400, message: 'bad upload' } });
        return;
      }
      const stored = {
        data: dataPart.body,
        contentType: meta.contentType ?? dataPart.contentType,
        generation: ++this.generation,
        updated: new Date().toISOString(),
      };
      this.objects.set(name, stored);
      this.send(res, 200, this.resource(name, stored));
      return;
    }
    if (object) {
      const name = decodeURIComponent(object[2]!);
      const stored = this.objects.get(name);
      const wanted = url.searchParams.get('generation');
      if (!stored || (wanted !== null && wanted !== String(stored.generation))) {
        this.notFound(res, name);
        return;
      }
      if (method === 'DELETE') {
        this.objects.delete(name);
        this.send(res, 204);
        return;
      }
      if (method === 'GET' && url.searchParams.get('alt') === 'media') {
        const r = this.resource(name, stored);
        const data = Buffer.from(stored.data);
        if (this.corruptDownloads && data.length > 0) data[0] = data[0]! ^ 0xff;
        res
          .writeHead(200, {
            'content-type': stored.contentType,
            'content-length': String(data.length),
            'x-goog-hash': `crc32c=${r.crc32c},md5=${r.md5Hash}`,
            'x-goog-stored-content-encoding': 'identity',
            'x-goog-generation': r.generation,
          })
          .end(data);
        return;
      }
      if (method === 'GET') {
        this.send(res, 200, this.resource(name, stored));
        return;
      }
    }
    if (list && method === 'GET') {
      const prefix = url.searchParams.get('prefix') ?? '';
      const names = [...this.objects.keys()].filter((n) => n.startsWith(prefix)).sort();
      const start = Number(url.searchParams.get('pageToken') ?? 0);
      const page = names.slice(start, start + this.pageSize);
      const more = start + this.pageSize < names.length;
      this.send(res, 200, {
        kind: 'storage#objects',
        items: page.map((n) => this.resource(n, this.objects.get(n)!)),
        ...(more ? { nextPageToken: String(start + this.pageSize) } : {}),
      });
      return;
    }
    this.send(res, 501, { error: { code: 501, message: `The fake does not implement ${method} ${url.pathname}` } });
  }
}

/** The parts of a multipart/related body, as the SDK sends simple uploads. */
function parseMultipart(body: Buffer, contentType: string): Array<{ contentType: string; body: Buffer }> {
  const boundary = /boundary=("?)([^";]+)\1/.exec(contentType)?.[2];
  if (!boundary) throw new Error(`not multipart: ${contentType}`);
  const delimiter = Buffer.from(`--${boundary}`);
  const parts: Array<{ contentType: string; body: Buffer }> = [];
  let at = body.indexOf(delimiter);
  while (at !== -1) {
    const start = at + delimiter.length;
    if (body.subarray(start, start + 2).toString() === '--') break; // closing delimiter
    const next = body.indexOf(delimiter, start);
    if (next === -1) break;
    const part = body.subarray(start + 2, next - 2); // after the CRLF that ends the delimiter line, before the CRLF that precedes the next
    const split = part.indexOf('\r\n\r\n');
    const headers = part.subarray(0, split).toString('utf8');
    parts.push({ contentType: /content-type:\s*([^\r\n]+)/i.exec(headers)?.[1] ?? '', body: Buffer.from(part.subarray(split + 4)) });
    at = next;
  }
  return parts;
}

describe('GcsBlobStorage', () => {
  const fake = new FakeGcs();
  let storage: Storage;
  before(async () => {
    await fake.start();
    // A custom apiEndpoint makes the SDK skip authentication (useAuthWithCustomEndpoint defaults to false).
    storage = new Storage({ apiEndpoint: fake.endpoint, projectId: 'test' });
  });
  after(async () => {
    await fake.stop();
  });

  it('computes CRC32C like GCS does (check value of "123456789")', () => {
    expect(crc32c(Buffer.from('123456789'))).to.equal(0xe3069283);
    expect(crc32cBase64(Buffer.from('hello world'))).to.equal('yZRlqg==');
  });

  describeBlobStorageContract('GcsBlobStorage (fake GCS JSON API)', async () => ({
    blobs: new GcsBlobStorage({ bucket: BUCKET, storage }),
    cleanup: async () => {
      fake.corruptDownloads = false;
    },
  }));

  describe('against the fake', () => {
    let blobs: GcsBlobStorage;
    beforeEach(() => {
      blobs = new GcsBlobStorage({ bucket: BUCKET, storage });
      fake.requests.length = 0;
      fake.corruptDownloads = false;
    });

    it('uploads in one unauthenticated multipart request carrying the content type', async () => {
      await blobs.put('company-1/logo.png', Buffer.from('png'), 'image/png');
      expect(fake.requests).to.have.length(1);
      const [upload] = fake.requests;
      expect(upload).to.deep.include({ method: 'POST', path: `/upload/storage/v1/b/${BUCKET}/o`, authorization: undefined });
      expect(upload!.query.get('uploadType')).to.equal('multipart');
      expect(upload!.query.get('name')).to.equal('company-1/logo.png');
      expect(fake.objects.get('company-1/logo.png')).to.deep.include({ contentType: 'image/png', data: Buffer.from('png') });
    });

    it('downloads the generation whose metadata it read', async () => {
      await blobs.put('company-1/pinned.png', Buffer.from('v1'), 'image/png');
      const generation = String(fake.objects.get('company-1/pinned.png')!.generation);
      fake.requests.length = 0;
      await blobs.get('company-1/pinned.png');
      const download = fake.requests.find((r) => r.query.get('alt') === 'media');
      expect(download?.query.get('generation')).to.equal(generation);
    });

    it('sums usage across several pages of the object list', async () => {
      for (let i = 0; i < 5; i++) await blobs.put(`paged/company-1/${i}.bin`, Buffer.alloc(i + 1), 'application/octet-stream');
      await blobs.put('paged/company-2/x.bin', Buffer.alloc(100), 'application/octet-stream');
      fake.requests.length = 0;
      expect(await blobs.usage('paged/company-1/')).to.equal(15);
      const lists = fake.requests.filter((r) => r.path === `/storage/v1/b/${BUCKET}/o`);
      expect(lists).to.have.length(3);
      expect(lists.map((r) => r.query.get('prefix'))).to.deep.equal(['paged/company-1/', 'paged/company-1/', 'paged/company-1/']);
    });

    it('keeps the SDK integrity check on: a corrupted download is an error, not data', async () => {
      await blobs.put('company-1/checked.bin', Buffer.from('important bytes'), 'application/octet-stream');
      fake.corruptDownloads = true;
      const outcome = await blobs.get('company-1/checked.bin').then(
        () => null,
        (error: unknown) => error,
      );
      expect(outcome).to.be.instanceOf(Error);
      expect((outcome as { code?: unknown }).code).to.equal('CONTENT_DOWNLOAD_MISMATCH');
    });

    it('lets errors other than 404 through', async () => {
      const forbidden = new GcsBlobStorage({ bucket: 'forbidden-bucket', storage });
      for (const work of [forbidden.get('a.png'), forbidden.delete('a.png'), forbidden.usage(''), forbidden.put('a.png', Buffer.from('x'), 'image/png')]) {
        const outcome = await work.then(
          () => null,
          (error: unknown) => error,
        );
        expect(outcome).to.be.instanceOf(Error);
        expect((outcome as { code?: unknown }).code).to.equal(403);
      }
    });
  });

  describe('public URLs', () => {
    it('default to storage.googleapis.com/<bucket>, one encoded segment per key segment', () => {
      const blobs = new GcsBlobStorage({ bucket: 'my-bucket', storage: new Storage({ projectId: 'test' }) });
      expect(blobs.publicUrl('company-1/foto perfil#1.png')).to.equal('https://storage.googleapis.com/my-bucket/company-1/foto%20perfil%231.png');
      expect(blobs.keyOfPublicUrl('https://storage.googleapis.com/my-bucket/company-1/foto%20perfil%231.png')).to.equal('company-1/foto perfil#1.png');
      expect(blobs.keyOfPublicUrl('https://storage.googleapis.com/other-bucket/company-1/logo.png')).to.equal(null);
      expect(blobs.keyOfPublicUrl('https://storage.googleapis.com/my-bucket/company-1%2Flogo.png')).to.equal(null);
      expect(blobs.keyOfPublicUrl('https://storage.googleapis.com/my-bucket/')).to.equal(null);
      expect(blobs.keyOfPublicUrl('https://storage.googleapis.com/my-bucket/%E0%A4%A')).to.equal(null);
    });

    it('use publicBaseUrl when given', () => {
      const blobs = createGcsBlobStorage({ bucket: 'my-bucket', projectId: 'test', publicBaseUrl: 'https://cdn.example.com/media/' });
      expect(blobs.publicUrl('company-1/logo.png')).to.equal('https://cdn.example.com/media/company-1/logo.png');
      expect(blobs.keyOfPublicUrl('https://cdn.example.com/media/company-1/logo.png')).to.equal('company-1/logo.png');
      expect(blobs.keyOfPublicUrl('https://storage.googleapis.com/my-bucket/company-1/logo.png')).to.equal(null);
    });
  });

  it('createGcsBlobStorage reaches a custom apiEndpoint without credentials', async () => {
    const blobs = createGcsBlobStorage({ bucket: BUCKET, projectId: 'test', apiEndpoint: fake.endpoint });
    await blobs.put('created/a.txt', Buffer.from('hello'), 'text/plain');
    expect(await blobs.get('created/a.txt')).to.deep.equal({ data: Buffer.from('hello'), contentType: 'text/plain' });
  });
});
