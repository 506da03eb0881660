import { EntitySchema } from '@mikro-orm/core';
import type { Company, Plan } from '@servicedesk/core';
import { foreignKeysOf } from '../shared/columns.js';
import { DayType } from '../shared/day-type.js';

/** As m0001 creates `plans`. */
export const PlanSchema = new EntitySchema<Plan>({
  name: 'Plan',
  tableName: 'plans',
  properties: {
    id: { type: 'number', primary: true, autoincrement: true },
    name: { type: 'string', length: 80, unique: 'plans_name_key' },
    users: { type: 'number' },
    connections: { type: 'number' },
    queues: { type: 'number' },
    amount: { type: 'decimal', columnType: 'numeric(12,2)', default: 0 },
    recurrence: { type: 'string', length: 20, default: 'MENSAL' },
    trial: { type: 'boolean', default: false },
    trialDays: { type: 'number', default: 0 },
    isPublic: { type: 'boolean', default: true },
    features: { type: 'json', defaultRaw: `'{}'` },
    createdAt: { type: 'Date' },
    updatedAt: { type: 'Date' },
  },
});

const companies = foreignKeysOf('companies');

/** As m0001 creates `companies`. */
export const CompanySchema = new EntitySchema<Company>({
  name: 'Company',
  tableName: 'companies',
  properties: {
    id: { type: 'number', primary: true, autoincrement: true },
    name: { type: 'string', length: 120 },
    email: { type: 'string', length: 254, nullable: true },
    phone: { type: 'string', length: 40, nullable: true },
    document: { type: 'string', length: 20, nullable: true },
    status: { type: 'boolean', default: true },
    planId: companies('plan_id', 'Plan', 'no action'),
    dueDate: { type: DayType, nullable: true },
    recurrence: { type: 'string', length: 20, default: 'MENSAL' },
    paymentMethod: { type: 'string', length: 40, nullable: true },
    schedules: { type: 'json', defaultRaw: `'[]'` },
    createdAt: { type: 'Date' },
    updatedAt: { type: 'Date' },
  },
  indexes: [
    { name: 'companies_plan_id_idx', properties: ['planId'] },
    { name: 'companies_email_idx', properties: ['email'] },
  ],
});
