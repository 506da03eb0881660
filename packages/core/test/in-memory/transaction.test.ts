import { SerialTransaction } from '../../src/testing.js';
import { describeTransactionContract } from '../contracts/transaction-contract.js';

describeTransactionContract('SerialTransaction (in memory)', async () => new SerialTransaction());
