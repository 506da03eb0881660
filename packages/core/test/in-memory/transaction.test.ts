import { SerialTransaction } from '../../src/index.js';
import { describeTransactionContract } from '../contracts/transaction-contract.js';

describeTransactionContract('SerialTransaction (in memory)', async () => new SerialTransaction());
