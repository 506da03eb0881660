import { expect } from 'chai';
import type { SqlEntityManager } from '@mikro-orm/postgresql';
import { inBackground, installPriorityGate, type GatedClient } from '../src/shared/priority-gate.js';
import { openPgliteDatabase } from './support/databases.js';

/** A pool of one connection that fails loudly if it is asked for a second one. */
function onePool() {
  let busy = false;
  const client: GatedClient = {
    async acquireConnection() {
      if (busy) throw new Error('the connection was handed out twice');
      busy = true;
      return 'the connection';
    },
    async releaseConnection() {
      busy = false;
    },
  };
  return client;
}

/** Lets every queued continuation run. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('Priority gate on a one-connection database', () => {
  it('alternates between requests and background work while both wait: a request waits behind one background unit at most', async () => {
    const client = onePool();
    installPriorityGate(client);
    const order: string[] = [];
    const conn = await inBackground(() => client.acquireConnection());
    const unit = (name: string) => async () => {
      const c = await client.acquireConnection();
      order.push(name);
      await client.releaseConnection(c);
    };
    const waiting = [...[1, 2, 3].map((n) => inBackground(unit(`background ${n}`))), unit('request 1')(), unit('request 2')()];
    await settle();
    expect(order).to.deep.equal([]);
    await client.releaseConnection(conn);
    await Promise.all(waiting);
    expect(order).to.deep.equal(['request 1', 'background 1', 'request 2', 'background 2', 'background 3']);
  });

  it('hands the connection to whoever waits when only one side does', async () => {
    const client = onePool();
    installPriorityGate(client);
    const order: string[] = [];
    const conn = await client.acquireConnection();
    const unit = (name: string) => async () => {
      const c = await client.acquireConnection();
      order.push(name);
      await client.releaseConnection(c);
    };
    const requests = [unit('request 1')(), unit('request 2')()];
    await settle();
    await client.releaseConnection(conn);
    await Promise.all(requests);
    const background = [inBackground(unit('background 1')), inBackground(unit('background 2'))];
    await Promise.all(background);
    expect(order).to.deep.equal(['request 1', 'request 2', 'background 1', 'background 2']);
  });

  it('fails a wait longer than the acquire timeout, as the pool would, and passes the connection on after a failed acquire', async () => {
    const client = onePool();
    installPriorityGate(client, { acquireTimeoutMs: 20 });
    const conn = await client.acquireConnection();
    const error = await client.acquireConnection().then(
      () => null,
      (e: Error) => e,
    );
    expect(error?.message).to.match(/Timeout acquiring the database connection/);
    await client.releaseConnection(conn);
    // The timed-out waiter is gone: the next caller gets the connection at once.
    const again = await client.acquireConnection();
    expect(again).to.equal('the connection');
    await client.releaseConnection(again);

    let failNext = true;
    const flaky: GatedClient = {
      async acquireConnection() {
        if (failNext) {
          failNext = false;
          throw new Error('connect failed');
        }
        return 'ok';
      },
      async releaseConnection() {
        /* nothing held */
      },
    };
    installPriorityGate(flaky);
    expect(
      await flaky.acquireConnection().then(
        () => 'acquired',
        (e: Error) => e.message,
      ),
    ).to.equal('connect failed');
    expect(await flaky.acquireConnection()).to.equal('ok');
  });

  it('on PGlite, a request statement queued behind background statements runs first once a background transaction lets go', async () => {
    const db = await openPgliteDatabase();
    try {
      const order: string[] = [];
      let open!: () => void;
      const held = new Promise<void>((resolve) => {
        open = resolve;
      });
      // A background transaction holds the one connection until the test lets it go.
      let began!: () => void;
      const begun = new Promise<void>((resolve) => {
        began = resolve;
      });
      const fork = () => db.orm.em.fork() as unknown as SqlEntityManager;
      const tx = inBackground(() =>
        fork().transactional(async (em) => {
          await em.execute('select 1');
          began();
          await held;
        }),
      );
      await begun;
      const statement = (name: string) => async () => {
        await fork().execute(`select '${name}' as name`);
        order.push(name);
      };
      const queued = [inBackground(statement('background 1')), inBackground(statement('background 2')), statement('request')()];
      await settle();
      open();
      await Promise.all([tx, ...queued]);
      expect(order[0]).to.equal('request');
      expect(order).to.have.members(['request', 'background 1', 'background 2']);
    } finally {
      await db.close();
    }
  });
});
