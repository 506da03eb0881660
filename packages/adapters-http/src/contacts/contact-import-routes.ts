import { MAX_IMPORT_ROWS, rowsOfTable, ValidationError, type Actor, type Application, type ColumnMapping, type UploadedFile } from '@servicedesk/core';
import { z } from 'zod';
import { MAX_CONTACT_FILE_BYTES, readContactTable } from './contact-files.js';
import { route } from '../http/route.js';
import { id } from '../http/schemas.js';
import { contactImportStatusSchema } from './contact-schemas.js';

const column = z.union([z.string().max(200), z.number().int().min(1).max(10_000)]);
const columnOf = (field: string) =>
  column.meta({ description: `The column of the ${field}: its header (any case or accents) or its number, from 1; absent: found by its usual headers` });
/** Which column holds each field, by header name or 1-based number; a JSON text in a form field. */
const mapping = z
  .preprocess(
    (v) => {
      if (typeof v !== 'string') return v;
      try {
        return JSON.parse(v) as unknown;
      } catch {
        return v;
      }
    },
    z
      .object({ name: columnOf('name'), number: columnOf('number'), email: columnOf('e-mail') })
      .partial()
      .strict(),
  )
  .meta({
    description:
      'Which column of the file holds each field (JSON text in a form: `{"number":"Telefone"}`); absent: by the usual headers ' +
      '(name/nome, number/numero/telefone/phone, email...). A file needs a number column',
    example: { name: 'Nome', number: 'Telefone' },
  });

/** A row as a client sends it; each value is checked per row, so a bad one is reported, not refused. */
const cell = z
  .union([z.string().max(1000), z.number(), z.null()])
  .optional()
  .transform((v) => (v === null || v === undefined ? undefined : String(v)));
const row = z.object({
  name: cell.meta({ description: "The contact's name; empty: the number" }),
  number: cell.meta({ description: 'The number with country and area code, digits only or formatted, as text or a JSON number' }),
  email: cell.meta({ description: 'E-mail; empty: none' }),
});

const FILE_FIELDS = ['file', 'files'];
const multipart = { fileFields: FILE_FIELDS, maxFileBytes: MAX_CONTACT_FILE_BYTES, maxFiles: 1, maxFields: 10 };

/**
 * Imports. Every import is answered at once with its status (`importId`, counts; 202, or 200 on
 * the lineage's `/contactsImport`), then runs in the background: the namespace's `contactImport` events report progress and the end,
 * and `POST /contactsImport` with `{ importId }` answers the status or final report (for a day).
 */
export function contactImportRoutes(app: Pick<Application, 'contacts'>) {
  const tag = 'Contacts';
  const fromFile = async (actor: Actor, files: Record<string, UploadedFile[]>, columns: ColumnMapping | undefined) => {
    const file = FILE_FIELDS.map((f) => files[f]?.[0]).find(Boolean);
    if (!file) throw new ValidationError('ERR_IMPORT_NO_FILE');
    const rows = rowsOfTable(await readContactTable(file), columns);
    return app.contacts.startContactImport.execute({ actor, rows, source: 'file', fileName: file.filename });
  };
  return [
    route({
      method: 'POST',
      path: '/contacts/import',
      auth: 'isAuth',
      tag,
      status: 202,
      summary: "Import the address book of a connection's account (default connection unless `chatappId` is given)",
      description:
        "Any operator. Asks the connection's live session for its address book and imports it in the background, merged by number; answers the import's status at once. Progress and the final report are emitted as `company-<id>-contactImport` (`action: 'progress'`, then `'done'`).",
      response: contactImportStatusSchema,
      errors: [
        { status: 404, codes: ['ERR_NO_CONNECTION_FOUND', 'ERR_NO_DEFAULT_CONNECTION'] },
        { status: 409, codes: ['ERR_SESSION_NOT_CONNECTED', 'ERR_CONTACTS_NOT_SUPPORTED'] },
        { status: 413, codes: ['ERR_IMPORT_TOO_MANY_ROWS'] },
      ],
      body: z
        .object({
          chatappId: id.optional().meta({ description: "The lineage's name for `connectionId`" }),
          connectionId: id.optional().meta({
            description: "The connection whose account's address book is imported; absent: the default connection, else the first connected session",
          }),
        })
        .meta({ example: { connectionId: 2 } }),
      handler: async ({ actor, body }) => app.contacts.importAddressBook.execute({ actor, connectionId: body.connectionId ?? body.chatappId }),
    }),
    route({
      method: 'POST',
      path: '/contactsImport',
      auth: 'isAuth',
      tag,
      summary:
        'Import a file (multipart `file`, optional `mapping`), a JSON list `{ contacts: [...] }` or one row `{ name, number, email }`; ' +
        "with `{ importId }` alone, answer that import's status or report. Always 200, as in the lineage",
      description:
        "Any operator. Starting an import answers its status at once and runs it in the background; asking with `importId` answers the stored status or report of an import of the company (kept a day). Progress and the final report are emitted as `company-<id>-contactImport` (`action: 'progress'`, then `'done'`).",
      response: contactImportStatusSchema,
      errors: [
        { status: 404, codes: ['ERR_IMPORT_NOT_FOUND'] },
        { status: 413, codes: ['ERR_IMPORT_TOO_MANY_ROWS'] },
        {
          status: 422,
          codes: ['ERR_IMPORT_EMPTY', 'ERR_IMPORT_UNSUPPORTED_FILE', 'ERR_IMPORT_INVALID_FILE', 'ERR_IMPORT_UNKNOWN_COLUMN', 'ERR_IMPORT_NO_NUMBER_COLUMN'],
        },
      ],
      body: z
        .object({
          importId: z
            .string()
            .min(1)
            .max(64)
            .optional()
            .meta({ description: "An earlier import's id: answers its status or report (kept a day) instead of importing; not with a file" }),
          mapping: mapping.optional(),
          contacts: z
            .array(row)
            .max(MAX_IMPORT_ROWS)
            .optional()
            .meta({ description: 'The rows to import (JSON only), instead of a file; a bad row is reported, the others imported' }),
        })
        .extend({
          name: row.shape.name.meta({ description: "One row to import, instead of `contacts`: the contact's name; empty: the number" }),
          number: row.shape.number.meta({ description: "One row's number, with country and area code, digits only or formatted" }),
          email: row.shape.email.meta({ description: "One row's e-mail; empty: none" }),
        })
        .meta({ example: { name: 'Maria Souza', number: '5511988887777', email: 'maria@example.com' } }),
      multipart,
      jsonOrMultipart: true,
      handler: async ({ actor, body, multipart: form }) => {
        if (FILE_FIELDS.some((f) => form.files[f]?.length)) return fromFile(actor, form.files, body.mapping);
        if (body.importId !== undefined) return app.contacts.showContactImport.execute({ actor, importId: body.importId });
        const rows =
          body.contacts ?? (body.number !== undefined || body.name !== undefined ? [{ name: body.name, number: body.number, email: body.email }] : []);
        return app.contacts.startContactImport.execute({ actor, rows: rows.map((r, i) => ({ ...r, row: i + 1 })), source: 'list' });
      },
    }),
    route({
      method: 'POST',
      path: '/contacts/upload',
      auth: 'isAuth',
      tag,
      status: 202,
      summary: 'Import a CSV or XLSX file (multipart `file`): columns by header (name/nome, number/numero/telefone/phone, email) or `mapping`',
      description:
        "Any operator. Answers the import's status at once and writes the rows in the background, 500 per transaction. Progress and the final report are emitted as `company-<id>-contactImport` (`action: 'progress'`, then `'done'`).",
      response: contactImportStatusSchema,
      errors: [
        { status: 413, codes: ['ERR_IMPORT_TOO_MANY_ROWS'] },
        {
          status: 422,
          codes: [
            'ERR_IMPORT_NO_FILE',
            'ERR_IMPORT_EMPTY',
            'ERR_IMPORT_UNSUPPORTED_FILE',
            'ERR_IMPORT_INVALID_FILE',
            'ERR_IMPORT_UNKNOWN_COLUMN',
            'ERR_IMPORT_NO_NUMBER_COLUMN',
          ],
        },
      ],
      body: z.object({ mapping: mapping.optional() }).meta({ example: { mapping: { name: 'Nome', number: 'Telefone' } } }),
      multipart,
      handler: async ({ actor, body, multipart: form }) => fromFile(actor, form.files, body.mapping),
    }),
  ];
}
