import { describeTransactionContract } from '@servicedesk/core/contracts/transaction-contract';
import { MikroOrmTransaction } from '../src/index.js';
import { describeOnEachDatabase } from './support/databases.js';

describeOnEachDatabase((db) => new MikroOrmTransaction(db.orm), describeTransactionContract);
