import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describeBlobStorageContract } from '@servicedesk/core/contracts/blob-storage-contract';
import { expect } from 'chai';
import { LocalDiskBlobStorage } from '../../src/blobs/local-disk-blob-storage.js';

const BASE_URL = 'https://files.example.com/uploads';

async function tempRoot() {
  return mkdtemp(path.join(os.tmpdir(), 'sd-blobs-'));
}

/** All files below a folder, as `/`-separated relative paths. */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)).split(path.sep).join('/'))
    .sort();
}

async function rejection(work: Promise<unknown>): Promise<Error> {
  const outcome = await work.then(
    () => null,
    (error: unknown) => error,
  );
  expect(outcome, 'expected a rejection').to.be.instanceOf(Error);
  return outcome as Error;
}

describeBlobStorageContract('LocalDiskBlobStorage', async () => {
  const root = await tempRoot();
  return { blobs: new LocalDiskBlobStorage({ root, publicBaseUrl: BASE_URL }), cleanup: () => rm(root, { recursive: true, force: true }) };
});

describe('LocalDiskBlobStorage', () => {
  let root: string;
  let blobs: LocalDiskBlobStorage;
  beforeEach(async () => {
    root = await tempRoot();
    blobs = new LocalDiskBlobStorage({ root: path.join(root, 'store'), publicBaseUrl: `${BASE_URL}/` });
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('stores a blob as a plain file with a content-type sidecar and leaves no temporary files', async () => {
    await blobs.put('company-1/logo.png', Buffer.from('png'), 'image/png');
    await blobs.put('company-1/logo.png', Buffer.from('png2'), 'image/png');
    expect(await filesUnder(path.join(root, 'store'))).to.deep.equal(['company-1/logo.png', 'company-1/logo.png.meta.json']);
    expect(await readFile(path.join(root, 'store', 'company-1', 'logo.png'), 'utf8')).to.equal('png2');
    expect(JSON.parse(await readFile(path.join(root, 'store', 'company-1', 'logo.png.meta.json'), 'utf8'))).to.deep.equal({ contentType: 'image/png' });
    await blobs.delete('company-1/logo.png');
    expect(await filesUnder(path.join(root, 'store'))).to.deep.equal([]);
  });

  it('reads a blob without a sidecar as application/octet-stream, and ignores stray hidden files in usage', async () => {
    await blobs.put('company-1/a.bin', Buffer.from('abc'), 'image/png');
    await rm(path.join(root, 'store', 'company-1', 'a.bin.meta.json'));
    await writeFile(path.join(root, 'store', 'company-1', '.a.bin.123.tmp'), 'half-written');
    expect(await blobs.get('company-1/a.bin')).to.deep.equal({ data: Buffer.from('abc'), contentType: 'application/octet-stream' });
    expect(await blobs.usage('company-1/')).to.equal(3);
  });

  it('answers null for a key that names a folder', async () => {
    await blobs.put('company-1/media/a.png', Buffer.from('a'), 'image/png');
    expect(await blobs.get('company-1/media')).to.equal(null);
    expect(await blobs.usage('company-9/')).to.equal(0);
  });

  describe('key safety', () => {
    const unsafe = [
      '',
      '/etc/passwd',
      '../outside.png',
      'company-1/../../outside.png',
      'company-1/..',
      '..',
      'a\\b.png',
      '..\\x',
      'a\0b.png',
      'company-1//logo.png',
      'company-1/',
      './logo.png',
      'company-1/./logo.png',
      'company-1/.htaccess',
      'company-1/logo.png.meta.json',
    ];

    it('refuses unsafe keys in put, get, delete and publicUrl without touching the disk', async () => {
      for (const key of unsafe) {
        const put = await rejection(blobs.put(key, Buffer.from('x'), 'text/plain'));
        expect(put.message, JSON.stringify(key)).to.match(/^Unsafe blob key/);
        await rejection(blobs.get(key));
        await rejection(blobs.delete(key));
        expect(() => blobs.publicUrl(key), JSON.stringify(key)).to.throw(/^Unsafe blob key/);
      }
      expect(await filesUnder(root)).to.deep.equal([]);
    });

    it('refuses usage prefixes that climb out of the root', async () => {
      await rejection(blobs.usage('../'));
      await rejection(blobs.usage('company-1/../../'));
      await rejection(blobs.usage('/etc/'));
    });

    it('accepts ordinary keys with spaces, accents and dots inside names', async () => {
      for (const key of ['company-1/foto perfil ç.jpeg', 'company-1/a..b.png', 'company-1/v1.2/logo.png', 'x']) {
        await blobs.put(key, Buffer.from(key), 'text/plain');
        expect((await blobs.get(key))?.data.toString()).to.equal(key);
      }
    });

    it('never maps a public URL to an unsafe key', () => {
      for (const url of [
        `${BASE_URL}/..%2Foutside.png`,
        `${BASE_URL}/company-1/%2E%2E/x.png`,
        `${BASE_URL}/a%5Cb.png`,
        `${BASE_URL}/a%00b.png`,
        `${BASE_URL}/company-1/.htaccess`,
        `${BASE_URL}//etc/passwd`,
        `${BASE_URL}/`,
        `${BASE_URL}/bad%E0%A4%A`,
      ])
        expect(blobs.keyOfPublicUrl(url), url).to.equal(null);
    });
  });

  describe('public URLs', () => {
    it('encodes each key segment and keeps the slashes', () => {
      expect(blobs.publicUrl('company-1/foto perfil#1?.png')).to.equal(`${BASE_URL}/company-1/foto%20perfil%231%3F.png`);
      expect(blobs.keyOfPublicUrl(`${BASE_URL}/company-1/foto%20perfil%231%3F.png`)).to.equal('company-1/foto perfil#1?.png');
    });

    it('accepts only the spelling publicUrl produces', () => {
      expect(blobs.keyOfPublicUrl(`${BASE_URL}/company-1/logo.png`)).to.equal('company-1/logo.png');
      expect(blobs.keyOfPublicUrl(`${BASE_URL}/company-1/logo.png?v=2`)).to.equal(null);
      expect(blobs.keyOfPublicUrl(`${BASE_URL}/company-1%2Flogo.png`)).to.equal(null);
      expect(blobs.keyOfPublicUrl(`${BASE_URL}/company-1/foto perfil.png`)).to.equal(null);
      expect(blobs.keyOfPublicUrl(`https://files.example.com/other/company-1/logo.png`)).to.equal(null);
    });
  });
});
