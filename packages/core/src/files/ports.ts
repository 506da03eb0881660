import type { Page, PageRequest } from '../shared/paging.js';
import type { FileList, FileOption, NewFileList, NewFileOption } from './file-list.js';

/**
 * A company's file lists and their options. Every method is scoped by `companyId`: another
 * company's list or option is absent. Two lists of a company never share a name: `add` and
 * `update` throw ConflictError `ERR_FILE_LIST_NAME_IN_USE`.
 */
export interface FileLists {
  findById(companyId: number, id: number): Promise<FileList | null>;
  add(list: NewFileList): Promise<FileList>;
  /** Saves the name, the message and `updatedAt`. */
  update(list: FileList): Promise<void>;
  /**
   * Sets `updatedAt` only; false when the list is absent. Inside a transaction the list's row then
   * stays locked until it ends, so changes to one list's options take turns.
   */
  touch(companyId: number, id: number, at: Date): Promise<boolean>;
  /** Removes the list with its options; false when it was not there. */
  remove(companyId: number, id: number): Promise<boolean>;
  /** A page of the company's lists by name (case- and accent-folded), then id; `search` in the name, folded the same way. */
  page(query: { readonly companyId: number; readonly search?: string; readonly page: PageRequest }): Promise<Page<FileList>>;
  /** Every list of the company, in the page's order, `search` as for `page`. */
  all(companyId: number, search?: string): Promise<FileList[]>;
  /** The options of these lists, by list, then position, then id. */
  options(companyId: number, listIds: readonly number[]): Promise<FileOption[]>;
  addOption(option: NewFileOption): Promise<FileOption>;
  /** Saves every field but the company and the list. */
  updateOption(option: FileOption): Promise<void>;
  removeOptions(companyId: number, ids: readonly number[]): Promise<void>;
}
