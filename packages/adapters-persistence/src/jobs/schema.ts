import { EntitySchema } from '@mikro-orm/core';

/** A row of `jobs`, as stored (the store itself reads and writes it with SQL: claims need SKIP LOCKED). */
export interface JobRow {
  id: string;
  name: string;
  key: string | null;
  payload: unknown;
  everyMs: string | null;
  state: 'pending' | 'failed';
  runAt: Date;
  attempts: number;
  claims: number;
  lockedBy: string | null;
  lockedUntil: Date | null;
  lastError: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export const JobSchema = new EntitySchema<JobRow>({
  name: 'Job',
  tableName: 'jobs',
  properties: {
    id: { type: 'bigint', primary: true, autoincrement: true, generated: 'identity' },
    name: { type: 'string', length: 200 },
    key: { type: 'string', length: 200, nullable: true },
    payload: { type: 'json', defaultRaw: "'null'" },
    everyMs: { type: 'bigint', nullable: true },
    state: { enum: true, items: ['pending', 'failed'], columnType: 'varchar(10)', default: 'pending' },
    runAt: { type: 'Date' },
    attempts: { type: 'number', default: 0 },
    claims: { type: 'number', default: 0 },
    lockedBy: { type: 'string', length: 200, nullable: true },
    lockedUntil: { type: 'Date', nullable: true },
    lastError: { type: 'text', nullable: true },
    createdAt: { type: 'Date', defaultRaw: 'clock_timestamp()' },
    updatedAt: { type: 'Date', defaultRaw: 'clock_timestamp()' },
  },
  checks: [
    { name: 'jobs_every_ms_check', property: 'everyMs', expression: 'every_ms > 0' },
    { name: 'jobs_check', expression: 'every_ms is null or key is null' },
  ],
  indexes: [{ name: 'jobs_due_idx', expression: "create index jobs_due_idx on jobs (run_at, id) where state = 'pending'" }],
  uniques: [
    { name: 'jobs_recurring_name_idx', expression: 'create unique index jobs_recurring_name_idx on jobs (name) where every_ms is not null' },
    { name: 'jobs_pending_key_idx', expression: "create unique index jobs_pending_key_idx on jobs (name, key) where state = 'pending' and key is not null" },
  ],
});
