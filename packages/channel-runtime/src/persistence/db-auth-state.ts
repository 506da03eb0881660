import type { MikroORM } from '@mikro-orm/core';
import type { AuthenticationCreds, AuthenticationState, SignalDataSet, SignalDataTypeMap } from 'baileys';
import type { ConnectionAuthState } from '../connectors/auth-state.js';
import { loadBaileys } from '../connectors/load-baileys.js';

const CREDS = 'creds';
const WRITE_CHUNK = 200;

/**
 * Baileys' authentication state kept in `channel.auth_state`, one row per piece of one
 * connection: `creds`, and each signal key as `<type>-<id>`, the same names and the same
 * BufferJSON serialization as Baileys' `useMultiFileAuthState` uses for its files. Every
 * operation of one connection runs in call order (as the per-file locks do there), so a read
 * sees every earlier write and two writes of one key land in the order they were made.
 * Baileys' helpers are loaded on first use: the start-up imports this module, not Baileys.
 */
export class DbAuthState implements ConnectionAuthState {
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly db: { orm: MikroORM },
    readonly connectionId: number,
  ) {}

  async load(): Promise<{ state: AuthenticationState; saveCreds: () => Promise<void> }> {
    const { initAuthCreds, proto } = await loadBaileys();
    const stored = (await this.read([CREDS])).get(CREDS) as AuthenticationCreds | undefined;
    const creds = stored ?? initAuthCreds();
    const state: AuthenticationState = {
      creds,
      keys: {
        get: async <T extends keyof SignalDataTypeMap>(type: T, ids: string[]) => {
          const found = await this.read(ids.map((id) => `${type}-${id}`));
          const data: { [id: string]: SignalDataTypeMap[T] } = {};
          for (const id of ids) {
            let value = found.get(`${type}-${id}`) ?? null;
            if (type === 'app-state-sync-key' && value) value = proto.Message.AppStateSyncKeyData.fromObject(value as object);
            // Like useMultiFileAuthState: a missing key answers null under its id.
            data[id] = value as SignalDataTypeMap[T];
          }
          return data;
        },
        set: async (data: SignalDataSet) => {
          const upserts: Array<[string, unknown]> = [];
          const deletes: string[] = [];
          for (const [category, entries] of Object.entries(data)) {
            for (const [id, value] of Object.entries(entries ?? {})) {
              if (value) upserts.push([`${category}-${id}`, value]);
              else deletes.push(`${category}-${id}`);
            }
          }
          await this.write(upserts, deletes);
        },
        clear: () => this.clearKeys(),
      },
    };
    return { state, saveCreds: () => this.write([[CREDS, state.creds]], []) };
  }

  clear(): Promise<void> {
    return this.serial(async () => {
      await this.conn().execute('delete from channel.auth_state where connection_id = ?', [this.connectionId], 'run');
    });
  }

  private clearKeys(): Promise<void> {
    return this.serial(async () => {
      await this.conn().execute('delete from channel.auth_state where connection_id = ? and key <> ?', [this.connectionId, CREDS], 'run');
    });
  }

  private conn() {
    return this.db.orm.em.getConnection();
  }

  private serial<T>(op: () => Promise<T>): Promise<T> {
    const run = this.queue.then(op, op);
    this.queue = run.catch(() => undefined);
    return run;
  }

  private read(keys: string[]): Promise<Map<string, unknown>> {
    return this.serial(async () => {
      const found = new Map<string, unknown>();
      if (!keys.length) return found;
      const { BufferJSON } = await loadBaileys();
      const rows: Array<{ key: string; value: string }> = await this.conn().execute(
        'select key, value::text as value from channel.auth_state where connection_id = ? and key in (?)',
        [this.connectionId, keys],
      );
      for (const row of rows) found.set(row.key, JSON.parse(row.value, BufferJSON.reviver));
      return found;
    });
  }

  private write(upserts: Array<[string, unknown]>, deletes: string[]): Promise<void> {
    return this.serial(async () => {
      const { BufferJSON } = await loadBaileys();
      const conn = this.conn();
      for (let i = 0; i < upserts.length; i += WRITE_CHUNK) {
        const chunk = upserts.slice(i, i + WRITE_CHUNK);
        await conn.execute(
          `insert into channel.auth_state (connection_id, key, value, updated_at) values ${chunk.map(() => '(?, ?, ?::jsonb, now())').join(', ')}
           on conflict (connection_id, key) do update set value = excluded.value, updated_at = excluded.updated_at`,
          chunk.flatMap(([key, value]) => [this.connectionId, key, JSON.stringify(value, BufferJSON.replacer)]),
          'run',
        );
      }
      if (deletes.length) {
        await conn.execute('delete from channel.auth_state where connection_id = ? and key in (?)', [this.connectionId, deletes], 'run');
      }
    });
  }
}

/**
 * The auth state of each connection, stored in the channel database: one instance per
 * connection, so that all of a connection's reads and writes share one queue.
 */
export function databaseAuthStore(db: { orm: MikroORM }): (connectionId: number) => DbAuthState {
  const states = new Map<number, DbAuthState>();
  return (connectionId) => {
    let state = states.get(connectionId);
    if (!state) states.set(connectionId, (state = new DbAuthState(db, connectionId)));
    return state;
  };
}
