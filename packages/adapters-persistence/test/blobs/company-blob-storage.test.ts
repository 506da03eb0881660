import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { FixedClock, InsecureTestCipher } from '@servicedesk/core/testing';
import { describeBlobStorageContract } from '@servicedesk/core/contracts/blob-storage-contract';
import { objstoreConfigFixture } from '@servicedesk/core/contracts/objstore-contract';
import { InMemoryBlobLocations, InMemoryObjstoreConfigs } from '@servicedesk/core/testing';
import { sealObjstoreSecret, type ObjstoreConfig } from '@servicedesk/core/objstore/objstore-config';
import { expect } from 'chai';
import { CompanyBlobStorage, type CompanyBlobStorageOptions } from '../../src/blobs/company-blob-storage.js';
import { LocalDiskBlobStorage } from '../../src/blobs/local-disk-blob-storage.js';
import { createS3BlobStorage, type S3BlobStorage } from '../../src/blobs/s3-blob-storage.js';
import { S3_TEST_CREDENTIALS, startS3Server, type TestS3Server } from '../support/s3-server.js';

const SERVED = 'http://backend.test/public-files';

describe('CompanyBlobStorage: blobs routed by company (local disk and s3rver)', function () {
  this.timeout(30_000);
  let server: TestS3Server;
  let dir: string;
  const cipher = new InsecureTestCipher();
  const made: S3BlobStorage[] = [];

  before(async () => {
    server = await startS3Server(['bucket', 'second']);
  });
  after(async () => {
    for (const s of made) s.close();
    await server.close();
  });
  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'company-blobs-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  /** A routing store over a fresh local disk, with the configs and locations in memory. */
  function world(overrides: Partial<CompanyBlobStorageOptions> = {}) {
    const locations = new InMemoryBlobLocations();
    const configs = new InMemoryObjstoreConfigs(locations);
    const clock = new FixedClock();
    const fallback = new LocalDiskBlobStorage({ root: path.join(dir, `disk-${made.length}`), publicBaseUrl: 'http://disk.test' });
    const storeErrors: unknown[] = [];
    const blobs = new CompanyBlobStorage({
      fallback,
      configs,
      locations,
      cipher,
      clock,
      publicBaseUrl: SERVED,
      onStoreError: (e) => storeErrors.push(e),
      storeOf: (connection) => {
        const s = createS3BlobStorage(connection);
        made.push(s);
        return s;
      },
      ...overrides,
    });
    /** A config of company `companyId` on the s3rver, active unless said otherwise. */
    const config = async (companyId: number, overrides: Partial<ObjstoreConfig> = {}, active = true) => {
      const added = await configs.add(
        objstoreConfigFixture(companyId, 's3rver', {
          endpoint: server.endpoint,
          bucket: 'bucket',
          prefix: `c${companyId}-${made.length}`,
          accessKeyId: S3_TEST_CREDENTIALS.accessKeyId,
          ...sealObjstoreSecret(cipher, companyId, S3_TEST_CREDENTIALS.secretAccessKey),
          ...overrides,
        }),
      );
      if (active) await configs.activate(companyId, added.id);
      blobs.changed(companyId);
      return added;
    };
    return { blobs, configs, locations, fallback, clock, config, storeErrors };
  }

  describeBlobStorageContract("CompanyBlobStorage (every key a company's with an active s3rver config)", async () => {
    const w = world({ companyOf: () => 1 });
    await w.config(1);
    return { blobs: w.blobs };
  });
  describeBlobStorageContract('CompanyBlobStorage (no config: the local disk)', async () => ({ blobs: world().blobs }));

  it("puts a company's blobs in its active bucket, recorded with their size; the others on the default store", async () => {
    const w = world();
    const config = await w.config(1);
    await w.blobs.put('public/company-1/media/a.png', Buffer.from('png!'), 'image/png');
    await w.blobs.put('public/company-2/media/b.png', Buffer.from('other'), 'image/png');
    await w.blobs.put('public/logo.png', Buffer.from('logo'), 'image/png');
    expect(await server.objectKeys('bucket', `${config.prefix}/`)).to.deep.equal([`${config.prefix}/public/company-1/media/a.png`]);
    expect(await w.fallback.get('public/company-1/media/a.png')).to.equal(null);
    expect((await w.fallback.get('public/company-2/media/b.png'))?.data.toString()).to.equal('other');
    expect(await w.locations.find('public/company-1/media/a.png')).to.deep.include({ companyId: 1, configId: config.id, size: 4 });
    expect(await w.locations.find('public/company-2/media/b.png')).to.equal(null);
    expect(await w.blobs.get('public/company-1/media/a.png')).to.deep.equal({ data: Buffer.from('png!'), contentType: 'image/png' });
    expect(await w.blobs.usage('public/')).to.equal(13);
    expect(await w.blobs.usage('public/company-1/')).to.equal(4);
  });

  it('finds a blob where it was put after the company deactivates or replaces its config', async () => {
    const w = world();
    const first = await w.config(1);
    await w.blobs.put('public/company-1/media/old.png', Buffer.from('old'), 'image/png');
    await w.configs.deactivate(1, first.id);
    w.blobs.changed(1);
    await w.blobs.put('public/company-1/media/local.png', Buffer.from('local'), 'image/png');
    const second = await w.config(1, { bucket: 'second' });
    await w.blobs.put('public/company-1/media/new.png', Buffer.from('new'), 'image/png');
    expect((await w.fallback.get('public/company-1/media/local.png'))?.data.toString()).to.equal('local');
    expect(await server.objectKeys('second', `${second.prefix}/`)).to.deep.equal([`${second.prefix}/public/company-1/media/new.png`]);
    for (const [key, text] of [
      ['old', 'old'],
      ['local', 'local'],
      ['new', 'new'],
    ] as const) {
      expect((await w.blobs.get(`public/company-1/media/${key}.png`))?.data.toString()).to.equal(text);
    }
    expect(await w.blobs.usage('public/company-1/')).to.equal(11);
    await w.blobs.delete('public/company-1/media/old.png');
    expect(await server.objectKeys('bucket', `${first.prefix}/`)).to.deep.equal([]);
    expect(await w.locations.countOf(1, first.id)).to.equal(0);
    expect(await w.blobs.get('public/company-1/media/old.png')).to.equal(null);
  });

  it('moves a key put again elsewhere: one copy, where it was put last', async () => {
    const w = world();
    await w.blobs.put('public/company-1/a.txt', Buffer.from('on disk'), 'text/plain');
    const config = await w.config(1);
    await w.blobs.put('public/company-1/a.txt', Buffer.from('in the bucket'), 'text/plain');
    expect(await w.fallback.get('public/company-1/a.txt')).to.equal(null);
    await w.configs.deactivate(1, config.id);
    w.blobs.changed(1);
    await w.blobs.put('public/company-1/a.txt', Buffer.from('back on disk'), 'text/plain');
    expect(await server.objectKeys('bucket', `${config.prefix}/`)).to.deep.equal([]);
    expect(await w.locations.find('public/company-1/a.txt')).to.equal(null);
    expect((await w.blobs.get('public/company-1/a.txt'))?.data.toString()).to.equal('back on disk');
    expect(await w.blobs.usage('public/company-1/')).to.equal(12);
  });

  it('trusts its cached choice of config for `cacheSeconds`, unless told the company changed', async () => {
    const w = world({ cacheSeconds: 30 });
    await w.blobs.put('public/company-1/one.txt', Buffer.from('1'), 'text/plain');
    const config = await w.configs.add(
      objstoreConfigFixture(1, 's3rver', {
        endpoint: server.endpoint,
        bucket: 'bucket',
        prefix: 'cache',
        accessKeyId: 'S3RVER',
        ...sealObjstoreSecret(cipher, 1, 'S3RVER'),
      }),
    );
    await w.configs.activate(1, config.id); // another process did it: nobody told this one
    await w.blobs.put('public/company-1/two.txt', Buffer.from('2'), 'text/plain');
    expect(await w.locations.find('public/company-1/two.txt')).to.equal(null);
    w.clock.advance(31_000);
    await w.blobs.put('public/company-1/three.txt', Buffer.from('3'), 'text/plain');
    expect(await w.locations.find('public/company-1/three.txt')).to.deep.include({ configId: config.id });
    await w.configs.deactivate(1, config.id);
    w.blobs.changed(1);
    await w.blobs.put('public/company-1/four.txt', Buffer.from('4'), 'text/plain');
    expect(await w.locations.find('public/company-1/four.txt')).to.equal(null);
  });

  it("answers its own public URLs (the backend finds the blob), still reads the default store's, and sends public blobs to a CDN", async () => {
    const w = world();
    expect(w.blobs.publicUrl('public/company-1/media/a b.png')).to.equal(`${SERVED}/public/company-1/media/a%20b.png`);
    expect(w.blobs.keyOfPublicUrl(`${SERVED}/public/company-1/media/a%20b.png`)).to.equal('public/company-1/media/a b.png');
    expect(w.blobs.keyOfPublicUrl('http://disk.test/public/company-1/x.png')).to.equal('public/company-1/x.png');
    expect(w.blobs.keyOfPublicUrl('http://elsewhere.test/public/x.png')).to.equal(null);
    await w.blobs.put('public/company-2/on-disk.png', Buffer.from('x'), 'image/png');
    const cdn = await w.config(1, { publicBaseUrl: 'https://cdn.example.com' });
    await w.blobs.put('public/company-1/cdn.png', Buffer.from('x'), 'image/png');
    expect(await w.blobs.directUrl('public/company-1/cdn.png')).to.equal(`https://cdn.example.com/${cdn.prefix}/public/company-1/cdn.png`);
    expect(await w.blobs.directUrl('public/company-2/on-disk.png')).to.equal(null);
    await w.config(3, { publicBaseUrl: null });
    await w.blobs.put('public/company-3/no-cdn.png', Buffer.from('x'), 'image/png');
    expect(await w.blobs.directUrl('public/company-3/no-cdn.png')).to.equal(null);
    // A fallback that serves its files itself (GCS) gets the redirects of the blobs it holds.
    const gcsLike = world({ fallbackServesPublicly: true });
    await gcsLike.blobs.put('public/company-2/on-disk.png', Buffer.from('x'), 'image/png');
    expect(await gcsLike.blobs.directUrl('public/company-2/on-disk.png')).to.equal('http://disk.test/public/company-2/on-disk.png');
  });

  it("answers 503 when a company's bucket fails, telling what failed", async () => {
    const w = world();
    await w.config(1, { ...sealObjstoreSecret(cipher, 1, 'wrong-secret') });
    const failure = await w.blobs.put('public/company-1/a.png', Buffer.from('x'), 'image/png').catch((e: { code?: string }) => e.code);
    expect(failure).to.equal('ERR_OBJSTORE_UNAVAILABLE');
    expect(w.storeErrors).to.have.length(1);
    expect(w.storeErrors[0]).to.have.property('name', 'SignatureDoesNotMatch');
    expect(await w.locations.find('public/company-1/a.png')).to.equal(null);
  });
});
