import { assertAdmin, type Actor } from '../shared/actor.js';
import type { Campaign } from './campaign.js';
import { campaignNotFound } from './campaign-errors.js';
import type { Campaigns } from './ports.js';

/** The plan check every campaign route makes (403 `ERR_PLAN_FEATURE_DISABLED` when `useCampaigns` is off); `PlanGuard` is one. */
export interface CampaignPlan {
  assertFeature(companyId: number, feature: 'campaigns'): Promise<void>;
}

/** The caller's campaign (404 for another company's), after the role and plan checks. */
export async function findCampaign(deps: { campaigns: Campaigns; plan: CampaignPlan }, actor: Actor, campaignId: number): Promise<Campaign> {
  assertAdmin(actor);
  await deps.plan.assertFeature(actor.companyId, 'campaigns');
  const campaign = await deps.campaigns.findById(actor.companyId, campaignId);
  if (!campaign) throw campaignNotFound();
  return campaign;
}
