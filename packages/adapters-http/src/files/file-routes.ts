import { ValidationError, type Application, type ErrorCode } from '@servicedesk/core';
import { MAX_FILE_OPTION_BYTES, MAX_FILES_PER_UPLOAD } from '@servicedesk/core/files/file-media';
import type { ListFileUpload } from '@servicedesk/core/files/upload-file-list-files';
import { z } from 'zod';
import { route, type RouteError } from '../http/route.js';
import { id, idParam, pagedQuery } from '../http/schemas.js';
import { fileListArraySchema, fileListDeletedSchema, fileListPageSchema, fileListSchema, fileListsDeletedSchema } from './file-schemas.js';

export const FILES_TAG = 'File lists';
const ADMINS: RouteError = { status: 403, codes: ['ERR_NO_PERMISSION'], description: 'The caller is not an admin' };
const LIST_NOT_FOUND: RouteError = { status: 404, codes: ['ERR_NO_FILE_LIST_FOUND'] };
const FIELD_ERRORS: ErrorCode[] = ['ERR_INVALID_FILE_LIST_NAME', 'ERR_INVALID_FILE_LIST_MESSAGE', 'ERR_INVALID_FILE_OPTION', 'ERR_TOO_MANY_FILE_OPTIONS'];

/**
 * An option as the dialog sends it: `id` keeps an existing option, `name` is its caption. The
 * dialog also sends back `path`, `mediaType`, `fileId` and the picked file (as `{}`): the server
 * owns those, they are ignored.
 */
const optionInput = z.object({
  id: id.optional().meta({ description: 'An option of this list to keep with its file (edits only; refused on a create); absent: a new option', example: 31 }),
  name: z
    .string()
    .max(1000)
    .nullish()
    .meta({ description: 'The caption sent with the file, trimmed, up to 255 characters; null or absent: none', example: 'Tabela de preços' }),
});
const listFields = {
  name: z.string().max(1000).meta({ description: 'Trimmed, spaces collapsed, 1 to 255 characters; unique in the company', example: 'Catálogo de vendas' }),
  message: z.string().max(10_000).nullish().meta({
    description: 'Text sent before the files, up to 4,096 characters; null or absent: empty on a create, unchanged on an edit',
    example: 'Segue nosso catálogo:',
  }),
  options: z.array(optionInput).max(100).optional().meta({
    description:
      "The list's options in order, up to 20; on an edit they replace the list's options (those left out are removed with their files), absent: unchanged",
  }),
};
const IGNORED_COMPANY = z.unknown().optional().meta({ description: "Ignored: the company is the caller's" });
const options = (raw: z.infer<typeof optionInput>[] | undefined) => raw?.map((o) => ({ ...(o.id !== undefined ? { id: o.id } : {}), name: o.name ?? '' }));

type FilesApp = Pick<Application, 'files'>;

/**
 * The parallel arrays of an upload form lined up with its files: the i-th file goes to option
 * `id[i]` (none or empty: a new option) captioned `name[i]` when given. An array present with
 * another length than the files is 422 `ERR_INVALID_FILE_OPTION`.
 */
export function lineUpUploads(files: readonly ListFileUpload['file'][], lists: Record<string, string[]>): ListFileUpload[] {
  const ids = lists.id ?? [];
  const names = lists.name ?? [];
  if ((ids.length && ids.length !== files.length) || (names.length && names.length !== files.length)) throw new ValidationError('ERR_INVALID_FILE_OPTION');
  return files.map((file, i) => {
    const rawId = ids[i]?.trim();
    let optionId: number | undefined;
    if (rawId && rawId !== 'undefined' && rawId !== 'null') {
      const parsed = id.safeParse(rawId);
      if (!parsed.success) throw new ValidationError('ERR_INVALID_FILE_OPTION');
      optionId = parsed.data;
    }
    return { file, ...(optionId !== undefined ? { optionId } : {}), ...(names[i] !== undefined ? { name: names[i] } : {}) };
  });
}

/**
 * File lists (`/files`): named bundles of files a queue, a chatbot option or a flow sends. Reads
 * for every operator of the company (the queue and chatbot forms pick from them), changes for
 * admins. Events: `company-<id>-file`, to every operator.
 */
export function fileRoutes(app: FilesApp) {
  const tag = FILES_TAG;
  const files = app.files;
  const byFileId = idParam('fileId');
  return [
    route({
      method: 'GET',
      path: '/files/list',
      auth: 'isAuth',
      tag,
      summary: 'Every file list of the company (pickers)',
      description:
        "Any operator. A bare array by name with each list's options; `searchParam` in the name, ignoring case and accents. A `companyId` in the query is ignored.",
      query: z.object({
        searchParam: z
          .string()
          .max(200)
          .optional()
          .meta({ description: 'Text to look for in the names (ignoring case and accents); empty or absent: every list' }),
        companyId: IGNORED_COMPANY,
      }),
      response: fileListArraySchema,
      handler: async ({ actor, query }) => files.listAllFileLists.execute({ actor, searchParam: query.searchParam }),
    }),
    route({
      method: 'GET',
      path: '/files',
      auth: 'isAuth',
      tag,
      summary: 'Page through the file lists found by name',
      description:
        'Any operator. A page (20) as `{files, count, hasMore}`, by name, each list with its options; `searchParam` in the name, ignoring case and accents. ' +
        "A `companyId` in the query is ignored (the company is the caller's).",
      query: pagedQuery.extend({ companyId: IGNORED_COMPANY }),
      response: fileListPageSchema,
      handler: async ({ actor, query }) => files.listFileLists.execute({ actor, searchParam: query.searchParam, pageNumber: query.pageNumber }),
    }),
    route({
      method: 'GET',
      path: '/files/:fileId',
      auth: 'isAuth',
      tag,
      summary: 'A file list with its options',
      description: "Any operator. Another company's list is 404.",
      params: byFileId,
      response: fileListSchema,
      errors: [LIST_NOT_FOUND],
      handler: async ({ actor, params }) => files.showFileList.execute({ actor, fileListId: params.fileId }),
    }),
    route({
      method: 'POST',
      path: '/files',
      auth: 'isAuth',
      tag,
      summary: 'Create a file list with its captions',
      description:
        'Admins. `{name, message?, options?: [{name}]}` (up to 20 options; other fields the dialog sends are ignored). The files come next with ' +
        '`POST /files/uploadList/:fileListId`, each bound to an option by its `id`. Answers 200 with the list; emits `file` `create`.',
      body: z.object(listFields).meta({
        example: { name: 'Catálogo de vendas', message: 'Segue nosso catálogo:', options: [{ name: 'Tabela de preços' }, { name: 'Fotos dos produtos' }] },
      }),
      response: fileListSchema,
      errors: [ADMINS, { status: 409, codes: ['ERR_FILE_LIST_NAME_IN_USE'] }, { status: 422, codes: FIELD_ERRORS }],
      handler: async ({ actor, body }) =>
        files.createFileList.execute({
          actor,
          name: body.name,
          ...(body.message != null ? { message: body.message } : {}),
          ...(body.options ? { options: options(body.options) } : {}),
        }),
    }),
    route({
      method: 'POST',
      path: '/files/uploadList/:fileListId',
      auth: 'isAuth',
      tag,
      summary: 'Upload files into a list (multipart `files`, with parallel `id` and `name`)',
      description:
        `Admins. Multipart: up to ${MAX_FILES_PER_UPLOAD} files in \`files\`, each up to ${MAX_FILE_OPTION_BYTES / 1024 / 1024} MiB, streamed to storage; ` +
        "the i-th file goes to the option `id[i]` of this list (its previous file is deleted), or without an id to a new option captioned `name[i]` (else the file's name). " +
        "A file's type is recognised from its bytes: PNG, JPEG, WebP or GIF images, PDF, MP3, Ogg and M4A audio, MP4 and 3GP video, ZIP archives and Office documents " +
        "(the claimed `mediaType` is ignored). The list is the path's (a different `fileId` field is 422). Answers 200 with the list; emits `file` `update`. " +
        "A form without files (the lineage's dialog posts one after every save) changes nothing: 200 with the list as it is, no event.",
      params: idParam('fileListId'),
      body: z
        .object({
          fileId: id
            .optional()
            .meta({ description: "The list's id again, as the dialog sends it; another list's id is 422 `ERR_INVALID_FILE_OPTION`", example: 7 }),
          typeArch: z
            .string()
            .max(50)
            .optional()
            .meta({ description: "The dialog's file-type hint; ignored (the type is recognised from the bytes)", example: 'fileList' }),
        })
        .meta({ example: { fileId: 7 } }),
      response: fileListSchema,
      multipart: { fileFields: ['files'], maxFileBytes: MAX_FILE_OPTION_BYTES, maxFiles: MAX_FILES_PER_UPLOAD, maxFields: 50 },
      errors: [
        ADMINS,
        LIST_NOT_FOUND,
        { status: 404, codes: ['ERR_NO_FILE_OPTION_FOUND'] },
        { status: 413, codes: ['ERR_FILE_TOO_LARGE'] },
        { status: 422, codes: ['ERR_FILE_TYPE_NOT_ALLOWED', 'ERR_INVALID_FILE_OPTION', 'ERR_TOO_MANY_FILE_OPTIONS', 'ERR_NO_FILE'] },
      ],
      handler: async ({ actor, params, body, multipart }) => {
        if (body.fileId !== undefined && body.fileId !== params.fileListId) throw new ValidationError('ERR_INVALID_FILE_OPTION');
        const uploads = lineUpUploads(multipart.files.files ?? [], multipart.fieldLists);
        return files.uploadFileListFiles.execute({ actor, fileListId: params.fileListId, uploads });
      },
    }),
    route({
      method: 'PUT',
      path: '/files/:fileId',
      auth: 'isAuth',
      tag,
      summary: 'Change a file list and its options',
      description:
        "Admins. `name`, `message` and, when given, `options`: the list's options become exactly those (an `id` keeps that option and its file, renamed " +
        'and moved; without one a new option is added; options left out are removed with their files). Answers 200 with the list; emits `file` `update`.',
      params: byFileId,
      body: z.object({ ...listFields, name: listFields.name.optional() }).meta({
        example: { name: 'Catálogo de vendas 2026', options: [{ id: 31, name: 'Tabela de preços atualizada' }, { name: 'Condições de pagamento' }] },
      }),
      response: fileListSchema,
      errors: [
        ADMINS,
        LIST_NOT_FOUND,
        { status: 404, codes: ['ERR_NO_FILE_OPTION_FOUND'] },
        { status: 409, codes: ['ERR_FILE_LIST_NAME_IN_USE'] },
        { status: 422, codes: FIELD_ERRORS },
      ],
      handler: async ({ actor, params, body }) =>
        files.updateFileList.execute({
          actor,
          fileListId: params.fileId,
          ...(body.name !== undefined ? { name: body.name } : {}),
          ...(body.message != null ? { message: body.message } : {}),
          ...(body.options ? { options: options(body.options) } : {}),
        }),
    }),
    route({
      method: 'DELETE',
      path: '/files/:fileId',
      auth: 'isAuth',
      tag,
      summary: 'Delete a file list with its files',
      description: 'Admins. Emits `file` `delete` (`fileId`).',
      params: byFileId,
      response: fileListDeletedSchema,
      errors: [ADMINS, LIST_NOT_FOUND],
      handler: async ({ actor, params }) => {
        await files.deleteFileList.execute({ actor, fileListId: params.fileId });
        return { message: 'File List deleted' as const };
      },
    }),
    route({
      method: 'DELETE',
      path: '/files',
      auth: 'isAuth',
      tag,
      summary: 'Delete every file list of the company',
      description: "Admins. Every list of the caller's company goes, with its files; emits `file` `delete` for each. Answers how many.",
      response: fileListsDeletedSchema,
      errors: [ADMINS],
      handler: async ({ actor }) => files.deleteAllFileLists.execute({ actor }),
    }),
  ];
}
