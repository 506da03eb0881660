import type { Configuration, ConnectionConfig, Transaction as OrmTransaction } from '@mikro-orm/core';
import { PostgreSqlConnection, PostgreSqlDriver } from '@mikro-orm/postgresql';
import type { Knex } from '@mikro-orm/knex';
import { currentWriteBuffer, recordWriteFailure, type PendingWrite, type WriteSender } from './deferred-writes.js';
import { pipeliningClient } from './pipelining-client.js';

type Method = 'all' | 'get' | 'run';
type RunResult = { affectedRows: number; insertId: unknown; row?: Record<string, unknown>; rows?: Array<Record<string, unknown>> };

/**
 * The PostgreSQL connection that sends a transaction's deferred writes together with its next
 * statement (see DeferredWrites). The statement's own answer is the last of the results.
 */
export class CoalescingConnection extends PostgreSqlConnection implements WriteSender {
  readonly coalesces = true;

  override async execute<T = unknown>(
    queryOrKnex: unknown,
    params: unknown[] = [],
    method: Method = 'all',
    ctx?: OrmTransaction,
    loggerContext?: object,
  ): Promise<T> {
    const buffer = currentWriteBuffer();
    if (!buffer?.writes.length) return super.execute(queryOrKnex as string, params, method, ctx, loggerContext as never) as Promise<T>;
    const writes = buffer.writes.splice(0);
    // Another connection or no transaction (a fork inside the unit of work): the writes go first on their own.
    if (!ctx || typeof queryOrKnex !== 'string' || ctx !== buffer.ctx) {
      await this.sendWrites(writes, buffer.ctx);
      return super.execute(queryOrKnex as string, params, method, ctx, loggerContext as never) as Promise<T>;
    }
    const statement = this.getPlatform().formatQuery(queryOrKnex, params);
    const results = await this.guarded(
      writes,
      () => super.execute([...writes.map((w) => w.sql), statement].join(';\n'), [], 'run', ctx, loggerContext as never) as Promise<RunResult[] | RunResult>,
    );
    const last = (Array.isArray(results) ? results[results.length - 1] : results) as RunResult;
    if (method === 'all') return (last.rows ?? []) as T;
    if (method === 'get') return last.row as T;
    return last as T;
  }

  /** The writes alone, as one multi-statement query in their transaction. */
  async sendWrites(writes: readonly PendingWrite[], ctx: OrmTransaction | null): Promise<void> {
    if (!writes.length) return;
    await this.guarded(writes, () => super.execute(writes.map((w) => w.sql).join(';\n'), [], 'run', ctx ?? undefined));
  }

  async connectionOf(ctx: OrmTransaction): Promise<unknown> {
    return (ctx as unknown as Knex.Transaction).client.acquireConnection();
  }

  /** Knex builds its connections from `pg`'s Client: from ours, which joins BEGIN and COMMIT to their neighbours. */
  override createKnex(): void {
    super.createKnex();
    const client = (this.getKnex() as Knex).client as { driver: { Client: new (...args: never[]) => never } };
    client.driver = Object.create(client.driver, { Client: { value: pipeliningClient(client.driver.Client) } });
  }

  /** Runs `send`; when it fails, the first write that names the failure records its own error for the transaction. */
  private async guarded<R>(writes: readonly PendingWrite[], send: () => Promise<R>): Promise<R> {
    try {
      return await send();
    } catch (err) {
      recordWriteFailure(writes, err);
      throw err;
    }
  }
}

/** PostgreSqlDriver whose connections coalesce deferred writes. */
export class CoalescingPostgreSqlDriver extends PostgreSqlDriver {
  constructor(config: Configuration) {
    super(config);
    const self = this as unknown as {
      connection: CoalescingConnection;
      replicas: CoalescingConnection[];
      createReplicas(make: (conf: ConnectionConfig) => CoalescingConnection): CoalescingConnection[];
    };
    self.connection = new CoalescingConnection(config);
    self.replicas = self.createReplicas((conf) => new CoalescingConnection(config, conf, 'read'));
  }
}
