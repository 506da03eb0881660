import { EntitySchema } from '@mikro-orm/core';
import type { Company, Plan } from '@servicedesk/core';
import { DayType } from './day-type.js';

export const PlanSchema = new EntitySchema<Plan>({
  name: 'Plan',
  tableName: 'plans',
  properties: {
    id: { type: 'number', primary: true, autoincrement: true },
    name: { type: 'string', unique: true },
    users: { type: 'number' },
    connections: { type: 'number' },
    queues: { type: 'number' },
    amount: { type: 'decimal', columnType: 'numeric(12,2)' },
    recurrence: { type: 'string' },
    trial: { type: 'boolean' },
    trialDays: { type: 'number' },
    isPublic: { type: 'boolean' },
    features: { type: 'json' },
    createdAt: { type: 'Date' },
    updatedAt: { type: 'Date' },
  },
});

export const CompanySchema = new EntitySchema<Company>({
  name: 'Company',
  tableName: 'companies',
  properties: {
    id: { type: 'number', primary: true, autoincrement: true },
    name: { type: 'string' },
    email: { type: 'string', nullable: true },
    phone: { type: 'string', nullable: true },
    document: { type: 'string', nullable: true },
    status: { type: 'boolean' },
    planId: { type: 'number' },
    dueDate: { type: DayType, nullable: true },
    recurrence: { type: 'string' },
    paymentMethod: { type: 'string', nullable: true },
    schedules: { type: 'json' },
    createdAt: { type: 'Date' },
    updatedAt: { type: 'Date' },
  },
});
