import { EntitySchema } from '@mikro-orm/core';
import type { Help, Invoice, Partner } from '@servicedesk/core';
import { foreignKeysOf } from '../shared/columns.js';
import { DayType } from '../shared/day-type.js';

/** As m0002 creates `helps`. */
export const HelpSchema = new EntitySchema<Help>({
  name: 'Help',
  tableName: 'helps',
  properties: {
    id: { type: 'number', primary: true, autoincrement: true },
    title: { type: 'string', length: 200 },
    description: { type: 'text', default: '' },
    video: { type: 'string', length: 500, nullable: true },
    link: { type: 'string', length: 500, nullable: true },
    createdAt: { type: 'Date' },
    updatedAt: { type: 'Date' },
  },
});

/** As m0002 creates `partners`. */
export const PartnerSchema = new EntitySchema<Partner>({
  name: 'Partner',
  tableName: 'partners',
  properties: {
    id: { type: 'number', primary: true, autoincrement: true },
    name: { type: 'string', length: 120 },
    email: { type: 'string', length: 254, nullable: true },
    phone: { type: 'string', length: 40, nullable: true },
    document: { type: 'string', length: 20, nullable: true },
    commission: { type: 'decimal', columnType: 'numeric(12,2)', default: 0 },
    typeCommission: { type: 'string', enum: true, items: ['percent', 'fixed'], columnType: 'varchar(10)', default: 'percent' },
    walletId: { type: 'string', length: 120, nullable: true },
    createdAt: { type: 'Date' },
    updatedAt: { type: 'Date' },
  },
});

const invoices = foreignKeysOf('invoices');

/** As m0002 creates `invoices`. */
export const InvoiceSchema = new EntitySchema<Invoice>({
  name: 'Invoice',
  tableName: 'invoices',
  properties: {
    id: { type: 'number', primary: true, autoincrement: true },
    companyId: invoices('company_id', 'Company', 'cascade'),
    detail: { type: 'string', length: 500 },
    status: { type: 'string', enum: true, items: ['open', 'paid', 'cancelled'], columnType: 'varchar(10)', default: 'open' },
    value: { type: 'decimal', columnType: 'numeric(12,2)' },
    dueDate: { type: DayType },
    paidAt: { type: 'Date', nullable: true },
    createdAt: { type: 'Date' },
    updatedAt: { type: 'Date' },
  },
  indexes: [{ name: 'invoices_company_id_id_idx', properties: ['companyId', 'id'] }],
});
