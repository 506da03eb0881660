import { describeIdempotencyKeysContract } from '../contracts/idempotency-keys-contract.js';
import { InMemoryIdempotencyKeys, SerialTransaction } from '../../src/testing.js';

describeIdempotencyKeysContract('in-memory', async () => ({ idempotencyKeys: new InMemoryIdempotencyKeys(), tx: new SerialTransaction() }));
