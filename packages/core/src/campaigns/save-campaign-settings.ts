import type { Actor } from '../shared/actor.js';
import { assertAdmin } from '../shared/actor.js';
import type { Clock, Transaction } from '../shared/ports.js';
import type { RealtimeEvents } from '../realtime/ports.js';
import type { CampaignSettingsEvent } from './campaign-events.js';
import { cleanSettingsInput } from './campaign-settings.js';
import type { CampaignPlan } from './find-campaign.js';
import type { CampaignPacing, CampaignSettingsStore, StoredCampaignSetting } from './ports.js';

/**
 * `POST /campaign-settings`: every key checked against its range (422 naming the key), all stored
 * or none. The company's dispatchers are due again with the settings: a wait computed under the
 * old window or caps (the window's next opening, an hour for the cap) would otherwise hold.
 */
export class SaveCampaignSettings {
  constructor(
    private readonly deps: {
      settings: CampaignSettingsStore;
      pacing: Pick<CampaignPacing, 'wakeCompany'>;
      plan: CampaignPlan;
      tx: Transaction;
      clock: Clock;
      realtime: RealtimeEvents<CampaignSettingsEvent>;
    },
  ) {}

  async execute(input: { readonly actor: Actor; readonly settings: Record<string, unknown> }): Promise<StoredCampaignSetting[]> {
    assertAdmin(input.actor);
    const { companyId } = input.actor;
    await this.deps.plan.assertFeature(companyId, 'campaigns');
    const rows = cleanSettingsInput(input.settings);
    const stored = await this.deps.tx.run(async () => {
      const saved = await this.deps.settings.save(companyId, rows);
      // Last, so that the rows it locks are held the shortest time before the commit.
      await this.deps.pacing.wakeCompany(companyId, this.deps.clock.now());
      return saved;
    });
    await this.deps.realtime.publish(input.actor.companyId, { entity: 'campaignSettings', data: { action: 'create', record: stored } });
    return stored;
  }
}
