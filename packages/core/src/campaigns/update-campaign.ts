import type { Actor } from '../shared/actor.js';
import { isEditable, TRANSITIONS } from './campaign.js';
import { campaignStatusConflict } from './campaign-errors.js';
import type { CampaignView } from './campaign-view.js';
import { findCampaign } from './find-campaign.js';
import { applyInput, assertRunnable, type CampaignInput, type WriteDeps } from './manage-campaigns.js';

/**
 * `PUT /campaigns/:id`: only a campaign that never ran (draft or scheduled, as stored — not as the
 * client says) may change; a time schedules it, no time makes it a draft again.
 */
export class UpdateCampaign {
  constructor(private readonly deps: WriteDeps) {}

  async execute(input: { readonly actor: Actor; readonly campaignId: number; readonly campaign: CampaignInput }): Promise<CampaignView> {
    const { campaigns, clock } = this.deps;
    const stored = await findCampaign(this.deps, input.actor, input.campaignId);
    if (!isEditable(stored.status)) throw campaignStatusConflict({ status: stored.status, action: 'update' });
    const next = await applyInput(this.deps, stored, input.campaign);
    await assertRunnable(this.deps, next);
    const now = clock.now();
    await campaigns.update({ ...next, updatedAt: now });
    const wanted = next.scheduledAt ? 'PROGRAMADA' : 'INATIVA';
    if (wanted !== stored.status) {
      const action = wanted === 'PROGRAMADA' ? 'schedule' : 'unschedule';
      if (!(await campaigns.transition(stored.companyId, stored.id, TRANSITIONS[action].from, TRANSITIONS[action].to, { updatedAt: now }))) {
        throw campaignStatusConflict({ status: stored.status, action: 'update' });
      }
    }
    return this.deps.announcer.edited(stored);
  }
}
