import { expect } from 'chai';
import type { Transaction } from '../../src/index.js';

/**
 * The after-commit behaviour every Transaction adapter shares: follow-up work (relaying the
 * outbox) starts only once what it follows is committed, never after a rollback, and runs in a
 * unit of work of its own.
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

    it('runs work apart from an after-commit callback: its own transaction commits with its own callbacks, and its answer or error comes back', async () => {
      const seen: string[] = [];
      let apart: Promise<number> | undefined;
      await tx.run(async () => {
        tx.afterCommit(() => {
          apart = tx.runApart(() =>
            tx.run(async () => {
              tx.afterCommit(() => seen.push('apart committed'));
              seen.push('apart work');
              return 7;
            }),
          );
        });
      });
      expect(await apart).to.equal(7);
      expect(seen).to.deep.equal(['apart work', 'apart committed']);
      const failed = await tx.runApart(() => Promise.reject(new Error('apart failed'))).catch((err: Error) => err.message);
      expect(failed).to.equal('apart failed');
    });
  });
}
