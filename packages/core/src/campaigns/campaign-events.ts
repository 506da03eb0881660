import type { RealtimeEventOf } from '../realtime/ports.js';
import type { CampaignStatus } from './campaign.js';
import type { CampaignView } from './campaign-view.js';
import type { CampaignProgress } from './recipient.js';
import type { StoredCampaignSetting } from './ports.js';

/** `company-<id>-campaign`: the lineage's frame, on every status change (not on every send). */
export type CampaignEvent = RealtimeEventOf<
  'campaign',
  | { readonly action: 'create'; readonly record: CampaignView }
  | { readonly action: 'update'; readonly record: CampaignView }
  | { readonly action: 'delete'; readonly id: number }
>;

/** `company-<id>-campaignProgress`: counts per state while a campaign runs, at most one frame per campaign per second. */
export type CampaignProgressEvent = RealtimeEventOf<
  'campaignProgress',
  { readonly action: 'progress'; readonly id: number; readonly status: CampaignStatus; readonly progress: CampaignProgress }
>;

/** `company-<id>-campaignSettings`: the lineage's frame after the settings were saved, with every stored row. */
export type CampaignSettingsEvent = RealtimeEventOf<'campaignSettings', { readonly action: 'create'; readonly record: readonly StoredCampaignSetting[] }>;

export type CampaignEvents = CampaignEvent | CampaignProgressEvent | CampaignSettingsEvent;
