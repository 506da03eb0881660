import { z } from 'zod';
import { importRowErrorSchema } from '../contacts/contact-schemas.js';

/**
 * The contact-list views as the API answers them (`ContactListView`, `ContactListItemView` and
 * `ContactListImportView` of packages/core/src/contact-lists), under the lineage client's names
 * (`records`, `contacts`, `contactsCount`) and the naming rule (`isChatappValid`).
 */

const timestamp = z.iso.datetime();
const count = (description: string, example: number) => z.number().int().min(0).meta({ description, example });

const IMPORT_EXAMPLE = {
  importId: 12,
  contactListId: 4,
  fileName: 'clientes.xlsx',
  status: 'done' as const,
  total: 1200,
  processed: 1200,
  created: 1150,
  duplicates: 40,
  invalid: 10,
  errors: [{ row: 17, reason: 'ERR_INVALID_NUMBER' }],
  error: null,
  startedAt: '2025-02-01T09:30:00.000Z',
  finishedAt: '2025-02-01T09:30:08.000Z',
};

export const contactListImportSchema = z
  .object({
    importId: z.number().int().positive().meta({ description: 'The import; its progress comes as `company-<id>-contactListImport` events', example: 12 }),
    contactListId: z.number().int().positive().meta({ example: 4 }),
    fileName: z.string().meta({ example: 'clientes.xlsx' }),
    status: z.enum(['pending', 'running', 'done', 'failed']).meta({ description: '`pending` until its first batch is written', example: 'done' }),
    total: count('Rows of the file (blank rows left out)', 1200),
    processed: count('Rows handled so far', 1200),
    created: count('New items', 1150),
    duplicates: count('Rows whose number the list had (with or without the ninth digit), or that repeated an earlier row: merged', 40),
    invalid: count('Rows refused (all of them, even past the 1,000 listed)', 10),
    errors: z.array(importRowErrorSchema).meta({ description: 'The first 1,000 refused rows, each with its error code' }),
    error: z.string().nullable().meta({ description: 'Why a failed import stopped (the rows of earlier batches stay)', example: null }),
    startedAt: timestamp.meta({ example: '2025-02-01T09:30:00.000Z' }),
    finishedAt: timestamp.nullable().meta({ description: 'When it ended, `done` or `failed`', example: '2025-02-01T09:30:08.000Z' }),
  })
  .meta({ id: 'ContactListImport', description: 'A spreadsheet import into a contact list: its progress, then its report', example: IMPORT_EXAMPLE });

const LIST_EXAMPLE = {
  id: 4,
  companyId: 1,
  name: 'Clientes 2025',
  contactsCount: 1190,
  validCount: 1100,
  invalidCount: 60,
  unknownCount: 25,
  errorCount: 5,
  createdAt: '2025-01-31T12:00:00.000Z',
  updatedAt: '2025-02-01T09:30:08.000Z',
  lastImport: IMPORT_EXAMPLE,
};

export const contactListSchema = z
  .object({
    id: z.number().int().positive().meta({ example: 4 }),
    companyId: z.number().int().positive().meta({ example: 1 }),
    name: z.string().min(1).max(255).meta({ example: 'Clientes 2025' }),
    contactsCount: count("Items of the list (the lineage's name)", 1190),
    validCount: count('Items whose number the check found', 1100),
    invalidCount: count('Items whose number the provider does not know', 60),
    unknownCount: count('Items not checked yet', 25),
    errorCount: count('Items whose check could not run (checked again later)', 5),
    createdAt: timestamp.meta({ example: '2025-01-31T12:00:00.000Z' }),
    updatedAt: timestamp.meta({ example: '2025-02-01T09:30:08.000Z' }),
    lastImport: contactListImportSchema.nullable().meta({ description: 'Its latest spreadsheet import, null when none' }),
  })
  .meta({ id: 'ContactList', description: 'A contact list with its item counts and latest import', example: LIST_EXAMPLE });

export const contactListArraySchema = z
  .array(contactListSchema)
  .meta({ id: 'ContactListArray', description: 'Every list of the company, by name', example: [LIST_EXAMPLE] });

export const contactListPageSchema = z
  .object({
    records: z.array(contactListSchema),
    count: count('How many lists match in all', 1),
    hasMore: z.boolean().meta({ example: false }),
  })
  .meta({ id: 'ContactListPage', description: 'A page (20) of lists by name', example: { records: [LIST_EXAMPLE], count: 1, hasMore: false } });

const ITEM_EXAMPLE = {
  id: 31,
  companyId: 1,
  contactListId: 4,
  name: 'Maria Souza',
  number: '5511988887777',
  canonicalNumber: '5511988887777',
  email: 'maria@example.com',
  isGroup: false,
  isChatappValid: true,
  validity: 'valid' as const,
  validatedAt: '2025-02-01T09:31:00.000Z',
  validationError: null,
  variables: { cidade: 'Santos', plano: 'ouro' },
  createdAt: '2025-02-01T09:30:01.000Z',
  updatedAt: '2025-02-01T09:31:00.000Z',
};

export const contactListItemSchema = z
  .object({
    id: z.number().int().positive().meta({ example: 31 }),
    companyId: z.number().int().positive().meta({ example: 1 }),
    contactListId: z.number().int().positive().meta({ example: 4 }),
    name: z.string().meta({ example: 'Maria Souza' }),
    number: z
      .string()
      .regex(/^\d{8,15}$/)
      .meta({
        description: "Digits; the provider's form once the check found it (a Brazilian mobile with or without its ninth digit)",
        example: '5511988887777',
      }),
    canonicalNumber: z
      .string()
      .meta({ description: 'The number as given, in canonical form (a Brazilian mobile with its ninth digit): unique in the list', example: '5511988887777' }),
    email: z.string().meta({ description: 'Empty when none', example: 'maria@example.com' }),
    isGroup: z.boolean().meta({ example: false }),
    isChatappValid: z.boolean().meta({ description: "The lineage's `isWhatsappValid`: true only when the check found the number", example: true }),
    validity: z.enum(['unknown', 'valid', 'invalid', 'error']).meta({
      description: '`unknown` until checked; `error` when the check could not run (see `validationError`; checked again later), which is not `invalid`',
      example: 'valid',
    }),
    validatedAt: timestamp.nullable().meta({ example: '2025-02-01T09:31:00.000Z' }),
    validationError: z.string().nullable().meta({ description: 'Why the last check could not run (an error code)', example: null }),
    variables: z
      .record(z.string(), z.string())
      .meta({ description: "The spreadsheet's other columns (lower-case header → value), for campaign placeholders", example: { cidade: 'Santos' } }),
    createdAt: timestamp.meta({ example: '2025-02-01T09:30:01.000Z' }),
    updatedAt: timestamp.meta({ example: '2025-02-01T09:31:00.000Z' }),
  })
  .meta({ id: 'ContactListItem', description: "A number of a contact list with its check's verdict", example: ITEM_EXAMPLE });

export const contactListItemArraySchema = z
  .array(contactListItemSchema)
  .meta({ id: 'ContactListItemArray', description: 'Every item of one list, by name', example: [ITEM_EXAMPLE] });

export const contactListItemPageSchema = z
  .object({
    contacts: z.array(contactListItemSchema).meta({ description: "The items (`contacts` is the lineage client's name)" }),
    count: count('How many items match in all', 1),
    hasMore: z.boolean().meta({ example: false }),
  })
  .meta({ id: 'ContactListItemPage', description: 'A page (20) of items by name', example: { contacts: [ITEM_EXAMPLE], count: 1, hasMore: false } });

export const contactListDeletedSchema = z
  .object({ message: z.literal('Contact list deleted') })
  .meta({ id: 'ContactListDeleted', description: 'The list is gone, with its items', example: { message: 'Contact list deleted' } });

export const contactListItemDeletedSchema = z
  .object({ message: z.literal('Contact deleted') })
  .meta({ id: 'ContactListItemDeleted', description: "The item is gone (the lineage's message)", example: { message: 'Contact deleted' } });
