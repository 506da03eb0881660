import { randomBytes } from 'node:crypto';
import { createReadStream, type Dirent } from 'node:fs';
import { mkdir, open, readdir, readFile, rename, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import type { BlobStorage, StoredBlob } from '@servicedesk/core';
import { keyOfPublicUrl, publicUrlOf } from './public-urls.js';

const META_SUFFIX = '.meta.json';
const DEFAULT_CONTENT_TYPE = 'application/octet-stream';

/** Why a key is refused, or null when it is safe to map onto the file system. */
function keyProblem(key: string): string | null {
  if (key.length === 0) return 'is empty';
  if (key.includes('\0')) return 'contains NUL';
  if (key.includes('\\')) return 'contains a backslash';
  if (key.startsWith('/')) return 'is absolute';
  if (key.endsWith(META_SUFFIX)) return `ends with ${META_SUFFIX}`;
  for (const segment of key.split('/')) {
    if (segment === '') return 'has an empty segment';
    if (segment === '..') return 'has a .. segment';
    // Also covers "." and the hidden temporary files this adapter writes next to blobs.
    if (segment.startsWith('.')) return 'has a segment starting with "."';
  }
  return null;
}

function errorCode(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error ? String((error as { code: unknown }).code) : undefined;
}

/** Read errors meaning "there is no blob at that key". */
function isMissing(error: unknown) {
  const code = errorCode(error);
  return code === 'ENOENT' || code === 'ENOTDIR' || code === 'EISDIR';
}

/**
 * Blobs as files under `root`: the key `company-1/logo.png` is the file `<root>/company-1/logo.png`, and its content
 * type lives in the sidecar `<root>/company-1/logo.png.meta.json`. Every file is written to a hidden temporary file in
 * the same directory and renamed into place, so readers see either the old or the new content, never a partial one.
 *
 * Keys are built by callers; as a defence this adapter refuses keys that are empty, absolute, contain backslashes or
 * NUL, have empty, "." or ".." segments or any segment starting with "." (hidden files, which also keeps them apart
 * from the temporary files), or end with ".meta.json" (the sidecars).
 *
 * A key cannot be both a blob and a folder (`a` and `a/b`): the file system refuses the second one.
 */
export class LocalDiskBlobStorage implements BlobStorage {
  private readonly root: string;
  private readonly publicBaseUrl: string;

  constructor(options: { root: string; publicBaseUrl: string }) {
    this.root = path.resolve(options.root);
    this.publicBaseUrl = options.publicBaseUrl.replace(/\/+$/, '');
  }

  async put(key: string, data: Buffer, contentType: string): Promise<StoredBlob> {
    const file = this.fileOf(key);
    await mkdir(path.dirname(file), { recursive: true });
    // The sidecar first: a crash in between leaves a sidecar without a blob, which reads as "no blob".
    await this.writeAtomically(file + META_SUFFIX, Buffer.from(JSON.stringify({ contentType })));
    await this.writeAtomically(file, data);
    return { key, size: data.length, contentType };
  }

  async putFile(key: string, source: string, contentType: string): Promise<StoredBlob> {
    const file = this.fileOf(key);
    await stat(source); // a missing source fails before anything is written
    await mkdir(path.dirname(file), { recursive: true });
    await this.writeAtomically(file + META_SUFFIX, Buffer.from(JSON.stringify({ contentType })));
    const size = await this.writeAtomically(file, source);
    return { key, size, contentType };
  }

  async get(key: string) {
    const file = this.fileOf(key);
    let data: Buffer;
    try {
      data = await readFile(file);
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
    return { data, contentType: await this.contentTypeOf(file) };
  }

  async delete(key: string) {
    const file = this.fileOf(key);
    for (const target of [file, file + META_SUFFIX]) {
      try {
        await unlink(target);
      } catch (error) {
        if (!isMissing(error)) throw error;
      }
    }
  }

  async usage(prefix: string) {
    // Walk only the deepest folder that the prefix names in full; the rest of the prefix filters file keys.
    const folder = prefix.slice(0, prefix.lastIndexOf('/') + 1);
    if (folder !== '') {
      const problem = keyProblem(folder.slice(0, -1));
      if (problem) throw new Error(`Unsafe blob prefix ${JSON.stringify(prefix)}: ${problem}`);
    }
    let total = 0;
    const walk = async (dir: string, keyPrefix: string): Promise<void> => {
      let entries: Dirent[];
      try {
        entries = await readdir(dir, { withFileTypes: true });
      } catch (error) {
        if (isMissing(error)) return;
        throw error;
      }
      for (const entry of entries) {
        if (entry.name.startsWith('.')) continue;
        const key = keyPrefix + entry.name;
        if (entry.isDirectory()) {
          if (key.startsWith(prefix)) await walk(path.join(dir, entry.name), `${key}/`);
        } else if (entry.isFile() && !entry.name.endsWith(META_SUFFIX) && key.startsWith(prefix)) {
          try {
            total += (await stat(path.join(dir, entry.name))).size;
          } catch (error) {
            if (!isMissing(error)) throw error; // deleted while walking
          }
        }
      }
    };
    await walk(folder === '' ? this.root : this.fileOf(folder.slice(0, -1)), folder);
    return total;
  }

  publicUrl(key: string) {
    this.fileOf(key); // validates
    return publicUrlOf(this.publicBaseUrl, key);
  }

  keyOfPublicUrl(url: string) {
    const key = keyOfPublicUrl(this.publicBaseUrl, url);
    return key !== null && !keyProblem(key) ? key : null;
  }

  /** The absolute file of a key, refusing unsafe keys. */
  private fileOf(key: string): string {
    const problem = keyProblem(key);
    if (problem) throw new Error(`Unsafe blob key ${JSON.stringify(key)}: ${problem}`);
    const file = path.resolve(this.root, ...key.split('/'));
    if (!file.startsWith(this.root + path.sep)) throw new Error(`Unsafe blob key ${JSON.stringify(key)}: leaves the storage root`);
    return file;
  }

  private async contentTypeOf(file: string): Promise<string> {
    try {
      const meta: unknown = JSON.parse(await readFile(file + META_SUFFIX, 'utf8'));
      if (typeof meta === 'object' && meta !== null && 'contentType' in meta && typeof meta.contentType === 'string') return meta.contentType;
    } catch (error) {
      if (!isMissing(error) && !(error instanceof SyntaxError)) throw error;
    }
    return DEFAULT_CONTENT_TYPE;
  }

  /** Writes bytes, or streams the content of the file at a path, then renames into place; returns the size. */
  private async writeAtomically(file: string, data: Buffer | string): Promise<number> {
    const temp = path.join(path.dirname(file), `.${path.basename(file)}.${randomBytes(6).toString('hex')}.tmp`);
    try {
      const handle = await open(temp, 'wx');
      let size: number;
      try {
        if (typeof data === 'string') {
          size = 0;
          // A path is streamed, one chunk in memory at a time.
          for await (const chunk of createReadStream(data) as AsyncIterable<Buffer>) {
            for (let done = 0; done < chunk.length; ) done += (await handle.write(chunk, done)).bytesWritten;
            size += chunk.length;
          }
        } else {
          await handle.writeFile(data);
          size = data.length;
        }
        await handle.sync();
      } finally {
        await handle.close();
      }
      await rename(temp, file);
      return size;
    } catch (error) {
      await unlink(temp).catch(() => undefined);
      throw error;
    }
  }
}
