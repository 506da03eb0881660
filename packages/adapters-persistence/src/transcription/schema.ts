import { EntitySchema } from '@mikro-orm/core';
import { TRANSCRIPTION_PROVIDERS, type TranscriptionCredential } from '@servicedesk/core/transcription/credential';
import { TRANSCRIPTION_JOB_STATUSES, type TranscriptionJob } from '@servicedesk/core/transcription/transcription-job';
import { foreignKeysOf } from '../shared/columns.js';

const credentials = foreignKeysOf('transcription_credentials');

/** As m0021 creates `transcription_credentials`. */
export const TranscriptionCredentialSchema = new EntitySchema<TranscriptionCredential>({
  name: 'TranscriptionCredential',
  tableName: 'transcription_credentials',
  properties: {
    id: { type: 'number', primary: true, autoincrement: true },
    companyId: credentials('company_id', 'Company', 'cascade'),
    name: { type: 'string', length: 100 },
    provider: { type: 'string', enum: true, items: [...TRANSCRIPTION_PROVIDERS], columnType: 'varchar(20)' },
    baseUrl: { type: 'string', length: 500 },
    model: { type: 'string', length: 100 },
    language: { type: 'string', length: 2, nullable: true },
    apiKeySealed: { type: 'text', nullable: true },
    apiKeyHint: { type: 'string', length: 4, nullable: true },
    isDefault: { type: 'boolean', default: false },
    createdAt: { type: 'Date' },
    updatedAt: { type: 'Date' },
  },
  uniques: [
    {
      name: 'transcription_credentials_name_key',
      expression: 'create unique index transcription_credentials_name_key on transcription_credentials (company_id, lower(name))',
    },
    {
      name: 'transcription_credentials_default_key',
      expression: 'create unique index transcription_credentials_default_key on transcription_credentials (company_id) where is_default',
    },
  ],
});

const jobs = foreignKeysOf('transcription_jobs');

/** As m0021 creates `transcription_jobs`. */
export const TranscriptionJobSchema = new EntitySchema<TranscriptionJob>({
  name: 'TranscriptionJob',
  tableName: 'transcription_jobs',
  properties: {
    id: { type: 'uuid', primary: true },
    companyId: jobs('company_id', 'Company', 'cascade'),
    ticketId: jobs('ticket_id', 'Ticket', 'cascade'),
    userId: jobs('user_id', 'User', 'set null', { nullable: true }),
    credentialId: jobs('credential_id', 'TranscriptionCredential', 'set null', { nullable: true }),
    language: { type: 'string', length: 2, nullable: true },
    status: { type: 'string', enum: true, items: [...TRANSCRIPTION_JOB_STATUSES], columnType: 'varchar(10)' },
    items: { type: 'json', defaultRaw: `'[]'` },
    error: { type: 'string', length: 100, nullable: true },
    createdAt: { type: 'Date' },
    updatedAt: { type: 'Date' },
    finishedAt: { type: 'Date', nullable: true },
  },
  indexes: [
    {
      name: 'transcription_jobs_active_idx',
      expression: `create index transcription_jobs_active_idx on transcription_jobs (company_id, ticket_id) where status in ('queued', 'running')`,
    },
    {
      name: 'transcription_jobs_finished_at_idx',
      expression: 'create index transcription_jobs_finished_at_idx on transcription_jobs (finished_at) where finished_at is not null',
    },
    { name: 'transcription_jobs_ticket_id_idx', properties: ['ticketId'] },
    { name: 'transcription_jobs_credential_id_idx', properties: ['credentialId'] },
  ],
});

export const TRANSCRIPTION_SCHEMAS = [TranscriptionCredentialSchema, TranscriptionJobSchema];
