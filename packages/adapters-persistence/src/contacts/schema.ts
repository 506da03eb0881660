import { EntitySchema } from '@mikro-orm/core';
import type { ContactIdentifier } from '@servicedesk/core';
import { foreignKeysOf } from '../shared/columns.js';

/** A row of `contact_identifiers`: which contact of the company a phone number, LID or page-scoped id reaches. */
export interface ContactIdentifierRow extends ContactIdentifier {
  id: number;
  companyId: number;
  contactId: number;
  createdAt: Date;
}

const contactIdentifiers = foreignKeysOf('contact_identifiers');

/** As m0005 creates `contact_identifiers`. */
export const ContactIdentifierSchema = new EntitySchema<ContactIdentifierRow>({
  name: 'ContactIdentifier',
  tableName: 'contact_identifiers',
  properties: {
    id: { type: 'number', primary: true, autoincrement: true },
    companyId: contactIdentifiers('company_id', 'Company', 'cascade'),
    contactId: contactIdentifiers('contact_id', 'Contact', 'cascade'),
    kind: { type: 'string', enum: true, items: ['phone', 'lid', 'psid'], columnType: 'varchar(10)' },
    value: { type: 'string', length: 100 },
    pageId: { type: 'string', length: 200, nullable: true },
    createdAt: { type: 'Date' },
  },
  uniques: [{ name: 'contact_identifiers_unique', properties: ['companyId', 'kind', 'value'] }],
  indexes: [
    { name: 'contact_identifiers_contact_id_idx', properties: ['contactId'] },
    { name: 'contact_identifiers_company_id_value_idx', properties: ['companyId', 'value'] },
  ],
});
