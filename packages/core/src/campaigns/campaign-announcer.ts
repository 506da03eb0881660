import type { RealtimeEvents } from '../realtime/ports.js';
import type { Campaign } from './campaign.js';
import type { CampaignEvent, CampaignProgressEvent } from './campaign-events.js';
import type { CampaignView, CampaignViews } from './campaign-view.js';
import type { CampaignRecipients, Campaigns } from './ports.js';

const PROGRESS_EVERY_MS = 1000;

/**
 * What operators are told of campaigns: the `campaign` frames (create, update with the stored
 * campaign's view, delete) and, while one runs, its `campaignProgress` counts. One object, built
 * once in the composition, in place of the views and the realtime events in each use case.
 */
export class CampaignAnnouncer {
  private readonly progressAt = new Map<number, number>();

  constructor(
    private readonly deps: {
      campaigns: Pick<Campaigns, 'findById'>;
      recipients: Pick<CampaignRecipients, 'progress'>;
      views: CampaignViews;
      realtime: RealtimeEvents<CampaignEvent | CampaignProgressEvent>;
    },
  ) {}

  /** A new campaign: its `create` frame; answers its view. */
  async created(campaign: Campaign): Promise<CampaignView> {
    const view = await this.deps.views.view(campaign);
    await this.deps.realtime.publish(campaign.companyId, { entity: 'campaign', data: { action: 'create', record: view } });
    return view;
  }

  /** The campaign changed: its `update` frame with the campaign as stored now (nothing when it is gone); answers it. */
  async changed(companyId: number, campaignId: number): Promise<Campaign | null> {
    const after = await this.deps.campaigns.findById(companyId, campaignId);
    if (after) await this.update(after);
    return after;
  }

  /** As `changed`, for an edit answered with the view: the campaign as stored now, or as the caller holds it when it is gone. */
  async edited(campaign: Campaign): Promise<CampaignView> {
    return this.update((await this.deps.campaigns.findById(campaign.companyId, campaign.id)) ?? campaign);
  }

  /** The campaign was deleted. */
  async deleted(campaign: Pick<Campaign, 'companyId' | 'id'>): Promise<void> {
    await this.deps.realtime.publish(campaign.companyId, { entity: 'campaign', data: { action: 'delete', id: campaign.id } });
  }

  /** The counts of a running campaign: at most one frame per campaign per second (`force`: the last one, always). */
  async progress(companyId: number, campaignId: number, now: Date, force = false): Promise<void> {
    const last = this.progressAt.get(campaignId);
    if (!force && last !== undefined && now.getTime() - last < PROGRESS_EVERY_MS) return;
    this.progressAt.set(campaignId, now.getTime());
    const campaign = await this.deps.campaigns.findById(companyId, campaignId);
    if (!campaign) return;
    const progress = await this.deps.recipients.progress(companyId, campaignId);
    await this.deps.realtime.publish(companyId, {
      entity: 'campaignProgress',
      data: { action: 'progress', id: campaignId, status: campaign.status, progress },
    });
  }

  private async update(campaign: Campaign): Promise<CampaignView> {
    const view = await this.deps.views.view(campaign);
    await this.deps.realtime.publish(campaign.companyId, { entity: 'campaign', data: { action: 'update', record: view } });
    return view;
  }
}
