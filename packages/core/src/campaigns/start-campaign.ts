import type { Actor } from '../shared/actor.js';
import type { Clock } from '../shared/ports.js';
import type { CampaignLauncher } from './campaign-launcher.js';
import type { Campaigns } from './ports.js';
import { findCampaign, type CampaignPlan } from './find-campaign.js';

/** What starting, resuming and restarting a campaign take: the caller's campaign, and the launcher. */
export interface LaunchDeps {
  campaigns: Campaigns;
  plan: CampaignPlan;
  launcher: CampaignLauncher;
}

/** "Start now": a draft or scheduled campaign runs at once (422 with the reason when it cannot run). */
export class StartCampaign {
  constructor(private readonly deps: LaunchDeps) {}

  async execute(input: { readonly actor: Actor; readonly campaignId: number }): Promise<void> {
    const campaign = await findCampaign(this.deps, input.actor, input.campaignId);
    await this.deps.launcher.launch(campaign, 'start');
  }
}

/**
 * The recurring job's use case: every scheduled campaign whose time has come — however long ago,
 * so one saved with a past time or due while everything was down starts too — and any running
 * campaign whose start died before its recipients were written. One that cannot run ends `FALHOU`
 * with the reason. Answers how many started.
 */
export class StartDueCampaigns {
  constructor(private readonly deps: { campaigns: Pick<Campaigns, 'dueScheduled' | 'runningUnmaterialised'>; clock: Clock; launcher: CampaignLauncher }) {}

  async execute(limit = 50): Promise<number> {
    const { campaigns, clock, launcher } = this.deps;
    let started = 0;
    for (const campaign of await campaigns.dueScheduled(clock.now(), limit)) {
      const problem = await launcher.problem(campaign);
      if (problem) {
        await launcher.fail(campaign, problem);
        continue;
      }
      if (await launcher.begin(campaign, 'start')) started++;
    }
    for (const campaign of await campaigns.runningUnmaterialised(limit)) {
      // Running without recipients: the start's transaction never committed them (only possible without a real transaction).
      await launcher.materialiseLate(campaign);
    }
    return started;
  }
}
