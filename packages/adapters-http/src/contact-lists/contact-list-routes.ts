import { ValidationError, type Application, type ErrorCode } from '@servicedesk/core';
import { listRowsOfTable } from '@servicedesk/core/contact-lists/import-rows';
import { z } from 'zod';
import { MAX_CONTACT_FILE_BYTES, readContactTable } from '../contacts/contact-files.js';
import { route, type RouteError } from '../http/route.js';
import { id, idParam, pagedQuery } from '../http/schemas.js';
import {
  contactListArraySchema,
  contactListDeletedSchema,
  contactListImportSchema,
  contactListItemArraySchema,
  contactListItemDeletedSchema,
  contactListItemPageSchema,
  contactListItemSchema,
  contactListPageSchema,
  contactListSchema,
} from './contact-list-schemas.js';

export const CONTACT_LISTS_TAG = 'Contact lists, announcements, internal chats';
/** Every contact-list route: admins of a company whose plan has campaigns. */
export const LIST_ACCESS: RouteError = {
  status: 403,
  codes: ['ERR_NO_PERMISSION', 'ERR_PLAN_FEATURE_DISABLED'],
  description: "The caller is not an admin, or the company's plan has no campaigns",
};
const ACCESS = 'Admins of a company whose plan has campaigns (like the campaign routes).';
const LIST_NOT_FOUND: RouteError = { status: 404, codes: ['ERR_NO_CONTACT_LIST_FOUND'] };
const ITEM_NOT_FOUND: RouteError = { status: 404, codes: ['ERR_NO_CONTACT_LIST_ITEM_FOUND'] };
const ITEM_FIELD_ERRORS: ErrorCode[] = [
  'ERR_MISSING_NUMBER',
  'ERR_INVALID_NUMBER',
  'ERR_NAME_TOO_LONG',
  'ERR_INVALID_EMAIL',
  'ERR_INVALID_CONTACT_LIST_VARIABLES',
];
const FILE_ERRORS: ErrorCode[] = [
  'ERR_IMPORT_NO_FILE',
  'ERR_IMPORT_EMPTY',
  'ERR_IMPORT_UNSUPPORTED_FILE',
  'ERR_IMPORT_INVALID_FILE',
  'ERR_IMPORT_NO_NUMBER_COLUMN',
  'ERR_INVALID_CONTACT_LIST_VARIABLES',
];

/** The lineage client sends the list's `companyId` in the query of `/list` routes: it is ignored (the company is the token's). */
const ignoredCompany = { companyId: z.unknown().optional().meta({ description: "Ignored: the company is the caller's" }) };

const listName = (absent: string) =>
  z
    .string()
    .max(1000)
    .meta({ description: `Trimmed, spaces collapsed, 1 to 255 characters${absent}`, example: 'Clientes VIP' });

/** Types only: the use cases check names, numbers, e-mails and variables and answer with their own codes. */
const itemFields = {
  name: z.string().max(1000).optional().meta({
    description: 'Trimmed, spaces collapsed, up to 200 characters; empty: the number; absent: the number on a create, unchanged on an edit',
    example: 'Ana Lima',
  }),
  number: z
    .union([z.string().max(100), z.number()])
    .transform(String)
    .optional()
    .meta({
      description:
        'Phone number with country code; punctuation is dropped, 8 to 15 digits remain; required on a create, absent on an edit: unchanged (a new one is checked again)',
      example: '5511987654321',
    }),
  email: z
    .string()
    .max(1000)
    .nullable()
    .optional()
    .meta({ description: 'An e-mail address, stored lower case; empty or null: none; absent on an edit: unchanged', example: 'ana@example.com' }),
  variables: z
    .record(z.string().max(1000), z.string().max(10_000))
    .optional()
    .meta({
      description:
        'Values campaign messages put in their placeholders, by name: up to 50, names 1 to 100 characters (stored trimmed and lower case), values up to 1,000 characters; ' +
        'on an edit they replace the old ones, absent: unchanged',
      example: { empresa: 'Acme', plano: 'Pro' },
    }),
};
const ITEM_EXAMPLE = { name: 'Ana Lima', number: '5511987654321', email: 'ana@example.com', variables: { empresa: 'Acme', plano: 'Pro' } };

type ContactListsApp = Pick<Application, 'contactLists'>;

/**
 * Contact lists (`/contact-lists`): named snapshots of numbers for campaigns, with their item
 * counts per verdict of the number check and their latest spreadsheet import. Events:
 * `company-<id>-ContactList`, `-ContactListItem` and `-contactListImport`, to admins.
 */
export function contactListRoutes(app: ContactListsApp) {
  const tag = CONTACT_LISTS_TAG;
  const lists = app.contactLists;
  const byId = idParam('id');
  return [
    route({
      method: 'GET',
      path: '/contact-lists/list',
      auth: 'isAuth',
      tag,
      summary: "Every contact list of the company (the campaign form's picker)",
      description: `${ACCESS} A bare array by name; a \`companyId\` in the query is ignored (the company is the caller's).`,
      query: z.object(ignoredCompany),
      response: contactListArraySchema,
      errors: [LIST_ACCESS],
      handler: async ({ actor }) => lists.listAllContactLists.execute({ actor }),
    }),
    route({
      method: 'GET',
      path: '/contact-lists',
      auth: 'isAuth',
      tag,
      summary: 'Page through the contact lists found by name',
      description: `${ACCESS} A page (20) as \`{records, count, hasMore}\`, by name; \`searchParam\` in the name, ignoring case and accents. Each list carries \`contactsCount\`, its counts per verdict and its latest import.`,
      query: pagedQuery,
      response: contactListPageSchema,
      errors: [LIST_ACCESS],
      handler: async ({ actor, query }) => lists.listContactLists.execute({ actor, ...query }),
    }),
    route({
      method: 'GET',
      path: '/contact-lists/:id',
      auth: 'isAuth',
      tag,
      summary: 'A contact list with its counts and latest import',
      description: `${ACCESS} Another company's list is 404.`,
      params: byId,
      response: contactListSchema,
      errors: [LIST_ACCESS, LIST_NOT_FOUND],
      handler: async ({ actor, params }) => lists.showContactList.execute({ actor, contactListId: params.id }),
    }),
    route({
      method: 'POST',
      path: '/contact-lists',
      auth: 'isAuth',
      tag,
      summary: 'Create an empty contact list',
      description: `${ACCESS} Answers 200 with the list, as the lineage does, and emits \`ContactList\` \`create\`.`,
      body: z.object({ name: listName('') }).meta({ example: { name: 'Clientes VIP' } }),
      response: contactListSchema,
      errors: [LIST_ACCESS, { status: 422, codes: ['ERR_INVALID_CONTACT_LIST_NAME'] }],
      handler: async ({ actor, body }) => lists.createContactList.execute({ actor, name: body.name }),
    }),
    route({
      method: 'POST',
      path: '/contact-lists/:id/upload',
      auth: 'isAuth',
      tag,
      status: 202,
      feature: 'campaigns',
      summary: 'Import a CSV or XLSX file (multipart `file`) into the list, in the background',
      description:
        `${ACCESS} Columns are found by their header (name/nome, number/numero/número/telefone/phone, email/e-mail); every other column with a header ` +
        'becomes a variable of the item (header in lower case). Answers 202 with the import at once; its rows are then written 500 per transaction: ' +
        'a number the list has (with or without the ninth digit), or one repeated in the file, is merged; a bad row is counted with its reason. ' +
        "Progress comes as `contactListImport` `progress` events and the end as `done`, then the list's `ContactList` `update` and a `ContactListItem` `reload`; " +
        "the list's `lastImport` shows it too. New items wait for the number check (`validity: unknown`).",
      params: byId,
      response: contactListImportSchema,
      errors: [LIST_ACCESS, LIST_NOT_FOUND, { status: 413, codes: ['ERR_IMPORT_TOO_MANY_ROWS'] }, { status: 422, codes: FILE_ERRORS }],
      body: z.object({}).meta({ description: 'No form field besides `file`; others are ignored', example: {} }),
      multipart: { fileFields: ['file'], maxFileBytes: MAX_CONTACT_FILE_BYTES, maxFiles: 1, maxFields: 10 },
      handler: async ({ actor, params, multipart: form }) => {
        const file = form.files.file?.[0];
        if (!file) throw new ValidationError('ERR_IMPORT_NO_FILE');
        return lists.startContactListImport.execute({
          actor,
          contactListId: params.id,
          fileName: file.filename,
          rows: async () => listRowsOfTable(await readContactTable(file)),
        });
      },
    }),
    route({
      method: 'PUT',
      path: '/contact-lists/:id',
      auth: 'isAuth',
      tag,
      summary: 'Rename a contact list',
      description: `${ACCESS} The edit dialog sends the whole list back: only \`name\` is read. Emits \`ContactList\` \`update\`.`,
      params: byId,
      body: z.object({ name: listName('; absent: unchanged').optional() }).meta({ example: { name: 'Clientes VIP 2026' } }),
      response: contactListSchema,
      errors: [LIST_ACCESS, LIST_NOT_FOUND, { status: 422, codes: ['ERR_INVALID_CONTACT_LIST_NAME'] }],
      handler: async ({ actor, params, body }) => lists.updateContactList.execute({ actor, contactListId: params.id, name: body.name }),
    }),
    route({
      method: 'DELETE',
      path: '/contact-lists/:id',
      auth: 'isAuth',
      tag,
      summary: 'Delete a contact list with its items',
      description: `${ACCESS} Refused with 409 while a campaign that has not started yet (not materialised: inactive, scheduled or starting) would read it. Emits \`ContactList\` \`delete\`.`,
      params: byId,
      response: contactListDeletedSchema,
      errors: [LIST_ACCESS, LIST_NOT_FOUND, { status: 409, codes: ['ERR_CONTACT_LIST_IN_USE'] }],
      handler: async ({ actor, params }) => {
        await lists.deleteContactList.execute({ actor, contactListId: params.id });
        return { message: 'Contact list deleted' as const };
      },
    }),
  ];
}

/** Contact-list items (`/contact-list-items`): the numbers of the lists, each with its number check's verdict. */
export function contactListItemRoutes(app: ContactListsApp) {
  const tag = CONTACT_LISTS_TAG;
  const lists = app.contactLists;
  const byId = idParam('id');
  return [
    route({
      method: 'GET',
      path: '/contact-list-items/list',
      auth: 'isAuth',
      tag,
      summary: 'Every item of one contact list',
      description: `${ACCESS} A bare array by name; a \`companyId\` in the query is ignored (the company is the caller's). Another company's list is 404.`,
      query: z.object({
        contactListId: id.meta({ description: "The list whose items to answer, one of the caller's company", example: 4 }),
        ...ignoredCompany,
      }),
      response: contactListItemArraySchema,
      errors: [LIST_ACCESS, LIST_NOT_FOUND],
      handler: async ({ actor, query }) => lists.listAllContactListItems.execute({ actor, contactListId: query.contactListId }),
    }),
    route({
      method: 'GET',
      path: '/contact-list-items',
      auth: 'isAuth',
      tag,
      summary: 'Page through the items of a list (or of all lists)',
      description:
        `${ACCESS} A page (20) as \`{contacts, count, hasMore}\` (the lineage's names), by name; \`searchParam\` in the name (ignoring case and accents) or, ` +
        'when it is digits and phone punctuation, in the number.',
      query: pagedQuery.extend({
        contactListId: id.optional().meta({ description: "Only this list's items; absent: the items of every list of the company", example: 4 }),
      }),
      response: contactListItemPageSchema,
      errors: [LIST_ACCESS, LIST_NOT_FOUND],
      handler: async ({ actor, query }) => lists.listContactListItems.execute({ actor, ...query }),
    }),
    route({
      method: 'GET',
      path: '/contact-list-items/:id',
      auth: 'isAuth',
      tag,
      summary: 'A contact-list item',
      description: `${ACCESS} Another company's item is 404.`,
      params: byId,
      response: contactListItemSchema,
      errors: [LIST_ACCESS, ITEM_NOT_FOUND],
      handler: async ({ actor, params }) => lists.showContactListItem.execute({ actor, itemId: params.id }),
    }),
    route({
      method: 'POST',
      path: '/contact-list-items',
      auth: 'isAuth',
      tag,
      summary: 'Add a number to a contact list',
      description:
        `${ACCESS} \`{contactListId, number, name?, email?, variables?}\` (a \`companyId\` is ignored); the name defaults to the number. Answers 200 with the item, ` +
        "which waits for the number check (`validity: unknown`); emits `ContactListItem` `create` and the list's `update`.",
      body: z
        .object({ ...itemFields, contactListId: id.meta({ description: "The list the number joins, one of the caller's company", example: 4 }) })
        .meta({ example: { ...ITEM_EXAMPLE, contactListId: 4 } }),
      response: contactListItemSchema,
      errors: [LIST_ACCESS, LIST_NOT_FOUND, { status: 409, codes: ['ERR_CONTACT_LIST_ITEM_DUPLICATE'] }, { status: 422, codes: ITEM_FIELD_ERRORS }],
      handler: async ({ actor, body }) => lists.createContactListItem.execute({ actor, ...body }),
    }),
    route({
      method: 'PUT',
      path: '/contact-list-items/:id',
      auth: 'isAuth',
      tag,
      summary: 'Edit a contact-list item',
      description:
        `${ACCESS} The dialog sends the whole item back: \`name\`, \`number\`, \`email\` and \`variables\` are read, the rest ignored (the item stays in its list). ` +
        "A new number is checked again. Emits `ContactListItem` `update` and the list's `update`.",
      params: byId,
      body: z
        .object(itemFields)
        .meta({ example: { name: 'Ana Lima Souza', number: '5511987654321', email: '', variables: { empresa: 'Acme', plano: 'Enterprise' } } }),
      response: contactListItemSchema,
      errors: [LIST_ACCESS, ITEM_NOT_FOUND, { status: 409, codes: ['ERR_CONTACT_LIST_ITEM_DUPLICATE'] }, { status: 422, codes: ITEM_FIELD_ERRORS }],
      handler: async ({ actor, params, body }) => lists.updateContactListItem.execute({ actor, itemId: params.id, ...body }),
    }),
    route({
      method: 'DELETE',
      path: '/contact-list-items/:id',
      auth: 'isAuth',
      tag,
      summary: 'Remove an item from its list',
      description: `${ACCESS} Emits \`ContactListItem\` \`delete\` (\`id\`, \`contactListId\`) and the list's \`update\`.`,
      params: byId,
      response: contactListItemDeletedSchema,
      errors: [LIST_ACCESS, ITEM_NOT_FOUND],
      handler: async ({ actor, params }) => {
        await lists.deleteContactListItem.execute({ actor, itemId: params.id });
        return { message: 'Contact deleted' as const };
      },
    }),
  ];
}
