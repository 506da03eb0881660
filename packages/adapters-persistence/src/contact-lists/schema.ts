import { EntitySchema } from '@mikro-orm/core';
import type { ContactList } from '@servicedesk/core/contact-lists/contact-list';
import type { ContactListItem } from '@servicedesk/core/contact-lists/contact-list';
import type { ContactListImport } from '@servicedesk/core/contact-lists/contact-list-import';
import { foreignKeysOf } from '../shared/columns.js';

const lists = foreignKeysOf('contact_lists');

/** As m0014 creates `contact_lists`. */
export const ContactListSchema = new EntitySchema<ContactList>({
  name: 'ContactList',
  tableName: 'contact_lists',
  properties: {
    id: { type: 'number', primary: true, autoincrement: true },
    companyId: lists('company_id', 'Company', 'cascade'),
    name: { type: 'string', length: 255 },
    createdAt: { type: 'Date' },
    updatedAt: { type: 'Date' },
  },
  indexes: [{ name: 'contact_lists_company_id_name_idx', properties: ['companyId', 'name'] }],
});

const items = foreignKeysOf('contact_list_items');

/** As m0014 creates `contact_list_items`, with m0016's index of the items still to check. */
export const ContactListItemSchema = new EntitySchema<ContactListItem>({
  name: 'ContactListItem',
  tableName: 'contact_list_items',
  properties: {
    id: { type: 'number', primary: true, autoincrement: true },
    companyId: items('company_id', 'Company', 'cascade'),
    contactListId: items('contact_list_id', 'ContactList', 'cascade'),
    name: { type: 'string', length: 255 },
    number: { type: 'string', length: 64 },
    canonicalNumber: { type: 'string', length: 64 },
    email: { type: 'string', length: 255, default: '' },
    isGroup: { type: 'boolean', default: false },
    validity: { type: 'string', enum: true, items: ['unknown', 'valid', 'invalid', 'error'], columnType: 'varchar(10)', default: 'unknown' },
    validatedAt: { type: 'Date', nullable: true },
    validationError: { type: 'string', length: 500, nullable: true },
    variables: { type: 'json', defaultRaw: `'{}'` },
    createdAt: { type: 'Date' },
    updatedAt: { type: 'Date' },
  },
  uniques: [{ name: 'contact_list_items_list_number_unique', properties: ['contactListId', 'canonicalNumber'] }],
  indexes: [
    { name: 'contact_list_items_company_id_list_name_idx', properties: ['companyId', 'contactListId', 'name'] },
    { name: 'contact_list_items_list_validity_idx', properties: ['contactListId', 'validity'] },
    {
      name: 'contact_list_items_to_check_idx',
      expression: `create index contact_list_items_to_check_idx on contact_list_items (company_id, id) where validity in ('unknown', 'error')`,
    },
  ],
});

const imports = foreignKeysOf('contact_list_imports');

/** As m0014 creates `contact_list_imports`, with m0016's `errors`. */
export const ContactListImportSchema = new EntitySchema<ContactListImport>({
  name: 'ContactListImport',
  tableName: 'contact_list_imports',
  properties: {
    id: { type: 'number', primary: true, autoincrement: true },
    companyId: imports('company_id', 'Company', 'cascade'),
    contactListId: imports('contact_list_id', 'ContactList', 'cascade'),
    userId: imports('user_id', 'User', 'set null', { nullable: true }),
    status: { type: 'string', enum: true, items: ['pending', 'running', 'done', 'failed'], columnType: 'varchar(10)' },
    fileName: { type: 'string', length: 255 },
    blobKey: { type: 'string', length: 500, nullable: true },
    total: { type: 'number', default: 0 },
    processed: { type: 'number', default: 0 },
    created: { type: 'number', default: 0 },
    duplicates: { type: 'number', default: 0 },
    invalid: { type: 'number', default: 0 },
    error: { type: 'string', length: 500, nullable: true },
    createdAt: { type: 'Date' },
    updatedAt: { type: 'Date' },
    errors: { type: 'json', defaultRaw: `'[]'` },
  },
  indexes: [{ name: 'contact_list_imports_list_idx', properties: ['contactListId', 'id'] }],
});

/** The tables of the contact lists feature. */
export const CONTACT_LIST_SCHEMAS = [ContactListSchema, ContactListItemSchema, ContactListImportSchema];
