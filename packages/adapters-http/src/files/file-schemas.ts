import { z } from 'zod';

/**
 * The file-list views as the API answers them (`FileListView` of packages/core/src/files), under the
 * lineage client's names: `{files, count, hasMore}` for a page, an option's `fileId` (its list) and
 * `path` (the uploaded file's name).
 */

const timestamp = z.iso.datetime();

const OPTION_EXAMPLE = { id: 31, fileId: 7, name: 'Tabela de preços', position: 0, path: 'precos-2026.pdf', mediaType: 'application/pdf', size: 184_320 };
const LIST_EXAMPLE = {
  id: 7,
  companyId: 1,
  name: 'Catálogo de vendas',
  message: 'Segue nosso catálogo:',
  createdAt: '2026-02-01T12:00:00.000Z',
  updatedAt: '2026-02-01T12:05:00.000Z',
  options: [OPTION_EXAMPLE],
};

export const fileOptionSchema = z
  .object({
    id: z.number().int().positive().meta({ example: 31 }),
    fileId: z.number().int().positive().meta({ description: "The list the option belongs to (the lineage's name)", example: 7 }),
    name: z.string().max(255).meta({ description: 'The caption sent with the file (may be empty)', example: 'Tabela de preços' }),
    position: z.number().int().min(0).meta({ description: 'Order in the list, from 0', example: 0 }),
    path: z.string().nullable().meta({ description: "The uploaded file's original name; null until a file is uploaded", example: 'precos-2026.pdf' }),
    mediaType: z
      .string()
      .nullable()
      .meta({ description: "The file's type as recognised from its bytes; null until a file is uploaded", example: 'application/pdf' }),
    size: z.number().int().min(0).nullable().meta({ description: 'Bytes; null until a file is uploaded', example: 184_320 }),
  })
  .meta({ id: 'FileOption', description: 'One entry of a file list: a caption and its file', example: OPTION_EXAMPLE });

export const fileListSchema = z
  .object({
    id: z.number().int().positive().meta({ example: 7 }),
    companyId: z.number().int().positive().meta({ example: 1 }),
    name: z.string().min(1).max(255).meta({ example: 'Catálogo de vendas' }),
    message: z.string().meta({ description: 'Text sent before the files', example: 'Segue nosso catálogo:' }),
    createdAt: timestamp.meta({ example: '2026-02-01T12:00:00.000Z' }),
    updatedAt: timestamp.meta({ example: '2026-02-01T12:05:00.000Z' }),
    options: z.array(fileOptionSchema).meta({ description: "The list's files, in order" }),
  })
  .meta({ id: 'FileList', description: 'A named list of files, with its options', example: LIST_EXAMPLE });

export const fileListArraySchema = z
  .array(fileListSchema)
  .meta({ id: 'FileListArray', description: 'Every list of the company, by name', example: [LIST_EXAMPLE] });

export const fileListPageSchema = z
  .object({
    files: z.array(fileListSchema),
    count: z.number().int().min(0).meta({ description: 'How many lists match in all', example: 1 }),
    hasMore: z.boolean().meta({ example: false }),
  })
  .meta({ id: 'FileListPage', description: 'A page (20) of lists by name', example: { files: [LIST_EXAMPLE], count: 1, hasMore: false } });

export const fileListDeletedSchema = z
  .object({ message: z.literal('File List deleted') })
  .meta({ id: 'FileListDeleted', description: "The list is gone, with its files (the lineage's message)", example: { message: 'File List deleted' } });

export const fileListsDeletedSchema = z
  .object({ deleted: z.number().int().min(0).meta({ description: 'How many lists were deleted', example: 3 }) })
  .meta({ id: 'FileListsDeleted', description: 'Every list of the company is gone, with its files', example: { deleted: 3 } });
