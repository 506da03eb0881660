import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import type { BlobStorage } from '../../src/shared/ports.js';

export interface BlobStorageFixture {
  readonly blobs: BlobStorage;
  readonly cleanup?: () => Promise<void>;
}

/**
 * One suite for every adapter of the BlobStorage port. Every key starts with a folder unique to the run and the test,
 * so the suite can run against a shared bucket.
 */
export function describeBlobStorageContract(name: string, make: () => Promise<BlobStorageFixture>) {
  describe(`BlobStorage contract: ${name}`, () => {
    const run = randomBytes(6).toString('hex');
    let counter = 0;
    let f: BlobStorageFixture;
    let blobs: BlobStorage;
    /** The folder of the current test: `contract-<run>-<n>/`. */
    let root: string;

    beforeEach(async () => {
      f = await make();
      blobs = f.blobs;
      root = `contract-${run}-${++counter}/`;
    });
    afterEach(async () => {
      await f?.cleanup?.();
    });

    it('stores a blob and returns its bytes and content type', async () => {
      const key = `${root}company-1/logo.png`;
      const data = Buffer.from(Array.from({ length: 256 }, (_, i) => i)); // every byte value
      const stored = await blobs.put(key, data, 'image/png');
      expect(stored).to.deep.equal({ key, size: 256, contentType: 'image/png' });
      const read = await blobs.get(key);
      expect(read?.contentType).to.equal('image/png');
      expect(read?.data.equals(data)).to.equal(true);
    });

    it('keeps the stored bytes apart from the buffer that was passed in', async () => {
      const key = `${root}copy.bin`;
      const data = Buffer.from('original');
      await blobs.put(key, data, 'application/octet-stream');
      data.write('CHANGED!');
      expect((await blobs.get(key))?.data.toString()).to.equal('original');
    });

    it('round-trips a large binary blob and an empty one', async () => {
      const large = randomBytes(300 * 1024);
      await blobs.put(`${root}large.bin`, large, 'application/octet-stream');
      await blobs.put(`${root}empty.txt`, Buffer.alloc(0), 'text/plain');
      expect((await blobs.get(`${root}large.bin`))?.data.equals(large)).to.equal(true);
      const empty = await blobs.get(`${root}empty.txt`);
      expect(empty?.data.length).to.equal(0);
      expect(empty?.contentType).to.equal('text/plain');
    });

    it('replaces a blob and its content type on a second put', async () => {
      const key = `${root}company-1/avatar`;
      await blobs.put(key, Buffer.from('png bytes'), 'image/png');
      const stored = await blobs.put(key, Buffer.from('webp'), 'image/webp');
      expect(stored).to.deep.equal({ key, size: 4, contentType: 'image/webp' });
      const read = await blobs.get(key);
      expect(read?.data.toString()).to.equal('webp');
      expect(read?.contentType).to.equal('image/webp');
    });

    describe('putFile', () => {
      let dir: string;
      beforeEach(async () => {
        dir = await mkdtemp(path.join(os.tmpdir(), 'blob-contract-'));
      });
      afterEach(async () => {
        await rm(dir, { recursive: true, force: true });
      });

      it('stores the content of a file, leaves the file in place, and counts it in usage', async () => {
        const source = path.join(dir, 'upload');
        const data = randomBytes(1024 * 1024 + 17); // several stream chunks, not a round size
        await writeFile(source, data);
        const key = `${root}media/upload.bin`;
        expect(await blobs.putFile(key, source, 'video/mp4')).to.deep.equal({ key, size: data.length, contentType: 'video/mp4' });
        const read = await blobs.get(key);
        expect(read?.contentType).to.equal('video/mp4');
        expect(read?.data.equals(data)).to.equal(true);
        expect(await readdir(dir)).to.deep.equal(['upload']);
        expect(await blobs.usage(`${root}media/`)).to.equal(data.length);
      });

      it('replaces a blob stored with put, and stores an empty file', async () => {
        const key = `${root}replaced.txt`;
        await blobs.put(key, Buffer.from('old bytes'), 'text/plain');
        const source = path.join(dir, 'new');
        await writeFile(source, 'new');
        expect(await blobs.putFile(key, source, 'text/csv')).to.deep.equal({ key, size: 3, contentType: 'text/csv' });
        expect(await blobs.get(key)).to.deep.equal({ data: Buffer.from('new'), contentType: 'text/csv' });
        await writeFile(path.join(dir, 'empty'), '');
        expect((await blobs.putFile(`${root}empty.bin`, path.join(dir, 'empty'), 'application/octet-stream')).size).to.equal(0);
        expect((await blobs.get(`${root}empty.bin`))?.data.length).to.equal(0);
      });

      it('fails for a missing source file and stores nothing', async () => {
        const key = `${root}missing-source.bin`;
        let failed = false;
        try {
          await blobs.putFile(key, path.join(dir, 'absent'), 'application/octet-stream');
        } catch {
          failed = true;
        }
        expect(failed).to.equal(true);
        expect(await blobs.get(key)).to.equal(null);
      });
    });

    it('answers null for a missing key', async () => {
      expect(await blobs.get(`${root}missing.png`)).to.equal(null);
      expect(await blobs.get(`${root}no-such-folder/missing.png`)).to.equal(null);
    });

    it('deletes a blob, and deleting a missing key does not throw', async () => {
      const key = `${root}company-1/logo.png`;
      const other = `${root}company-1/other.png`;
      await blobs.put(key, Buffer.from('x'), 'image/png');
      await blobs.put(other, Buffer.from('y'), 'image/png');
      await blobs.delete(key);
      expect(await blobs.get(key)).to.equal(null);
      expect((await blobs.get(other))?.data.toString()).to.equal('y');
      await blobs.delete(key);
      await blobs.delete(`${root}never/stored.png`);
      expect(await blobs.usage(root)).to.equal(1);
    });

    it('sums usage under a prefix only', async () => {
      await blobs.put(`${root}company-1/a.png`, Buffer.alloc(3), 'image/png');
      await blobs.put(`${root}company-1/media/b.mp4`, Buffer.alloc(5), 'video/mp4');
      await blobs.put(`${root}company-10/c.png`, Buffer.alloc(7), 'image/png');
      await blobs.put(`${root}company-2/d.png`, Buffer.alloc(11), 'image/png');
      expect(await blobs.usage(`${root}company-1/`)).to.equal(8);
      expect(await blobs.usage(`${root}company-1/media/`)).to.equal(5);
      expect(await blobs.usage(`${root}company-10/`)).to.equal(7);
      expect(await blobs.usage(`${root}company-1`)).to.equal(15); // a plain string prefix, not a folder
      expect(await blobs.usage(root)).to.equal(26);
      expect(await blobs.usage(`${root}company-3/`)).to.equal(0);
      await blobs.put(`${root}company-1/a.png`, Buffer.alloc(4), 'image/png');
      await blobs.delete(`${root}company-1/media/b.mp4`);
      expect(await blobs.usage(`${root}company-1/`)).to.equal(4);
    });

    it('stores keys in nested folders independently', async () => {
      await blobs.put(`${root}a/b/c/deep.txt`, Buffer.from('deep'), 'text/plain');
      await blobs.put(`${root}a/b/shallow.txt`, Buffer.from('shallow'), 'text/markdown');
      await blobs.put(`${root}a/b/c/d/deeper.txt`, Buffer.from('deeper'), 'text/csv');
      expect((await blobs.get(`${root}a/b/c/deep.txt`))?.data.toString()).to.equal('deep');
      expect(await blobs.get(`${root}a/b/shallow.txt`)).to.deep.include({ contentType: 'text/markdown' });
      expect(await blobs.usage(`${root}a/b/c/`)).to.equal(10);
      await blobs.delete(`${root}a/b/c/deep.txt`);
      expect((await blobs.get(`${root}a/b/c/d/deeper.txt`))?.data.toString()).to.equal('deeper');
      expect((await blobs.get(`${root}a/b/shallow.txt`))?.data.toString()).to.equal('shallow');
      expect(await blobs.usage(`${root}a/`)).to.equal(13);
    });

    it('maps keys to public URLs and back', () => {
      for (const key of [`${root}company-1/logo.png`, `${root}a/b/c/d.txt`, `${root}company-1/foto perfil ç.jpeg`]) {
        const url = blobs.publicUrl(key);
        expect(url).to.match(/^https?:\/\//);
        expect(blobs.keyOfPublicUrl(url)).to.equal(key);
      }
      expect(blobs.publicUrl(`${root}x/one.png`)).not.to.equal(blobs.publicUrl(`${root}x/two.png`));
    });

    it('answers null for URLs it did not produce', () => {
      const probe = 'probe/x.png';
      const url = blobs.publicUrl(probe);
      expect(url.endsWith(`/${probe}`)).to.equal(true);
      const base = url.slice(0, -probe.length - 1);
      expect(blobs.keyOfPublicUrl('https://elsewhere.example/files/probe/x.png')).to.equal(null);
      expect(blobs.keyOfPublicUrl(`${base}-other/${probe}`)).to.equal(null);
      expect(blobs.keyOfPublicUrl(base)).to.equal(null);
      expect(blobs.keyOfPublicUrl('')).to.equal(null);
      expect(blobs.keyOfPublicUrl('not a url')).to.equal(null);
    });
  });
}
