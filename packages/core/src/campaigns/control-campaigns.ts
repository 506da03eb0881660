import type { Actor } from '../shared/actor.js';
import type { Clock } from '../shared/ports.js';
import { TRANSITIONS, type CampaignAction } from './campaign.js';
import { campaignStatusConflict } from './campaign-errors.js';
import type { CampaignAnnouncer } from './campaign-announcer.js';
import type { Campaigns } from './ports.js';
import { findCampaign, type CampaignPlan } from './find-campaign.js';
import { StartCampaign, type LaunchDeps } from './start-campaign.js';

/**
 * Pause and cancel: one conditional update on the stored status (409 when the status does not
 * allow it, even if the client thought so). The dispatcher reads the status again in each send's
 * transaction, so nothing more goes out once this returns.
 */
class StopCampaign {
  constructor(
    private readonly deps: { campaigns: Campaigns; plan: CampaignPlan; clock: Clock; announcer: CampaignAnnouncer },
    private readonly action: Extract<CampaignAction, 'pause' | 'cancel'>,
  ) {}

  async execute(input: { readonly actor: Actor; readonly campaignId: number }): Promise<void> {
    const { campaigns, clock, announcer } = this.deps;
    const campaign = await findCampaign(this.deps, input.actor, input.campaignId);
    const { from, to } = TRANSITIONS[this.action];
    if (!(await campaigns.transition(campaign.companyId, campaign.id, from, to, { updatedAt: clock.now() }))) {
      throw campaignStatusConflict({ status: campaign.status, action: this.action });
    }
    await announcer.changed(campaign.companyId, campaign.id);
  }
}

export class PauseCampaign extends StopCampaign {
  constructor(deps: ConstructorParameters<typeof StopCampaign>[0]) {
    super(deps, 'pause');
  }
}

/** `POST /campaigns/:id/cancel` (204): a scheduled, running or paused campaign stops for good (restart runs it again). */
export class CancelCampaign extends StopCampaign {
  constructor(deps: ConstructorParameters<typeof StopCampaign>[0]) {
    super(deps, 'cancel');
  }
}

/**
 * Resume (a paused campaign) and the lineage's restart (a cancelled or failed one): it runs
 * again from where it stood — sent recipients stay sent, pending ones go on, paced from the
 * connection's last actual send, never all at once. A campaign cancelled before it ever ran is
 * materialised now.
 */
class RunAgain {
  constructor(
    private readonly deps: LaunchDeps,
    private readonly action: Extract<CampaignAction, 'resume' | 'restart'>,
  ) {}

  async execute(input: { readonly actor: Actor; readonly campaignId: number }): Promise<void> {
    const campaign = await findCampaign(this.deps, input.actor, input.campaignId);
    await this.deps.launcher.launch(campaign, this.action);
  }
}

export class ResumeCampaign extends RunAgain {
  constructor(deps: ConstructorParameters<typeof RunAgain>[0]) {
    super(deps, 'resume');
  }
}

export class RestartCampaign extends RunAgain {
  constructor(deps: ConstructorParameters<typeof RunAgain>[0]) {
    super(deps, 'restart');
  }
}

export { findCampaign, type CampaignPlan };

/**
 * `POST /campaigns/:id/restart` ("run it"): whatever the stored status allows — a draft or
 * scheduled campaign starts now, a paused one resumes, a cancelled or failed one runs again.
 * Each goes through its own conditional transition (409 when the status changed meanwhile).
 */
export class RunCampaign {
  private readonly start: StartCampaign;
  private readonly resume: ResumeCampaign;
  private readonly restart: RestartCampaign;

  constructor(private readonly deps: LaunchDeps) {
    this.start = new StartCampaign(deps);
    this.resume = new ResumeCampaign(deps);
    this.restart = new RestartCampaign(deps);
  }

  async execute(input: { readonly actor: Actor; readonly campaignId: number }): Promise<void> {
    const campaign = await findCampaign(this.deps, input.actor, input.campaignId);
    switch (campaign.status) {
      case 'INATIVA':
      case 'PROGRAMADA':
        return this.start.execute(input);
      case 'PAUSADA':
        return this.resume.execute(input);
      case 'CANCELADA':
      case 'FALHOU':
        return this.restart.execute(input);
      default:
        throw campaignStatusConflict({ status: campaign.status, action: 'restart' });
    }
  }
}
