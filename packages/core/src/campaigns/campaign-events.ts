import type { RealtimeEventOf } from '../realtime/ports.js';
import type { Campaign, CampaignStatus } from './campaign.js';
import type { CampaignProgress } from './recipient.js';

// to add to events/realtime-event.ts when wired: CampaignEvent and CampaignProgressEvent.

/** What the campaign frames carry of a campaign (the HTTP views add the list, connection, user and queue). */
export interface CampaignRecord {
  readonly id: number;
  readonly name: string;
  readonly status: CampaignStatus;
  readonly scheduledAt: string | null;
  readonly completedAt: string | null;
  readonly contactListId: number | null;
  readonly tagListId: number | null;
  readonly chatappId: number | null;
  readonly confirmation: boolean;
  readonly failureReason: string | null;
}

export function toCampaignRecord(c: Campaign): CampaignRecord {
  return {
    id: c.id, name: c.name, status: c.status, scheduledAt: c.scheduledAt?.toISOString() ?? null, completedAt: c.completedAt?.toISOString() ?? null,
    contactListId: c.contactListId, tagListId: c.tagListId, chatappId: c.chatappId, confirmation: c.confirmation, failureReason: c.failureReason,
  };
}

/** `company-<id>-campaign`: the lineage's frame, on every status change (not on every send). */
export type CampaignEvent = RealtimeEventOf<'campaign',
  | { readonly action: 'create'; readonly record: CampaignRecord }
  | { readonly action: 'update'; readonly record: CampaignRecord }
  | { readonly action: 'delete'; readonly id: number }>;

/** `company-<id>-campaignProgress`: counts per state while a campaign runs, at most one frame per campaign per second. */
export type CampaignProgressEvent = RealtimeEventOf<'campaignProgress',
  { readonly action: 'progress'; readonly id: number; readonly status: CampaignStatus; readonly progress: CampaignProgress }>;

export type CampaignEvents = CampaignEvent | CampaignProgressEvent;
