import type { Actor } from '../shared/actor.js';
import { assertAdmin } from '../shared/actor.js';
import type { CampaignPlan } from './find-campaign.js';
import type { CampaignSettingsStore, StoredCampaignSetting } from './ports.js';

/** `GET /campaign-settings`: the stored rows (the client folds them into an object; absent keys take their defaults). */
export class ListCampaignSettings {
  constructor(private readonly deps: { settings: CampaignSettingsStore; plan: CampaignPlan }) {}

  async execute(input: { readonly actor: Actor }): Promise<StoredCampaignSetting[]> {
    assertAdmin(input.actor);
    await this.deps.plan.assertFeature(input.actor.companyId, 'campaigns');
    // Saving nothing answers every stored row.
    return this.deps.settings.save(input.actor.companyId, []);
  }
}
