import { EntitySchema } from '@mikro-orm/core';
import type { Help, Invoice, Partner } from '@servicedesk/core';
import { DayType } from './day-type.js';

export const HelpSchema = new EntitySchema<Help>({
  name: 'Help',
  tableName: 'helps',
  properties: {
    id: { type: 'number', primary: true, autoincrement: true },
    title: { type: 'string' },
    description: { type: 'text' },
    video: { type: 'string', nullable: true },
    link: { type: 'string', nullable: true },
    createdAt: { type: 'Date' },
    updatedAt: { type: 'Date' },
  },
});

export const PartnerSchema = new EntitySchema<Partner>({
  name: 'Partner',
  tableName: 'partners',
  properties: {
    id: { type: 'number', primary: true, autoincrement: true },
    name: { type: 'string' },
    email: { type: 'string', nullable: true },
    phone: { type: 'string', nullable: true },
    document: { type: 'string', nullable: true },
    commission: { type: 'decimal', columnType: 'numeric(12,2)' },
    typeCommission: { type: 'string' },
    walletId: { type: 'string', nullable: true },
    createdAt: { type: 'Date' },
    updatedAt: { type: 'Date' },
  },
});

export const InvoiceSchema = new EntitySchema<Invoice>({
  name: 'Invoice',
  tableName: 'invoices',
  properties: {
    id: { type: 'number', primary: true, autoincrement: true },
    companyId: { type: 'number' },
    detail: { type: 'string' },
    status: { type: 'string' },
    value: { type: 'decimal', columnType: 'numeric(12,2)' },
    dueDate: { type: DayType },
    paidAt: { type: 'Date', nullable: true },
    createdAt: { type: 'Date' },
    updatedAt: { type: 'Date' },
  },
});
