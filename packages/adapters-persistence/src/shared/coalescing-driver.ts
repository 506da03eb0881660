import type { Configuration, ConnectionConfig, Transaction as OrmTransaction } from '@mikro-orm/core';
import { PostgreSqlConnection, PostgreSqlDriver } from '@mikro-orm/postgresql';
import { currentWriteBuffer, type PendingWrite, type WriteSender } from './deferred-writes.js';

type Method = 'all' | 'get' | 'run';
type RunResult = { affectedRows: number; insertId: unknown; row?: Record<string, unknown>; rows?: Array<Record<string, unknown>> };

/**
 * The PostgreSQL connection that sends a transaction's deferred writes together with its next
 * statement (see DeferredWrites). The statement's own answer is the last of the results.
 */
export class CoalescingConnection extends PostgreSqlConnection implements WriteSender {
  readonly coalesces = true;

  override async execute<T = unknown>(queryOrKnex: unknown, params: unknown[] = [], method: Method = 'all', ctx?: OrmTransaction, loggerContext?: object): Promise<T> {
    const buffer = currentWriteBuffer();
    if (!buffer?.writes.length) return super.execute(queryOrKnex as string, params, method, ctx, loggerContext as never) as Promise<T>;
    const writes = buffer.writes.splice(0);
    // Another connection or no transaction (a fork inside the unit of work): the writes go first on their own.
    if (!ctx || typeof queryOrKnex !== 'string' || ctx !== buffer.ctx) {
      await this.sendWrites(writes, buffer.ctx);
      return super.execute(queryOrKnex as string, params, method, ctx, loggerContext as never) as Promise<T>;
    }
    const statement = this.getPlatform().formatQuery(queryOrKnex, params);
    const results = await this.guarded(writes, () => super.execute([...writes.map((w) => w.sql), statement].join(';\n'), [], 'run', ctx, loggerContext as never) as Promise<RunResult[] | RunResult>);
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

  /** Runs `send`; when it fails, the first write that names the failure records its own error for the transaction (see WriteBuffer.failure). */
  private async guarded<R>(writes: readonly PendingWrite[], send: () => Promise<R>): Promise<R> {
    try {
      return await send();
    } catch (err) {
      const buffer = currentWriteBuffer() ?? currentWriteBuffer(true);
      for (const w of writes) {
        const mapped = w.mapError?.(err);
        if (mapped) {
          if (buffer) buffer.failure ??= mapped;
          break;
        }
      }
      throw err;
    }
  }
}

/** PostgreSqlDriver whose connections coalesce deferred writes. */
export class CoalescingPostgreSqlDriver extends PostgreSqlDriver {
  constructor(config: Configuration) {
    super(config);
    const self = this as unknown as { connection: CoalescingConnection; replicas: CoalescingConnection[]; createReplicas(make: (conf: ConnectionConfig) => CoalescingConnection): CoalescingConnection[] };
    self.connection = new CoalescingConnection(config);
    self.replicas = self.createReplicas((conf) => new CoalescingConnection(config, conf, 'read'));
  }
}
