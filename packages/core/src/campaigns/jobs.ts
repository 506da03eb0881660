import type { JobDefinition } from '../jobs/job.js';
import type { DispatchConnection } from './dispatch-connection.js';
import type { CampaignPacing } from './ports.js';
import type { StartDueCampaigns } from './start-campaign.js';

export const START_DUE_CAMPAIGNS_JOB = 'campaigns.start-due';
export const DISPATCH_CAMPAIGNS_JOB = 'campaigns.dispatch';
/** A dispatch run takes no new connection after this long, so its lease (and a dead instance's) stays short. */
const RUN_BUDGET_MS = 10_000;
/** The dispatch job's lease: a run that died with its instance is taken over after this. */
const DISPATCH_LEASE_MS = 30_000;

/**
 * Every connection whose dispatcher is due runs once: it sends what the pacing allows and stores
 * when to look again (or nothing, until a start, resume or confirmation wakes it).
 */
export class DispatchDueConnections {
  constructor(private readonly deps: { pacing: CampaignPacing; dispatch: DispatchConnection; clock: { now(): Date } }) {}

  async execute(limit = 100, budgetMs = RUN_BUDGET_MS): Promise<number> {
    let sent = 0;
    const started = this.deps.clock.now();
    for (const { companyId, connectionId } of await this.deps.pacing.dueConnections(started, limit)) {
      // Connections left over stay due: the next run (a second later) takes them first.
      if (this.deps.clock.now().getTime() - started.getTime() > budgetMs) break;
      const runStarted = this.deps.clock.now();
      const result = await this.deps.dispatch.execute({ companyId, connectionId });
      sent += result.sent;
      // A start, resume or confirmation that woke the connection during this run keeps its wake-up.
      await this.deps.pacing.setNextRun(companyId, connectionId, result.nextRunAt, runStarted);
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
    {
      name: START_DUE_CAMPAIGNS_JOB,
      every: 20_000,
      run: async () => {
        await deps.startDue.execute();
      },
    },
    {
      name: DISPATCH_CAMPAIGNS_JOB,
      every: 1_000,
      atomic: false,
      leaseMs: DISPATCH_LEASE_MS,
      run: async () => {
        await deps.dispatchDue.execute();
      },
    },
  ];
}
