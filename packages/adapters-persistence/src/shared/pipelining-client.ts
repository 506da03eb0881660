import { currentWriteBuffer, recordWriteFailure, type WriteBuffer } from './deferred-writes.js';

/** The part of `pg`'s Client this wraps: the callback form knex uses, and the rest passed through. */
interface PgClient {
  query(config: unknown, values?: unknown, callback?: unknown): unknown;
}
type PgClientClass = new (...args: never[]) => PgClient;
type Callback = (err: Error | null, result?: unknown) => void;
interface QueryConfig {
  text: string;
  values?: unknown[];
}

const BEGIN = /^BEGIN( TRANSACTION [A-Z ]+)?;?$/i;
const COMMIT = /^COMMIT;?$/i;
const END = /^(COMMIT|ROLLBACK);?$/i;

/** What a statement the server never saw answers (knex reads no more than the command). */
const nothing = (command: string) => ({ command, rowCount: null, rows: [], fields: [] });

/**
 * A `pg` Client that saves a transaction two round trips, without changing what runs or in what
 * order:
 * - `BEGIN` is held and goes with the transaction's first statement as one simple query (a
 *   transaction that sends nothing sends neither its `BEGIN` nor its end);
 * - `COMMIT` takes along the transaction's deferred writes still waiting (DeferredWrites), when
 *   this is the connection the transaction committing in this async context runs on.
 * Only literal statements (no bound values: MikroORM sends every statement so) can be joined; any
 * other query first sends the held `BEGIN` on its own. When joined writes fail, the transaction
 * they broke is rolled back on this connection before the error is answered, so the connection
 * goes back to the pool clean, and the error the failing write's repository promised is recorded.
 */
export function pipeliningClient<C extends PgClientClass>(Base: C): C {
  class PipeliningClient extends (Base as PgClientClass) {
    private heldBegin: string | null = null;

    override query(config: unknown, values?: unknown, callback?: unknown): unknown {
      const literal = typeof (config as QueryConfig | null)?.text === 'string' && typeof values === 'function' && !(config as QueryConfig).values?.length;
      if (!literal) {
        this.sendHeldBegin();
        return super.query(config, values, callback);
      }
      const q = config as QueryConfig;
      const done = values as Callback;
      const text = q.text.trim();
      if (BEGIN.test(text) && this.heldBegin === null) {
        this.heldBegin = text.replace(/;$/, '');
        process.nextTick(done, null, nothing('BEGIN'));
        return undefined;
      }
      // Captured here: the driver's callback runs outside this async context.
      const buffer = currentWriteBuffer();
      const carried = COMMIT.test(text) ? this.writesForCommit(buffer) : [];
      if (this.heldBegin !== null && END.test(text) && !carried.length) {
        // Nothing was sent since BEGIN: there is no transaction on the server to end.
        this.heldBegin = null;
        process.nextTick(done, null, nothing(text.replace(';', '').toUpperCase()));
        return undefined;
      }
      const parts = [...(this.heldBegin ? [this.heldBegin] : []), ...carried.map((w) => w.sql), q.text.replace(/;\s*$/, '')];
      const skip = this.heldBegin ? 1 : 0;
      this.heldBegin = null;
      if (parts.length === 1) return super.query(config, done);
      return super.query({ ...q, text: parts.join(';\n') }, (err: Error | null, result: unknown) => {
        if (err) {
          if (!carried.length) return done(err);
          recordWriteFailure(carried, err, buffer);
          // A write before COMMIT failed: the server skipped the COMMIT and holds an aborted transaction.
          return void super.query({ text: 'ROLLBACK' }, () => done(err));
        }
        if (!Array.isArray(result)) return done(null, result);
        const own = result.slice(skip);
        // The statement's own answer: the last one (a multi-statement text answers all of its own).
        done(null, carried.length ? own[own.length - 1] : own.length === 1 ? own[0] : own);
      });
    }

    /** A BEGIN still held goes now, ahead of a query that cannot carry it (the client keeps the order). */
    private sendHeldBegin(): void {
      if (this.heldBegin === null) return;
      const begin = this.heldBegin;
      this.heldBegin = null;
      // Its failure (a broken connection) fails the query queued after it as well.
      (super.query(begin) as Promise<unknown>).catch(() => undefined);
    }

    /** The deferred writes of the transaction committing in this async context, when it runs on this connection. */
    private writesForCommit(buffer: WriteBuffer | undefined) {
      if (!buffer || buffer.commitOn !== this || !buffer.writes.length) return [];
      buffer.closed = true;
      return buffer.writes.splice(0);
    }
  }
  return PipeliningClient as unknown as C;
}
