import type { Actor } from '../shared/actor.js';
import { assertAdmin } from '../shared/actor.js';
import { hasMore, pageFromNumber } from '../shared/paging.js';
import type { CampaignViews } from './campaign-view.js';
import type { CampaignPlan } from './find-campaign.js';
import type { Campaigns } from './ports.js';

/** `GET /campaigns`: 20 per page, searched by name. */
export class ListCampaigns {
  constructor(private readonly deps: { campaigns: Campaigns; plan: CampaignPlan; views: CampaignViews }) {}

  async execute(input: { readonly actor: Actor; readonly searchParam?: string; readonly pageNumber?: number }) {
    assertAdmin(input.actor);
    await this.deps.plan.assertFeature(input.actor.companyId, 'campaigns');
    const page = pageFromNumber(input.pageNumber);
    const { rows, count } = await this.deps.campaigns.page(input.actor.companyId, {
      ...(input.searchParam?.trim() ? { search: input.searchParam.trim() } : {}),
      offset: page.offset,
      limit: page.limit,
    });
    return { records: await this.deps.views.views(input.actor.companyId, rows), count, hasMore: hasMore(page, count) };
  }
}
