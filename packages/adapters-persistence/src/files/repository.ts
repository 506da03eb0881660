import { UniqueConstraintViolationException, type MikroORM } from '@mikro-orm/core';
import { ConflictError, type Page, type PageRequest } from '@servicedesk/core';
import type { FileList, FileOption, NewFileList, NewFileOption } from '@servicedesk/core/files/file-list';
import type { FileLists } from '@servicedesk/core/files/ports';
import { MikroOrmRepository } from '../shared/context.js';
import { foldedOrder, searchWhere } from '../shared/search.js';
import { FileListSchema, FileOptionSchema } from './schema.js';

const READ = { disableIdentityMap: true } as const;
/** By folded name, then id; built per query (a raw fragment is used once). */
const byName = () => [foldedOrder('name'), { id: 'asc' as const }];

/** The unique constraint on (company_id, name) decides two writers taking one name. */
async function nameUnique<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (err instanceof UniqueConstraintViolationException && err.message.includes('file_lists_company_name_unique')) {
      throw new ConflictError('ERR_FILE_LIST_NAME_IN_USE');
    }
    throw err;
  }
}

export class MikroOrmFileLists extends MikroOrmRepository implements FileLists {
  async findById(companyId: number, id: number) {
    return this.em.findOne(FileListSchema, { id, companyId }, READ);
  }
  async add(list: NewFileList): Promise<FileList> {
    const id = (await nameUnique(() => this.em.insert(FileListSchema, { ...list } as FileList))) as number;
    return { ...list, id };
  }
  async update(list: FileList) {
    await nameUnique(() =>
      this.em.nativeUpdate(
        FileListSchema,
        { id: list.id, companyId: list.companyId },
        {
          name: list.name,
          message: list.message,
          updatedAt: list.updatedAt,
        },
      ),
    );
  }
  async touch(companyId: number, id: number, at: Date) {
    return (await this.em.nativeUpdate(FileListSchema, { id, companyId }, { updatedAt: at })) > 0;
  }
  async remove(companyId: number, id: number) {
    return (await this.em.nativeDelete(FileListSchema, { id, companyId })) > 0;
  }
  async page(q: { readonly companyId: number; readonly search?: string; readonly page: PageRequest }): Promise<Page<FileList>> {
    const [rows, count] = await this.em.findAndCount(
      FileListSchema,
      { companyId: q.companyId, ...searchWhere(['name'], q.search) },
      {
        ...READ,
        orderBy: byName(),
        offset: q.page.offset,
        limit: q.page.limit,
      },
    );
    return { rows, count };
  }
  async all(companyId: number, search?: string) {
    return this.em.find(FileListSchema, { companyId, ...searchWhere(['name'], search) }, { ...READ, orderBy: byName() });
  }
  async options(companyId: number, listIds: readonly number[]): Promise<FileOption[]> {
    if (!listIds.length) return [];
    return this.em.find(
      FileOptionSchema,
      { companyId, fileListId: { $in: [...listIds] } },
      {
        ...READ,
        orderBy: [{ fileListId: 'asc' }, { position: 'asc' }, { id: 'asc' }],
      },
    );
  }
  async addOption(option: NewFileOption): Promise<FileOption> {
    const id = (await this.em.insert(FileOptionSchema, { ...option } as FileOption)) as number;
    return { ...option, id };
  }
  async updateOption(option: FileOption) {
    const { id, companyId, fileListId, createdAt, ...fields } = option;
    void fileListId;
    void createdAt;
    await this.em.nativeUpdate(FileOptionSchema, { id, companyId }, fields);
  }
  async removeOptions(companyId: number, ids: readonly number[]) {
    if (!ids.length) return;
    await this.em.nativeDelete(FileOptionSchema, { companyId, id: { $in: [...ids] } });
  }
}

/** The file lists' tables on one database. */
export const filesRepositories = (orm: MikroORM) => ({ fileLists: new MikroOrmFileLists(orm) });
