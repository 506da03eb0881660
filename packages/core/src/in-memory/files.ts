import type { FileList, FileOption, NewFileList, NewFileOption } from '../files/file-list.js';
import type { FileLists } from '../files/ports.js';
import { ConflictError } from '../shared/errors.js';
import type { PageRequest } from '../shared/paging.js';
import { foldForSearch } from '../shared/text.js';
import { compareFolded, InMemoryTable, slice } from './table.js';

const byName = (a: FileList, b: FileList) => compareFolded(a.name, b.name) || a.id - b.id;

/** File lists and their options; a name appears once per company, as the unique constraint keeps it. */
export class InMemoryFileLists implements FileLists {
  readonly table = new InMemoryTable<FileList>();
  readonly optionTable = new InMemoryTable<FileOption>();

  private named(companyId: number, name: string, exceptId?: number) {
    return this.table.find((l) => l.companyId === companyId && l.name === name && l.id !== exceptId);
  }
  private matching(companyId: number, search?: string) {
    const term = search?.trim() ? foldForSearch(search) : '';
    return this.table.filter((l) => l.companyId === companyId && (!term || foldForSearch(l.name).includes(term))).sort(byName);
  }

  async findById(companyId: number, id: number) {
    const l = this.table.get(id);
    return l?.companyId === companyId ? l : null;
  }
  async add(list: NewFileList) {
    if (this.named(list.companyId, list.name)) throw new ConflictError('ERR_FILE_LIST_NAME_IN_USE');
    return this.table.insert(list);
  }
  async update(list: FileList) {
    const stored = this.table.get(list.id);
    if (!stored || stored.companyId !== list.companyId) return;
    if (this.named(list.companyId, list.name, list.id)) throw new ConflictError('ERR_FILE_LIST_NAME_IN_USE');
    this.table.replace({ ...stored, name: list.name, message: list.message, updatedAt: list.updatedAt });
  }
  async touch(companyId: number, id: number, at: Date) {
    const stored = await this.findById(companyId, id);
    if (!stored) return false;
    this.table.replace({ ...stored, updatedAt: at });
    return true;
  }
  async remove(companyId: number, id: number) {
    if (!(await this.findById(companyId, id))) return false;
    this.table.delete(id);
    for (const o of this.optionTable.filter((o) => o.fileListId === id)) this.optionTable.delete(o.id);
    return true;
  }
  async page(q: { readonly companyId: number; readonly search?: string; readonly page: PageRequest }) {
    return slice(this.matching(q.companyId, q.search), q.page);
  }
  async all(companyId: number, search?: string) {
    return this.matching(companyId, search);
  }
  async options(companyId: number, listIds: readonly number[]) {
    const ids = new Set(listIds);
    return this.optionTable
      .filter((o) => o.companyId === companyId && ids.has(o.fileListId))
      .sort((a, b) => a.fileListId - b.fileListId || a.position - b.position || a.id - b.id);
  }
  async addOption(option: NewFileOption) {
    return this.optionTable.insert(option);
  }
  async updateOption(option: FileOption) {
    const stored = this.optionTable.get(option.id);
    if (!stored || stored.companyId !== option.companyId) return;
    this.optionTable.replace({ ...option, companyId: stored.companyId, fileListId: stored.fileListId, createdAt: stored.createdAt });
  }
  async removeOptions(companyId: number, ids: readonly number[]) {
    for (const id of ids) if (this.optionTable.get(id)?.companyId === companyId) this.optionTable.delete(id);
  }
}
