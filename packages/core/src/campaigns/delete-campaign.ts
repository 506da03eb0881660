import type { Actor } from '../shared/actor.js';
import type { BlobStorage } from '../shared/ports.js';
import { campaignStatusConflict } from './campaign-errors.js';
import type { CampaignAnnouncer } from './campaign-announcer.js';
import { findCampaign, type CampaignPlan } from './find-campaign.js';
import type { Campaigns } from './ports.js';

/** `DELETE /campaigns/:id`: any campaign but a running one (pause or cancel it first); its recipients and attachment go with it. */
export class DeleteCampaign {
  constructor(private readonly deps: { campaigns: Campaigns; plan: CampaignPlan; blobs: BlobStorage; announcer: CampaignAnnouncer }) {}

  async execute(input: { readonly actor: Actor; readonly campaignId: number }): Promise<void> {
    const campaign = await findCampaign(this.deps, input.actor, input.campaignId);
    if (campaign.status === 'EM_ANDAMENTO') throw campaignStatusConflict({ status: campaign.status, action: 'delete' });
    if (!(await this.deps.campaigns.remove(campaign.companyId, campaign.id))) return;
    if (campaign.media) await this.deps.blobs.delete(campaign.media.path);
    await this.deps.announcer.deleted(campaign);
  }
}
