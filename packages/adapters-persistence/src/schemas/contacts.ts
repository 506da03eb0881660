import { EntitySchema } from '@mikro-orm/core';
import type { ContactIdentifier } from '@servicedesk/core';

/** A row of `contact_identifiers`: which contact of the company a phone number, LID or page-scoped id reaches. */
export interface ContactIdentifierRow extends ContactIdentifier {
  id: number;
  companyId: number;
  contactId: number;
  createdAt: Date;
}

export const ContactIdentifierSchema = new EntitySchema<ContactIdentifierRow>({
  name: 'ContactIdentifier',
  tableName: 'contact_identifiers',
  properties: {
    id: { type: 'number', primary: true, autoincrement: true },
    companyId: { type: 'number' },
    contactId: { type: 'number' },
    kind: { type: 'string' },
    value: { type: 'string' },
    pageId: { type: 'string', nullable: true },
    createdAt: { type: 'Date' },
  },
});
