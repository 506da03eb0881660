import { describeIdempotencyKeysContract } from '@servicedesk/core/contracts/idempotency-keys-contract';
import { BACKEND_MIGRATIONS, BACKEND_SCHEMAS, PERSISTENCE_FEATURES, MikroOrmIdempotencyKeys, MikroOrmTransaction, type Database } from '../../src/index.js';
import { describeOnEachDatabase } from '../support/databases.js';
import { describeFeatureDrift } from '../support/feature-drift.js';

/** The backend's tables and the messaging feature's (`idempotency_keys`, `outbox_handling`). */
const OPTIONS = {
  entities: [...BACKEND_SCHEMAS, ...PERSISTENCE_FEATURES.messaging.entities],
  migrations: [...BACKEND_MIGRATIONS, ...PERSISTENCE_FEATURES.messaging.migrations],
};

function fixtureOn(db: Database) {
  return { idempotencyKeys: new MikroOrmIdempotencyKeys(db.orm), tx: new MikroOrmTransaction(db.orm), rollsBack: true };
}

describeOnEachDatabase(fixtureOn, describeIdempotencyKeysContract, OPTIONS);
describeFeatureDrift('messaging', OPTIONS, ['idempotency_keys', 'outbox_handling']);
