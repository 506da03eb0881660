import { EntitySchema } from '@mikro-orm/core';
import type { IdempotencyRecord } from '@servicedesk/core';

/** As m0012 creates `idempotency_keys`. */
export const IdempotencyKeySchema = new EntitySchema<IdempotencyRecord>({
  name: 'IdempotencyKey',
  tableName: 'idempotency_keys',
  properties: {
    connectionId: { type: 'number', primary: true },
    key: { type: 'string', length: 200, primary: true },
    companyId: { type: 'number' },
    fingerprint: { type: 'string', length: 64 },
    answer: { type: 'json' },
    createdAt: { type: 'Date', index: 'idempotency_keys_created_at_idx' },
  },
});

/** As m0012 creates `outbox_handling`: entries of the in-process broker not yet handled. */
export const OutboxHandlingSchema = new EntitySchema<{ outboxId: string; publishedAt: Date }>({
  name: 'OutboxHandling',
  tableName: 'outbox_handling',
  properties: {
    outboxId: { type: 'uuid', primary: true },
    publishedAt: { type: 'Date' },
  },
});
