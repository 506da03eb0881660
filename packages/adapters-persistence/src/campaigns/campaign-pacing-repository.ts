import { initialPacingState, type CampaignPacing, type ConnectionPacingState } from '@servicedesk/core';
import { MikroOrmRepository } from '../shared/context.js';
import { maybeTime, time, type Row, type Time } from './campaign-rows.js';

// --- pacing ------------------------------------------------------------------------------------

/** Sends older than this are pruned: the daily cap looks back 24 hours. */
const SEND_HISTORY_MS = 25 * 3_600_000;

/**
 * `campaign_pacing` (one row per connection, its company taken from `connections`) and
 * `campaign_sends`. A connection that no longer exists keeps no state.
 */
export class MikroOrmCampaignPacing extends MikroOrmRepository implements CampaignPacing {
  async get(connectionId: number): Promise<ConnectionPacingState> {
    const [row] = await this.em.execute<Row[]>(
      // Locked inside a transaction: a dispatcher that re-checks the gap before a send holds it until it recorded the send.
      'select connection_id, last_sent_at, next_gap_ms, streak, consecutive_errors, backoff_until from campaign_pacing where connection_id = ? for update',
      [connectionId],
    );
    if (!row) return initialPacingState(connectionId);
    return {
      connectionId: Number(row.connection_id),
      lastSentAt: maybeTime(row.last_sent_at),
      nextGapMs: Number(row.next_gap_ms),
      streak: Number(row.streak),
      consecutiveErrors: Number(row.consecutive_errors),
      backoffUntil: maybeTime(row.backoff_until),
    };
  }

  async save(state: ConnectionPacingState) {
    await this.em.execute(
      `insert into campaign_pacing (connection_id, company_id, last_sent_at, next_gap_ms, streak, consecutive_errors, backoff_until)
       select id, company_id, ?, ?, ?, ?, ? from connections where id = ?
       on conflict (connection_id) do update set last_sent_at = excluded.last_sent_at, next_gap_ms = excluded.next_gap_ms,
         streak = excluded.streak, consecutive_errors = excluded.consecutive_errors, backoff_until = excluded.backoff_until`,
      [state.lastSentAt, state.nextGapMs, state.streak, state.consecutiveErrors, state.backoffUntil, state.connectionId],
    );
  }

  async sendsSince(connectionId: number, since: Date) {
    const rows = await this.em.execute<Array<{ sent_at: Time }>>(
      'select sent_at from campaign_sends where connection_id = ? and sent_at >= ? order by sent_at',
      [connectionId, since],
    );
    return rows.map((r) => time(r.sent_at));
  }

  /** Records the send and drops the connection's sends no cap looks at any more. */
  async recordSend(connectionId: number, at: Date) {
    await this.em.execute(
      `with pruned as (delete from campaign_sends where connection_id = ? and sent_at < ?)
       insert into campaign_sends (connection_id, sent_at) select id, ? from connections where id = ?`,
      [connectionId, new Date(at.getTime() - SEND_HISTORY_MS), at, connectionId],
    );
  }

  async setNextRun(companyId: number, connectionId: number, at: Date | null, unlessWokenAfter?: Date) {
    await this.em.execute(
      `insert into campaign_pacing (connection_id, company_id, next_run_at)
       select id, company_id, ? from connections where id = ? and company_id = ?
       on conflict (connection_id) do update set next_run_at = excluded.next_run_at
       where ?::timestamptz is null or campaign_pacing.next_run_at is null or campaign_pacing.next_run_at <= ?`,
      [at, connectionId, companyId, unlessWokenAfter ?? null, unlessWokenAfter ?? null],
    );
  }

  async dueConnections(now: Date, limit: number) {
    const rows = await this.em.execute<Array<{ company_id: unknown; connection_id: unknown }>>(
      'select company_id, connection_id from campaign_pacing where next_run_at <= ? order by next_run_at, connection_id limit ?',
      [now, limit],
    );
    return rows.map((r) => ({ companyId: Number(r.company_id), connectionId: Number(r.connection_id) }));
  }

  async wakeCompany(companyId: number, at: Date) {
    await this.em.execute('update campaign_pacing set next_run_at = ? where company_id = ? and next_run_at is not null', [at, companyId]);
  }
}
