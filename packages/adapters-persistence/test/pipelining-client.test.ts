import { expect } from 'chai';
import { pipeliningClient } from '../src/shared/pipelining-client.js';

type Callback = (err: Error | null, result?: unknown) => void;
const result = (command: string, rows: unknown[] = []) => ({ command, rows, rowCount: rows.length, fields: [] });

/** Stands in for `pg`'s Client: records what reaches the "server" and answers each statement of a text. */
class FakeClient {
  sent: string[] = [];
  failOn: RegExp | null = null;
  query(config: unknown, values?: unknown, callback?: unknown): unknown {
    const text = typeof config === 'string' ? config : (config as { text: string }).text;
    this.sent.push(text);
    const done = (typeof values === 'function' ? values : callback) as Callback | undefined;
    const statements = text
      .split(';')
      .map((t) => t.trim())
      .filter(Boolean);
    const failed = this.failOn && statements.some((t) => this.failOn!.test(t));
    const answer = statements.map((t) => result(t.split(/\s/)[0]!.toUpperCase(), t.startsWith('select') ? [{ n: 1 }] : []));
    const out = answer.length === 1 ? answer[0] : answer;
    if (done) {
      process.nextTick(() => (failed ? done(new Error('boom')) : done(null, out)));
      return undefined;
    }
    return failed ? Promise.reject(new Error('boom')) : Promise.resolve(out);
  }
}

const Client = pipeliningClient(FakeClient as unknown as new () => FakeClient);
const ask = (c: FakeClient, text: string, values: unknown[] = []) =>
  new Promise<unknown>((resolve, reject) => {
    c.query({ text, values }, (err: Error | null, res?: unknown) => (err ? reject(err) : resolve(res)));
  });

describe('The pipelining pg client (on a fake connection)', () => {
  it('holds BEGIN for the first statement and answers that statement alone', async () => {
    const c = new Client() as unknown as FakeClient;
    expect(await ask(c, 'BEGIN;')).to.deep.include({ command: 'BEGIN' });
    expect(c.sent).to.deep.equal([]);
    expect(await ask(c, 'select 1')).to.deep.include({ command: 'SELECT', rows: [{ n: 1 }] });
    expect(c.sent).to.deep.equal(['BEGIN;\nselect 1']);
  });

  it('sends nothing for a transaction that ran no statement, and BEGIN on its own ahead of a query with bound values', async () => {
    const c = new Client() as unknown as FakeClient;
    await ask(c, 'BEGIN;');
    await ask(c, 'ROLLBACK');
    await ask(c, 'BEGIN;');
    await ask(c, 'COMMIT;');
    expect(c.sent).to.deep.equal([]);
    await ask(c, 'BEGIN;');
    expect(await ask(c, 'select $1', [1])).to.deep.include({ command: 'SELECT' });
    expect(c.sent).to.deep.equal(['BEGIN', 'select $1']);
  });

  it('answers a multi-statement text with its own results, without the held BEGIN', async () => {
    const c = new Client() as unknown as FakeClient;
    await ask(c, 'BEGIN;');
    const answer = (await ask(c, 'insert into a values (1);\nselect 1')) as Array<{ command: string }>;
    expect(answer.map((r) => r.command)).to.deep.equal(['INSERT', 'SELECT']);
  });

  it('fails a statement that carried BEGIN with its own error, and sends a COMMIT without writes as it is', async () => {
    const c = new Client() as unknown as FakeClient;
    c.failOn = /^update/;
    await ask(c, 'BEGIN;');
    const err = await ask(c, 'update t set x = 1').then(
      () => null,
      (e: Error) => e,
    );
    expect(err?.message).to.equal('boom');
    c.failOn = null;
    await ask(c, 'ROLLBACK');
    await ask(c, 'COMMIT;');
    expect(c.sent).to.deep.equal(['BEGIN;\nupdate t set x = 1', 'ROLLBACK', 'COMMIT;']);
  });
});
