import type { MikroORM } from '@mikro-orm/core';
import type { SessionControl } from '@servicedesk/core';
import { nextDesired, type DesiredSession, type SessionRegistry } from './session-registry.js';

interface DesiredRow {
  chatapp_id: number;
  company_id: number;
  running: boolean;
  generation: number;
  command: SessionControl | string;
}

const toDesired = (r: DesiredRow): DesiredSession => ({
  chatappId: Number(r.chatapp_id),
  companyId: Number(r.company_id),
  running: r.running,
  generation: Number(r.generation),
  command: typeof r.command === 'string' ? (JSON.parse(r.command) as SessionControl) : r.command,
});

/**
 * The registry in the channel schema, shared by every instance on the database. Leases expire by
 * the database's clock (`now()`), so instances with skewed clocks still agree.
 */
export class DatabaseSessionRegistry implements SessionRegistry {
  constructor(private readonly db: { orm: MikroORM }) {}

  private get conn() {
    return this.db.orm.em.getConnection();
  }

  /** Read, decide and write under a row lock: two instances recording at once cannot both bump. */
  async record(cmd: SessionControl) {
    return this.db.orm.em.fork().transactional(async (em) => {
      const conn = em.getConnection();
      const ctx = em.getTransactionContext();
      await conn.execute('select pg_advisory_xact_lock(?, ?)', [0x5d5e55, cmd.chatappId], 'all', ctx);
      const [row] = await conn.execute<DesiredRow[]>('select * from channel.session_desired where chatapp_id = ?', [cmd.chatappId], 'all', ctx);
      const next = nextDesired(row ? toDesired(row) : null, cmd);
      if (next.changed) {
        const d = next.desired;
        await conn.execute(
          `insert into channel.session_desired (chatapp_id, company_id, running, generation, command, updated_at)
           values (?, ?, ?, ?, cast(? as jsonb), clock_timestamp())
           on conflict (chatapp_id) do update set company_id = excluded.company_id, running = excluded.running,
             generation = excluded.generation, command = excluded.command, updated_at = excluded.updated_at`,
          [d.chatappId, d.companyId, d.running, d.generation, JSON.stringify(d.command)],
          'all',
          ctx,
        );
      }
      return next;
    });
  }

  async desired(chatappId: number) {
    const [row] = await this.conn.execute<DesiredRow[]>('select * from channel.session_desired where chatapp_id = ?', [chatappId]);
    return row ? toDesired(row) : null;
  }

  async acquire(chatappId: number, owner: string, ttlMs: number) {
    const rows = await this.conn.execute<Array<{ owner: string }>>(
      `insert into channel.session_leases (chatapp_id, owner, expires_at) values (?, ?, clock_timestamp() + cast(? as double precision) * interval '1 millisecond')
       on conflict (chatapp_id) do update set owner = excluded.owner, expires_at = excluded.expires_at
       where channel.session_leases.owner = excluded.owner or channel.session_leases.expires_at <= clock_timestamp()
       returning owner`,
      [chatappId, owner, ttlMs],
    );
    return rows.length === 1;
  }

  async renew(owner: string, ttlMs: number) {
    const rows = await this.conn.execute<DesiredRow[]>(
      `with held as (
         update channel.session_leases set expires_at = clock_timestamp() + cast(? as double precision) * interval '1 millisecond'
         where owner = ? and expires_at > clock_timestamp() returning chatapp_id)
       select d.* from channel.session_desired d join held on held.chatapp_id = d.chatapp_id`,
      [ttlMs, owner],
    );
    return rows.map(toDesired);
  }

  async release(chatappId: number, owner: string) {
    await this.conn.execute('delete from channel.session_leases where chatapp_id = ? and owner = ?', [chatappId, owner]);
  }

  async owner(chatappId: number) {
    const [row] = await this.conn.execute<Array<{ owner: string }>>(
      'select owner from channel.session_leases where chatapp_id = ? and expires_at > clock_timestamp()',
      [chatappId],
    );
    return row?.owner ?? null;
  }

  async unowned(limit: number) {
    const rows = await this.conn.execute<DesiredRow[]>(
      `select d.* from channel.session_desired d
       left join channel.session_leases l on l.chatapp_id = d.chatapp_id and l.expires_at > clock_timestamp()
       where d.running and l.chatapp_id is null order by d.updated_at, d.chatapp_id limit ?`,
      [limit],
    );
    return rows.map(toDesired);
  }

  async liveOwners() {
    const [row] = await this.conn.execute<Array<{ n: string | number }>>(
      'select count(distinct owner) as n from channel.session_leases where expires_at > clock_timestamp()',
    );
    return Number(row?.n ?? 0);
  }
}
