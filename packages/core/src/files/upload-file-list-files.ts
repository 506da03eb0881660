import { safeFileName } from '../connections/connection-media.js';
import { assertAdmin, type Actor } from '../shared/actor.js';
import { NotFoundError, ValidationError } from '../shared/errors.js';
import type { BlobStorage, Clock, IdGenerator, Transaction } from '../shared/ports.js';
import type { RealtimeEvents } from '../realtime/ports.js';
import { storeUpload, uploadSize, type UploadedFile } from '../uploads/image-upload.js';
import type { FileListEvent } from './file-list-events.js';
import { cleanOptionName, MAX_FILE_OPTIONS, type FileListView } from './file-list.js';
import { acceptListFile, MAX_FILES_PER_UPLOAD } from './file-media.js';
import { dropBlobsAfterCommit, fileListView, findFileList } from './manage-file-lists.js';
import type { FileLists } from './ports.js';

/** One uploaded file and what it is for: the option `optionId` of the list, or a new option captioned `name`. */
export interface ListFileUpload {
  readonly file: UploadedFile;
  readonly optionId?: number;
  readonly name?: string;
}

/**
 * `POST /files/uploadList/:fileListId`: stores files for a list's options. The i-th file goes to
 * the option `id[i]` (its previous file is deleted once the change commits), or, without an id,
 * to a new option captioned `name[i]` (the file's name when absent). Each file's type is
 * recognised by its bytes (`acceptListFile`). Admins only; an id that is not an option of this
 * list is 404 `ERR_NO_FILE_OPTION_FOUND`, one option twice 422 `ERR_INVALID_FILE_OPTION`.
 * Emits `file` (action `update`). No file at all changes nothing: the list as it is, no event.
 */
export class UploadFileListFiles {
  constructor(
    private readonly deps: {
      lists: FileLists;
      blobs: BlobStorage;
      tx: Transaction;
      clock: Clock;
      ids: IdGenerator;
      realtime: RealtimeEvents<FileListEvent>;
    },
  ) {}

  async execute(input: { readonly actor: Actor; readonly fileListId: number; readonly uploads: readonly ListFileUpload[] }): Promise<FileListView> {
    const { lists, blobs, tx, clock, ids, realtime } = this.deps;
    assertAdmin(input.actor);
    const { companyId } = input.actor;
    const list = await findFileList(lists, companyId, input.fileListId);
    // The lineage's file dialog posts the form after every save, with or without files: nothing to store is the list as it is.
    if (!input.uploads.length) return fileListView(lists, list);
    if (input.uploads.length > MAX_FILES_PER_UPLOAD) throw new ValidationError('ERR_TOO_MANY_FILE_OPTIONS');
    const targeted = input.uploads.flatMap((u) => (u.optionId === undefined ? [] : [u.optionId]));
    if (new Set(targeted).size !== targeted.length) throw new ValidationError('ERR_INVALID_FILE_OPTION');
    const checked = input.uploads.map((u) => ({ ...u, mediaType: acceptListFile(u.file), caption: cleanOptionName(u.name ?? u.file.filename) }));

    // The files are stored before the transaction (a slow copy holds no lock) and removed again if it fails.
    const stored: string[] = [];
    let view: FileListView;
    try {
      for (const u of checked) {
        const key = `company-${companyId}/file-lists/${list.id}/${ids.uuid()}-${safeFileName(u.file.filename)}`;
        await storeUpload(blobs, key, u.file, u.mediaType);
        stored.push(key);
      }
      view = await tx.run(async () => {
        const now = clock.now();
        // The list's row is locked first: two uploads to one list take turns, and each sees the
        // files the other stored (neither leaves the other's file behind).
        if (!(await lists.touch(companyId, list.id, now))) throw new NotFoundError('ERR_NO_FILE_LIST_FOUND');
        const current = await findFileList(lists, companyId, list.id);
        const options = await lists.options(companyId, [current.id]);
        const byId = new Map(options.map((o) => [o.id, o]));
        for (const id of targeted) if (!byId.has(id)) throw new NotFoundError('ERR_NO_FILE_OPTION_FOUND');
        const added = checked.filter((u) => u.optionId === undefined).length;
        if (options.length + added > MAX_FILE_OPTIONS) throw new ValidationError('ERR_TOO_MANY_FILE_OPTIONS');
        let position = options.reduce((max, o) => Math.max(max, o.position + 1), 0);
        const replaced: (string | null)[] = [];
        for (const [i, u] of checked.entries()) {
          const file = {
            fileName: u.file.filename.slice(0, 255) || 'file',
            mediaType: u.mediaType,
            blobKey: stored[i]!,
            size: uploadSize(u.file),
            updatedAt: now,
          };
          const existing = u.optionId === undefined ? undefined : byId.get(u.optionId);
          if (existing) {
            replaced.push(existing.blobKey);
            await lists.updateOption({ ...existing, ...file, ...(u.name !== undefined ? { name: u.caption } : {}) });
          } else {
            await lists.addOption({ companyId, fileListId: current.id, name: u.caption, position: position++, createdAt: now, ...file });
          }
        }
        dropBlobsAfterCommit(this.deps, replaced);
        return fileListView(lists, current);
      });
    } catch (err) {
      await Promise.all(stored.map((k) => blobs.delete(k).catch(() => undefined)));
      throw err;
    }
    await realtime.publish(companyId, { entity: 'file', data: { action: 'update', files: view } });
    return view;
  }
}
