import { expect } from 'chai';
import type { Transaction } from '../../src/index.js';

/**
 * The after-commit behaviour every Transaction adapter shares: follow-up work (relaying the
 * outbox) starts only once what it follows is committed, and never after a rollback.
 */
export function describeTransactionContract(name: string, make: () => Promise<Transaction>) {
  describe(`Transaction contract: ${name}`, () => {
    let tx: Transaction;
    beforeEach(async () => {
      tx = await make();
    });

    it('runs an after-commit callback once the transaction commits, not before', async () => {
      const seen: string[] = [];
      const result = await tx.run(async () => {
        tx.afterCommit(() => seen.push('callback'));
        seen.push('work done');
        return 42;
      });
      seen.push('run returned');
      expect(result).to.equal(42);
      expect(seen).to.deep.equal(['work done', 'callback', 'run returned']);
    });

    it('never runs it when the transaction rolls back', async () => {
      const seen: string[] = [];
      const failed = await tx
        .run(async () => {
          tx.afterCommit(() => seen.push('callback'));
          throw new Error('boom');
        })
        .catch((err: Error) => err.message);
      expect(failed).to.equal('boom');
      // A later commit proves the discarded callback is not left waiting for the next transaction.
      await tx.run(async () => {
        tx.afterCommit(() => seen.push('next'));
      });
      expect(seen).to.deep.equal(['next']);
    });

    it('makes a callback registered in a nested transaction wait for the outermost commit', async () => {
      const seen: string[] = [];
      await tx.run(async () => {
        await tx.run(async () => {
          tx.afterCommit(() => seen.push('inner callback'));
        });
        seen.push('inner returned');
      });
      expect(seen).to.deep.equal(['inner returned', 'inner callback']);
    });

    it('runs a callback at once outside a transaction, and one given twice in a transaction once', async () => {
      const seen: string[] = [];
      tx.afterCommit(() => seen.push('now'));
      expect(seen).to.deep.equal(['now']);
      const twice = () => seen.push('twice');
      await tx.run(async () => {
        tx.afterCommit(twice);
        tx.afterCommit(twice);
      });
      expect(seen).to.deep.equal(['now', 'twice']);
    });
  });
}
