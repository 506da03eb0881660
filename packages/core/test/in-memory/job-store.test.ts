import { AsyncLocalStorage } from 'node:async_hooks';
import { describeJobStoreContract } from '../contracts/job-store-contract.js';
import { SystemClock, type Transaction } from '../../src/index.js';
import { InMemoryJobStore } from '../../src/testing.js';

/**
 * A transaction for the suite's effects: what a job records is kept only when its transaction
 * succeeds, as a database would. (SerialTransaction cannot roll back, and it would queue every
 * job behind one that never ends.) The in-memory store itself writes at once; its `complete` is
 * the last step of a job's transaction, so a refused completion has changed nothing.
 */
class JournaledTransaction implements Transaction {
  private readonly journal = new AsyncLocalStorage<string[]>();
  readonly committed: string[] = [];

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.journal.getStore()) return work();
    const pending: string[] = [];
    const result = await this.journal.run(pending, work);
    this.committed.push(...pending);
    return result;
  }

  afterCommit(callback: () => void): void {
    if (this.journal.getStore()) throw new Error('not used by the job store contract');
    callback();
  }

  runApart<T>(work: () => Promise<T>): Promise<T> {
    return this.journal.exit(work);
  }

  record(value: string) {
    (this.journal.getStore() ?? this.committed).push(value);
  }
}

describeJobStoreContract(
  'in-memory',
  async () => {
    const transaction = new JournaledTransaction();
    return {
      store: new InMemoryJobStore(new SystemClock()),
      transaction,
      scope: (work) => work(),
      recordEffect: async (value) => transaction.record(value),
      effects: async () => [...transaction.committed],
    };
  },
  { concurrentTransactions: true },
);
