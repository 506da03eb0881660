import type { Actor } from '../shared/actor.js';
import { assertAdmin } from '../shared/actor.js';
import type { CampaignView, CampaignViews } from './campaign-view.js';
import type { CampaignPlan } from './find-campaign.js';
import type { Campaigns } from './ports.js';

/** `GET /campaigns/list`: every campaign of the caller's company (never one named in the query), by name. */
export class ListAllCampaigns {
  constructor(private readonly deps: { campaigns: Campaigns; plan: CampaignPlan; views: CampaignViews }) {}

  async execute(input: { readonly actor: Actor }): Promise<CampaignView[]> {
    assertAdmin(input.actor);
    await this.deps.plan.assertFeature(input.actor.companyId, 'campaigns');
    return this.deps.views.views(input.actor.companyId, await this.deps.campaigns.all(input.actor.companyId));
  }
}
