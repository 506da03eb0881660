import type { Actor } from '../shared/actor.js';
import { hasMore, pageFromNumber } from '../shared/paging.js';
import type { CampaignView, CampaignViews } from './campaign-view.js';
import { findCampaign, type CampaignPlan } from './find-campaign.js';
import type { CampaignRecipients, Campaigns } from './ports.js';
import type { CampaignProgress, CampaignRecipient, RecipientState } from './recipient.js';

/** `GET /campaigns/:id`: the campaign with its counts per state (instead of the lineage's every shipping row and list item). */
export class ShowCampaign {
  constructor(private readonly deps: { campaigns: Campaigns; recipients: CampaignRecipients; plan: CampaignPlan; views: CampaignViews }) {}

  async execute(input: { readonly actor: Actor; readonly campaignId: number }): Promise<CampaignView & { progress: CampaignProgress }> {
    const campaign = await findCampaign(this.deps, input.actor, input.campaignId);
    return { ...(await this.deps.views.view(campaign)), progress: await this.deps.recipients.progress(campaign.companyId, campaign.id) };
  }
}

export interface RecipientRow {
  readonly id: number;
  readonly number: string;
  readonly name: string;
  readonly state: RecipientState;
  readonly reason: string | null;
  readonly variant: number;
  readonly sentAt: string | null;
  readonly deliveredAt: string | null;
  readonly readAt: string | null;
  readonly confirmationRequestedAt: string | null;
  readonly confirmedAt: string | null;
}

const iso = (d: Date | null) => d?.toISOString() ?? null;

function toRow(r: CampaignRecipient): RecipientRow {
  return {
    id: r.id,
    number: r.number,
    name: r.name,
    state: r.state,
    reason: r.reason,
    variant: r.variant,
    sentAt: iso(r.sentAt),
    deliveredAt: iso(r.deliveredAt),
    readAt: iso(r.readAt),
    confirmationRequestedAt: iso(r.confirmationRequestedAt),
    confirmedAt: iso(r.confirmedAt),
  };
}

/** The report: a page (20) of one campaign's recipients, optionally in one state. */
export class ListCampaignRecipients {
  constructor(private readonly deps: { campaigns: Campaigns; recipients: CampaignRecipients; plan: CampaignPlan }) {}

  async execute(input: { readonly actor: Actor; readonly campaignId: number; readonly state?: RecipientState; readonly pageNumber?: number }) {
    const campaign = await findCampaign(this.deps, input.actor, input.campaignId);
    const page = pageFromNumber(input.pageNumber);
    const { rows, count } = await this.deps.recipients.list(campaign.companyId, campaign.id, {
      ...(input.state ? { state: input.state } : {}),
      offset: page.offset,
      limit: page.limit,
    });
    return { records: rows.map(toRow), count, hasMore: hasMore(page, count) };
  }
}
