import { initialPacingState, type ConnectionPacingState } from './pacing.js';
import type { CampaignPacing } from './ports.js';
import { clone } from './in-memory-campaigns.js';

/** Pacing state, send history and next runs per connection. */
export class InMemoryCampaignPacing implements CampaignPacing {
  private readonly states = new Map<number, ConnectionPacingState>();
  private readonly sends = new Map<number, number[]>();
  private readonly runs = new Map<number, { companyId: number; at: number | null }>();

  async get(connectionId: number) {
    return clone(this.states.get(connectionId) ?? initialPacingState(connectionId));
  }

  async save(state: ConnectionPacingState) {
    this.states.set(state.connectionId, clone(state));
  }

  async sendsSince(connectionId: number, since: Date) {
    return (this.sends.get(connectionId) ?? []).filter((t) => t >= since.getTime()).map((t) => new Date(t));
  }

  async recordSend(connectionId: number, at: Date) {
    const list = this.sends.get(connectionId) ?? [];
    list.push(at.getTime());
    // Only the last day counts toward the caps.
    this.sends.set(
      connectionId,
      list.filter((t) => t > at.getTime() - 86_400_000),
    );
  }

  async setNextRun(companyId: number, connectionId: number, at: Date | null, unlessWokenAfter?: Date) {
    const stored = this.runs.get(connectionId)?.at;
    if (unlessWokenAfter && stored !== undefined && stored !== null && stored > unlessWokenAfter.getTime()) return;
    this.runs.set(connectionId, { companyId, at: at ? at.getTime() : null });
  }

  async dueConnections(now: Date, limit: number) {
    return [...this.runs.entries()]
      .filter(([, r]) => r.at !== null && r.at <= now.getTime())
      .sort(([ca, a], [cb, b]) => a.at! - b.at! || ca - cb)
      .slice(0, limit)
      .map(([connectionId, r]) => ({ companyId: r.companyId, connectionId }));
  }

  async wakeCompany(companyId: number, at: Date) {
    for (const run of this.runs.values()) if (run.companyId === companyId && run.at !== null) run.at = at.getTime();
  }
}
