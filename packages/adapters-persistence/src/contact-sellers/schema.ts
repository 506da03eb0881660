import { EntitySchema } from '@mikro-orm/core';
import type { WalletAssignment } from '@servicedesk/core/contacts/wallet';
import { foreignKeysOf } from '../shared/columns.js';

const assignments = foreignKeysOf('contact_wallet_assignments');

/** As m0030 creates `contact_wallet_assignments` (user ids without foreign keys: the history outlives a deleted user). */
export const WalletAssignmentSchema = new EntitySchema<WalletAssignment>({
  name: 'WalletAssignment',
  tableName: 'contact_wallet_assignments',
  properties: {
    id: { type: 'number', primary: true, autoincrement: true },
    companyId: assignments('company_id', 'Company', 'cascade'),
    contactId: assignments('contact_id', 'Contact', 'cascade'),
    userId: { type: 'number', nullable: true },
    previousUserId: { type: 'number', nullable: true },
    assignedBy: { type: 'number' },
    assignedAt: { type: 'Date' },
  },
  indexes: [{ name: 'contact_wallet_assignments_contact_idx', properties: ['contactId', 'assignedAt', 'id'] }],
});

/** The tables of the contact sellers feature (created by m0030, with the company templates'). */
export const CONTACT_SELLER_SCHEMAS = [WalletAssignmentSchema];
