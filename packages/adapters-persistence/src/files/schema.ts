import { EntitySchema } from '@mikro-orm/core';
import type { FileList, FileOption } from '@servicedesk/core/files/file-list';
import { foreignKeysOf } from '../shared/columns.js';

const lists = foreignKeysOf('file_lists');

/** As m0022 creates `file_lists`. */
export const FileListSchema = new EntitySchema<FileList>({
  name: 'FileList',
  tableName: 'file_lists',
  properties: {
    id: { type: 'number', primary: true, autoincrement: true },
    companyId: lists('company_id', 'Company', 'cascade'),
    name: { type: 'string', length: 255 },
    message: { type: 'text', default: '' },
    createdAt: { type: 'Date' },
    updatedAt: { type: 'Date' },
  },
  uniques: [{ name: 'file_lists_company_name_unique', properties: ['companyId', 'name'] }],
});

const options = foreignKeysOf('file_list_options');

/** As m0022 creates `file_list_options`. */
export const FileOptionSchema = new EntitySchema<FileOption>({
  name: 'FileOption',
  tableName: 'file_list_options',
  properties: {
    id: { type: 'number', primary: true, autoincrement: true },
    companyId: options('company_id', 'Company', 'cascade'),
    fileListId: options('file_list_id', 'FileList', 'cascade'),
    name: { type: 'string', length: 255, default: '' },
    position: { type: 'number', default: 0 },
    fileName: { type: 'string', length: 255, nullable: true },
    mediaType: { type: 'string', length: 255, nullable: true },
    blobKey: { type: 'string', length: 500, nullable: true },
    size: { type: 'number', nullable: true },
    createdAt: { type: 'Date' },
    updatedAt: { type: 'Date' },
  },
  indexes: [{ name: 'file_list_options_list_position_idx', properties: ['fileListId', 'position'] }],
});

/** The tables of the file lists feature. */
export const FILE_LIST_SCHEMAS = [FileListSchema, FileOptionSchema];
