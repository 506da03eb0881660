import { ValidationError } from '../shared/errors.js';

/**
 * A company's named bundle of files ("file list"): a queue, a chatbot option or a flow sends its
 * files, each with its option's name as caption, after `message`.
 */
export interface FileList {
  id: number;
  companyId: number;
  name: string;
  message: string;
  createdAt: Date;
  updatedAt: Date;
}

export type NewFileList = Omit<FileList, 'id'>;

/**
 * One entry of a list: a caption (`name`) and, once uploaded, its file — stored as a private blob,
 * with the original file name and the type recognised from its bytes.
 */
export interface FileOption {
  id: number;
  companyId: number;
  fileListId: number;
  name: string;
  /** Order in the list, from 0. */
  position: number;
  fileName: string | null;
  mediaType: string | null;
  blobKey: string | null;
  size: number | null;
  createdAt: Date;
  updatedAt: Date;
}

export type NewFileOption = Omit<FileOption, 'id'>;

export const MAX_FILE_LIST_NAME = 255;
export const MAX_FILE_LIST_MESSAGE = 4096;
export const MAX_FILE_OPTION_NAME = 255;
/** Options (files) one list may hold. */
export const MAX_FILE_OPTIONS = 20;

/** Trimmed, spaces collapsed, 1 to 255 characters (422 `ERR_INVALID_FILE_LIST_NAME` otherwise). */
export function cleanFileListName(raw: string): string {
  const name = raw.trim().replace(/\s+/g, ' ');
  if (!name || name.length > MAX_FILE_LIST_NAME) throw new ValidationError('ERR_INVALID_FILE_LIST_NAME');
  return name;
}

/** Up to 4,096 characters, kept as written (422 `ERR_INVALID_FILE_LIST_MESSAGE` otherwise). */
export function cleanFileListMessage(raw: string): string {
  if (raw.length > MAX_FILE_LIST_MESSAGE) throw new ValidationError('ERR_INVALID_FILE_LIST_MESSAGE');
  return raw;
}

/** A caption: trimmed, up to 255 characters, may be empty (422 `ERR_INVALID_FILE_OPTION` otherwise). */
export function cleanOptionName(raw: string): string {
  const name = raw.trim();
  if (name.length > MAX_FILE_OPTION_NAME) throw new ValidationError('ERR_INVALID_FILE_OPTION');
  return name;
}

/** An option as the API shows it: `fileId` is its list, `path` the uploaded file's name (null before an upload). */
export interface FileOptionView {
  id: number;
  fileId: number;
  name: string;
  position: number;
  path: string | null;
  mediaType: string | null;
  size: number | null;
}

export interface FileListView {
  id: number;
  companyId: number;
  name: string;
  message: string;
  createdAt: string;
  updatedAt: string;
  options: FileOptionView[];
}

export function toOptionView(o: FileOption): FileOptionView {
  return { id: o.id, fileId: o.fileListId, name: o.name, position: o.position, path: o.fileName, mediaType: o.mediaType, size: o.size };
}

export function toFileListView(list: FileList, options: readonly FileOption[]): FileListView {
  return {
    id: list.id,
    companyId: list.companyId,
    name: list.name,
    message: list.message,
    createdAt: list.createdAt.toISOString(),
    updatedAt: list.updatedAt.toISOString(),
    options: options
      .filter((o) => o.fileListId === list.id)
      .sort((a, b) => a.position - b.position || a.id - b.id)
      .map(toOptionView),
  };
}
