import type { Actor } from '../shared/actor.js';
import { assertAdmin } from '../shared/actor.js';
import { campaignDefaults } from './campaign.js';
import { campaignInvalid } from './campaign-errors.js';
import type { CampaignView } from './campaign-view.js';
import { applyInput, assertRunnable, type CampaignInput, type WriteDeps } from './manage-campaigns.js';

/** `POST /campaigns`: a draft, or a scheduled campaign when it has a time (a past time starts it within seconds). */
export class CreateCampaign {
  constructor(private readonly deps: WriteDeps) {}

  async execute(input: { readonly actor: Actor; readonly campaign: CampaignInput }): Promise<CampaignView> {
    const { actor } = input;
    assertAdmin(actor);
    await this.deps.plan.assertFeature(actor.companyId, 'campaigns');
    if (input.campaign.name === undefined) throw campaignInvalid('ERR_CAMPAIGN_INVALID_NAME');
    const now = this.deps.clock.now();
    const draft = await applyInput(this.deps, { ...campaignDefaults(actor.companyId, '', now), id: 0 }, input.campaign);
    await assertRunnable(this.deps, draft);
    const { id: _unset, ...fields } = draft;
    const created = await this.deps.campaigns.add({ ...fields, status: draft.scheduledAt ? 'PROGRAMADA' : 'INATIVA' });
    return this.deps.announcer.created(created);
  }
}
