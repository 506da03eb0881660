import { assertAdmin, type Actor } from '../shared/actor.js';
import { NotFoundError, ValidationError } from '../shared/errors.js';
import { hasMore, pageFromNumber } from '../shared/paging.js';
import type { BlobStorage, Clock, Transaction } from '../shared/ports.js';
import type { RealtimeEvents } from '../realtime/ports.js';
import type { FileListEvent } from './file-list-events.js';
import {
  cleanFileListMessage,
  cleanFileListName,
  cleanOptionName,
  MAX_FILE_OPTIONS,
  toFileListView,
  type FileList,
  type FileListView,
  type FileOption,
} from './file-list.js';
import type { FileLists } from './ports.js';

interface ReadDeps {
  lists: FileLists;
}
interface WriteDeps extends ReadDeps {
  blobs: BlobStorage;
  tx: Transaction;
  clock: Clock;
  realtime: RealtimeEvents<FileListEvent>;
}

/** The company's list, or 404 `ERR_NO_FILE_LIST_FOUND` (also for another company's). */
export async function findFileList(lists: FileLists, companyId: number, id: number): Promise<FileList> {
  const list = await lists.findById(companyId, id);
  if (!list) throw new NotFoundError('ERR_NO_FILE_LIST_FOUND');
  return list;
}

/** Lists with their options, read in one query for any number of lists. */
export async function fileListViews(lists: FileLists, companyId: number, found: readonly FileList[]): Promise<FileListView[]> {
  if (!found.length) return [];
  const options = await lists.options(
    companyId,
    found.map((l) => l.id),
  );
  return found.map((l) => toFileListView(l, options));
}

export async function fileListView(lists: FileLists, list: FileList): Promise<FileListView> {
  return (await fileListViews(lists, list.companyId, [list]))[0]!;
}

/** Deletes stored files once the change that dropped them has committed (a failed delete leaves an orphan, never a dangling key). */
export function dropBlobsAfterCommit(deps: { blobs: BlobStorage; tx: Transaction }, keys: readonly (string | null)[]): void {
  const present = keys.filter((k): k is string => !!k);
  if (!present.length) return;
  deps.tx.afterCommit(() => {
    void Promise.all(present.map((k) => deps.blobs.delete(k).catch(() => undefined)));
  });
}

/** `GET /files`: a page (20) of the company's lists by name, `searchParam` in the name, as `{files, count, hasMore}`. Any operator (queue and chatbot forms pick from it). */
export class ListFileLists {
  constructor(private readonly deps: ReadDeps) {}

  async execute(input: { readonly actor: Actor; readonly searchParam?: string; readonly pageNumber?: number }) {
    const { lists } = this.deps;
    const { companyId } = input.actor;
    const page = pageFromNumber(input.pageNumber);
    const found = await lists.page({ companyId, page, ...(input.searchParam?.trim() ? { search: input.searchParam } : {}) });
    return { files: await fileListViews(lists, companyId, found.rows), count: found.count, hasMore: hasMore(page, found.count) };
  }
}

/** `GET /files/list`: every list of the company (`searchParam` in the name), for pickers. */
export class ListAllFileLists {
  constructor(private readonly deps: ReadDeps) {}

  async execute(input: { readonly actor: Actor; readonly searchParam?: string }): Promise<FileListView[]> {
    const { companyId } = input.actor;
    return fileListViews(this.deps.lists, companyId, await this.deps.lists.all(companyId, input.searchParam?.trim() || undefined));
  }
}

export class ShowFileList {
  constructor(private readonly deps: ReadDeps) {}

  async execute(input: { readonly actor: Actor; readonly fileListId: number }): Promise<FileListView> {
    return fileListView(this.deps.lists, await findFileList(this.deps.lists, input.actor.companyId, input.fileListId));
  }
}

export interface OptionInput {
  /** An option of this list to keep (renamed, moved); absent for a new one. */
  readonly id?: number;
  readonly name: string;
}

function checkOptions(options: readonly OptionInput[]): void {
  if (options.length > MAX_FILE_OPTIONS) throw new ValidationError('ERR_TOO_MANY_FILE_OPTIONS');
  const ids = options.flatMap((o) => (o.id === undefined ? [] : [o.id]));
  if (new Set(ids).size !== ids.length) throw new ValidationError('ERR_INVALID_FILE_OPTION');
}

/**
 * Creates a list with its options (captions; files come with `POST /files/uploadList/:id`).
 * Admins only (403 `ERR_NO_PERMISSION`); a name another list of the company has is 409
 * `ERR_FILE_LIST_NAME_IN_USE`. Emits `file` (action `create`).
 */
export class CreateFileList {
  constructor(private readonly deps: WriteDeps) {}

  async execute(input: {
    readonly actor: Actor;
    readonly name: string;
    readonly message?: string;
    readonly options?: readonly OptionInput[];
  }): Promise<FileListView> {
    const { lists, tx, clock, realtime } = this.deps;
    assertAdmin(input.actor);
    const { companyId } = input.actor;
    const name = cleanFileListName(input.name);
    const message = cleanFileListMessage(input.message ?? '');
    const options = input.options ?? [];
    checkOptions(options);
    if (options.some((o) => o.id !== undefined)) throw new ValidationError('ERR_INVALID_FILE_OPTION');
    const captions = options.map((o) => cleanOptionName(o.name));
    const now = clock.now();
    const view = await tx.run(async () => {
      const list = await lists.add({ companyId, name, message, createdAt: now, updatedAt: now });
      for (const [position, caption] of captions.entries()) {
        await lists.addOption({
          companyId,
          fileListId: list.id,
          name: caption,
          position,
          fileName: null,
          mediaType: null,
          blobKey: null,
          size: null,
          createdAt: now,
          updatedAt: now,
        });
      }
      return fileListView(lists, list);
    });
    await realtime.publish(companyId, { entity: 'file', data: { action: 'create', files: view } });
    return view;
  }
}

/**
 * Changes a list: name and message when given; with `options`, the list's options become exactly
 * those (an `id` keeps that option and its file, renamed and moved; without one a new option is
 * added; options left out go, their files deleted). An `id` that is not an option of this list is
 * 404 `ERR_NO_FILE_OPTION_FOUND`. Admins only. Emits `file` (action `update`).
 */
export class UpdateFileList {
  constructor(private readonly deps: WriteDeps) {}

  async execute(input: {
    readonly actor: Actor;
    readonly fileListId: number;
    readonly name?: string;
    readonly message?: string;
    readonly options?: readonly OptionInput[];
  }): Promise<FileListView> {
    const { lists, tx, clock, realtime } = this.deps;
    assertAdmin(input.actor);
    const { companyId } = input.actor;
    const name = input.name === undefined ? undefined : cleanFileListName(input.name);
    const message = input.message === undefined ? undefined : cleanFileListMessage(input.message);
    if (input.options) checkOptions(input.options);
    const captions = input.options?.map((o) => ({ id: o.id, name: cleanOptionName(o.name) }));
    const view = await tx.run(async () => {
      const now = clock.now();
      // The list's row is locked first: concurrent changes to one list take turns, each on the other's result.
      if (!(await lists.touch(companyId, input.fileListId, now))) throw new NotFoundError('ERR_NO_FILE_LIST_FOUND');
      const list = await findFileList(lists, companyId, input.fileListId);
      const next: FileList = { ...list, name: name ?? list.name, message: message ?? list.message };
      await lists.update(next);
      if (captions) {
        const current = new Map((await lists.options(companyId, [list.id])).map((o) => [o.id, o]));
        for (const c of captions) if (c.id !== undefined && !current.has(c.id)) throw new NotFoundError('ERR_NO_FILE_OPTION_FOUND');
        const kept = new Set(captions.flatMap((c) => (c.id === undefined ? [] : [c.id])));
        const dropped: FileOption[] = [...current.values()].filter((o) => !kept.has(o.id));
        await lists.removeOptions(
          companyId,
          dropped.map((o) => o.id),
        );
        for (const [position, c] of captions.entries()) {
          const existing = c.id === undefined ? undefined : current.get(c.id);
          if (existing) {
            if (existing.name !== c.name || existing.position !== position) await lists.updateOption({ ...existing, name: c.name, position, updatedAt: now });
          } else {
            await lists.addOption({
              companyId,
              fileListId: list.id,
              name: c.name,
              position,
              fileName: null,
              mediaType: null,
              blobKey: null,
              size: null,
              createdAt: now,
              updatedAt: now,
            });
          }
        }
        dropBlobsAfterCommit(
          this.deps,
          dropped.map((o) => o.blobKey),
        );
      }
      return fileListView(lists, next);
    });
    await realtime.publish(companyId, { entity: 'file', data: { action: 'update', files: view } });
    return view;
  }
}

/**
 * Deletes a list with its options and their files (`file`, action `delete`). Admins only.
 * Nothing in the platform refers to a file list yet (queues, chatbot options and flows do not
 * store one); when one does, deleting a list it uses is refused here with 409.
 */
export class DeleteFileList {
  constructor(private readonly deps: WriteDeps) {}

  async execute(input: { readonly actor: Actor; readonly fileListId: number }): Promise<void> {
    const { lists, tx, realtime } = this.deps;
    assertAdmin(input.actor);
    const { companyId } = input.actor;
    await tx.run(async () => {
      const list = await findFileList(lists, companyId, input.fileListId);
      const options = await lists.options(companyId, [list.id]);
      await lists.remove(companyId, list.id);
      dropBlobsAfterCommit(
        this.deps,
        options.map((o) => o.blobKey),
      );
    });
    await realtime.publish(companyId, { entity: 'file', data: { action: 'delete', fileId: input.fileListId } });
  }
}

/** `DELETE /files`: every list of the caller's company goes, with its files; one `file` event (`delete`) per list. Admins only. */
export class DeleteAllFileLists {
  constructor(private readonly deps: WriteDeps) {}

  async execute(input: { readonly actor: Actor }): Promise<{ deleted: number }> {
    const { lists, tx, realtime } = this.deps;
    assertAdmin(input.actor);
    const { companyId } = input.actor;
    const removed = await tx.run(async () => {
      const all = await lists.all(companyId);
      const options = await lists.options(
        companyId,
        all.map((l) => l.id),
      );
      const gone: number[] = [];
      for (const l of all) if (await lists.remove(companyId, l.id)) gone.push(l.id);
      dropBlobsAfterCommit(
        this.deps,
        options.map((o) => o.blobKey),
      );
      return gone;
    });
    for (const fileId of removed) await realtime.publish(companyId, { entity: 'file', data: { action: 'delete', fileId } });
    return { deleted: removed.length };
  }
}
