import type { Actor } from '../shared/actor.js';
import type { CampaignView } from './campaign-view.js';
import { editableCampaign, type MediaDeps } from './manage-campaigns.js';

/** `DELETE /campaigns/:id/media-upload`: the attachment goes, its file too. */
export class RemoveCampaignMedia {
  constructor(private readonly deps: MediaDeps) {}

  async execute(input: { readonly actor: Actor; readonly campaignId: number }): Promise<CampaignView> {
    const campaign = await editableCampaign(this.deps, input.actor, input.campaignId);
    if (campaign.media) {
      await this.deps.campaigns.update({ ...campaign, media: null, updatedAt: this.deps.clock.now() });
      await this.deps.blobs.delete(campaign.media.path);
    }
    return this.deps.announcer.edited(campaign);
  }
}
