import { createServer } from 'node:net';
import { ValidationError } from '@servicedesk/core';
import { describeBlobStorageContract } from '@servicedesk/core/contracts/blob-storage-contract';
import type { ObjstoreConnection } from '@servicedesk/core/objstore/objstore-config';
import { expect } from 'chai';
import { bucketUrl, createS3BlobStorage, type S3BlobStorage } from '../../src/blobs/s3-blob-storage.js';
import { S3ObjstoreProbe } from '../../src/objstore/s3-objstore-probe.js';
import { S3_TEST_CREDENTIALS, startS3Server, type TestS3Server } from '../support/s3-server.js';

describe('S3BlobStorage (s3rver)', function () {
  this.timeout(30_000);
  let server: TestS3Server;
  const opened: S3BlobStorage[] = [];
  const connection = (overrides: Partial<ObjstoreConnection> = {}): ObjstoreConnection => ({
    endpoint: server.endpoint,
    region: 'us-east-1',
    bucket: 'bucket',
    prefix: '',
    forcePathStyle: true,
    publicBaseUrl: null,
    ...S3_TEST_CREDENTIALS,
    ...overrides,
  });
  const store = (overrides: Partial<ObjstoreConnection> = {}) => {
    const made = createS3BlobStorage(connection(overrides));
    opened.push(made);
    return made;
  };

  before(async () => {
    server = await startS3Server(['bucket', 'other']);
  });
  after(async () => {
    for (const s of opened) s.close();
    await server.close();
  });

  describeBlobStorageContract('S3BlobStorage (s3rver, no prefix)', async () => ({ blobs: store() }));
  describeBlobStorageContract('S3BlobStorage (s3rver, under a prefix, through a CDN base)', async () => ({
    blobs: store({ prefix: 'desk/uploads', publicBaseUrl: 'https://cdn.example.com/media' }),
  }));

  it('names objects `<prefix>/<key>` and answers their public URLs there', async () => {
    const blobs = store({ prefix: 'tenant-a', publicBaseUrl: 'https://cdn.example.com' });
    await blobs.put('public/company-1/media/a b.png', Buffer.from('png'), 'image/png');
    expect(await server.objectKeys('bucket', 'tenant-a/')).to.deep.equal(['tenant-a/public/company-1/media/a b.png']);
    expect(blobs.publicUrl('public/company-1/media/a b.png')).to.equal('https://cdn.example.com/tenant-a/public/company-1/media/a%20b.png');
    expect(blobs.keyOfPublicUrl('https://cdn.example.com/tenant-a/public/company-1/media/a%20b.png')).to.equal('public/company-1/media/a b.png');
    expect(blobs.keyOfPublicUrl('https://cdn.example.com/tenant-b/public/x.png')).to.equal(null);
    expect(blobs.keyOfPublicUrl('https://cdn.example.com/tenant-a/')).to.equal(null);
    expect(await store().get('public/company-1/media/a b.png')).to.equal(null);
  });

  it("reads the bucket's own address without a CDN: path style, or the bucket as a subdomain", () => {
    expect(bucketUrl({ endpoint: 'https://minio.example.com:9000', bucket: 'media', forcePathStyle: true })).to.equal('https://minio.example.com:9000/media');
    expect(bucketUrl({ endpoint: 'https://s3.sa-east-1.amazonaws.com', bucket: 'media', forcePathStyle: false })).to.equal(
      'https://media.s3.sa-east-1.amazonaws.com',
    );
    // An address has no subdomains.
    expect(bucketUrl({ endpoint: 'http://127.0.0.1:9000', bucket: 'media', forcePathStyle: false })).to.equal('http://127.0.0.1:9000/media');
    expect(store({ bucket: 'other' }).publicUrl('a/b.txt')).to.equal(`${server.endpoint}/other/a/b.txt`);
  });

  it('fails, rather than storing anything, with a wrong secret', async () => {
    const before = server.refusedSignatures;
    const failure = await store({ secretAccessKey: 'wrong-secret' })
      .put('x/y.txt', Buffer.from('x'), 'text/plain')
      .catch((e: { name?: string }) => e);
    expect(failure).to.have.property('name', 'SignatureDoesNotMatch');
    expect(server.refusedSignatures).to.be.greaterThan(before);
    expect(await store().get('x/y.txt')).to.equal(null);
  });

  it('connects only to the address its guard checked, and not at all when the guard refuses', async () => {
    const seen: string[] = [];
    const guarded = createS3BlobStorage(connection(), {
      lookupFor: async (url) => {
        seen.push(url.href);
        if (url.hostname === 'blocked.example') throw new ValidationError('ERR_URL_NOT_ALLOWED');
        return null;
      },
    });
    expect(await guarded.get('a.txt').catch((e: { code?: string }) => e.code)).to.equal('ENOTFOUND');
    expect(seen).to.deep.equal([`${server.endpoint}/bucket`]);
    const blocked = createS3BlobStorage(connection({ endpoint: 'http://blocked.example' }), {
      lookupFor: async () => {
        throw new ValidationError('ERR_URL_NOT_ALLOWED');
      },
    });
    expect(await blocked.put('a.txt', Buffer.from('a'), 'text/plain').catch((e: { code?: string }) => e.code)).to.equal('ERR_URL_NOT_ALLOWED');
  });

  describe('the connection test', () => {
    const probe = new S3ObjstoreProbe();

    it('writes, reads back and deletes the probe under the prefix', async () => {
      const report = await probe.check(connection({ prefix: 'probe-ok' }), '.healthcheck-1');
      expect(report).to.deep.include({ ok: true });
      expect(report.ok && report.latencyMs).to.be.a('number');
      expect(await server.objectKeys('bucket', 'probe-ok/')).to.deep.equal([]);
    });

    it('says which step failed and why', async () => {
      expect(await probe.check(connection({ secretAccessKey: 'wrong-secret' }), '.healthcheck-2')).to.deep.equal({
        ok: false,
        step: 'write',
        error: 'ERR_OBJSTORE_ACCESS_DENIED',
      });
      expect(await probe.check(connection({ accessKeyId: 'NOBODY' }), '.healthcheck-3')).to.deep.equal({
        ok: false,
        step: 'write',
        error: 'ERR_OBJSTORE_ACCESS_DENIED',
      });
      expect(await probe.check(connection({ bucket: 'missing-bucket' }), '.healthcheck-4')).to.deep.equal({
        ok: false,
        step: 'write',
        error: 'ERR_OBJSTORE_BUCKET_NOT_FOUND',
      });
      const closed = await freePort();
      expect(await probe.check(connection({ endpoint: `http://127.0.0.1:${closed}` }), '.healthcheck-5')).to.deep.equal({
        ok: false,
        step: 'connect',
        error: 'ERR_OBJSTORE_UNREACHABLE',
      });
      const guarded = new S3ObjstoreProbe({
        lookupFor: async () => {
          throw new ValidationError('ERR_URL_NOT_ALLOWED');
        },
      });
      expect(await guarded.check(connection(), '.healthcheck-6')).to.deep.equal({ ok: false, step: 'connect', error: 'ERR_URL_NOT_ALLOWED' });
      expect(await server.objectKeys('bucket', '.healthcheck')).to.deep.equal([]);
    });
  });
});

/** A port nothing listens on (it was free a moment ago). */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}
