import type { JobDefinition } from '../jobs/job.js';
import type { DispatchConnection } from './dispatch-connection.js';
import type { CampaignPacing } from './ports.js';
import type { StartDueCampaigns } from './start-campaign.js';

export const START_DUE_CAMPAIGNS_JOB = 'campaigns.start-due';
export const DISPATCH_CAMPAIGNS_JOB = 'campaigns.dispatch';

/**
 * Every connection whose dispatcher is due runs once: it sends what the pacing allows and stores
 * when to look again (or nothing, until a start, resume or confirmation wakes it).
 */
export class DispatchDueConnections {
  constructor(private readonly deps: { pacing: CampaignPacing; dispatch: DispatchConnection; clock: { now(): Date } }) {}

  async execute(limit = 100): Promise<number> {
    let sent = 0;
    for (const { companyId, connectionId } of await this.deps.pacing.dueConnections(this.deps.clock.now(), limit)) {
      const result = await this.deps.dispatch.execute({ companyId, connectionId });
      sent += result.sent;
      await this.deps.pacing.setNextRun(companyId, connectionId, result.nextRunAt);
    }
    return sent;
  }
}

/**
 * The campaign jobs: starting due campaigns every 20 s (as the lineage's poller, but picking
 * past times too), and the dispatchers every second. Dispatch is not atomic: each send commits in
 * its own transaction, so a long run never holds one transaction open across many sends.
 */
export function campaignJobs(deps: { startDue: StartDueCampaigns; dispatchDue: DispatchDueConnections }): JobDefinition[] {
  return [
    { name: START_DUE_CAMPAIGNS_JOB, every: 20_000, run: async () => { await deps.startDue.execute(); } },
    { name: DISPATCH_CAMPAIGNS_JOB, every: 1_000, atomic: false, leaseMs: 120_000, run: async () => { await deps.dispatchDue.execute(); } },
  ];
}
