import type { Actor } from '../shared/actor.js';
import { NotFoundError } from '../shared/errors.js';
import type { ErrorCode } from '../shared/error-codes.js';
import type { BlobStorage, Clock, IdGenerator } from '../shared/ports.js';
import { isEditable, type Campaign } from './campaign.js';
import { campaignInvalid, campaignStatusConflict } from './campaign-errors.js';
import type { CampaignAnnouncer } from './campaign-announcer.js';
import { findCampaign, type CampaignPlan } from './find-campaign.js';
import type { CampaignConnections, CampaignReferenceKind, CampaignReferences, Campaigns, CampaignSettingsStore } from './ports.js';
import { startProblem } from './campaign-launcher.js';
import { parseWallClockTime } from '../shared/zoned-time.js';

/** What `POST` and `PUT /campaigns` may set; an absent field keeps its value (on create: its default). */
export interface CampaignInput {
  readonly name?: string;
  readonly message1?: string;
  readonly message2?: string;
  readonly message3?: string;
  readonly message4?: string;
  readonly message5?: string;
  readonly confirmationMessage1?: string;
  readonly confirmationMessage2?: string;
  readonly confirmationMessage3?: string;
  readonly confirmationMessage4?: string;
  readonly confirmationMessage5?: string;
  readonly confirmation?: boolean;
  /** ISO 8601 with an offset, or the lineage's `YYYY-MM-DD HH:mm[:ss]` read on the company's wall clock; null unschedules. */
  readonly scheduledAt?: string | null;
  readonly contactListId?: number | null;
  readonly tagListId?: number | null;
  readonly chatappId?: number | null;
  readonly userId?: number | null;
  readonly queueId?: number | null;
  readonly statusTicket?: Campaign['statusTicket'];
  readonly openTicket?: Campaign['openTicket'];
}

export const MAX_CAMPAIGN_MESSAGE_LENGTH = 4096;

const TEXT_FIELDS = [
  'message1',
  'message2',
  'message3',
  'message4',
  'message5',
  'confirmationMessage1',
  'confirmationMessage2',
  'confirmationMessage3',
  'confirmationMessage4',
  'confirmationMessage5',
] as const;

const REFERENCES: ReadonlyArray<{ field: 'contactListId' | 'tagListId' | 'chatappId' | 'userId' | 'queueId'; kind: CampaignReferenceKind; code: ErrorCode }> = [
  { field: 'contactListId', kind: 'contactList', code: 'ERR_NO_CONTACT_LIST_FOUND' },
  { field: 'tagListId', kind: 'tag', code: 'ERR_NO_TAG_FOUND' },
  { field: 'chatappId', kind: 'connection', code: 'ERR_NO_CONNECTION_FOUND' },
  { field: 'userId', kind: 'user', code: 'ERR_NO_USER_FOUND' },
  { field: 'queueId', kind: 'queue', code: 'ERR_QUEUE_NOT_FOUND' },
];

/**
 * The moment of a schedule: an ISO time with its offset as it says, a time without one (the
 * lineage client's `YYYY-MM-DD HH:mm:ss`) on the company's wall clock. A time in the past is
 * accepted: the campaign starts at once (the lineage silently never started those).
 */
export function parseScheduledAt(text: string, timeZone: string): Date {
  const at = parseWallClockTime(text, timeZone);
  if (!at) throw campaignInvalid('ERR_CAMPAIGN_INVALID_SCHEDULE', { scheduledAt: text });
  return at;
}

export interface WriteDeps {
  campaigns: Campaigns;
  references: CampaignReferences;
  settings: CampaignSettingsStore;
  connections: CampaignConnections;
  plan: CampaignPlan;
  announcer: CampaignAnnouncer;
  clock: Clock;
}

/** The campaign with the input applied and checked (names, lengths, referenced ids in the company). */
export async function applyInput(deps: WriteDeps, campaign: Campaign, input: CampaignInput): Promise<Campaign> {
  const next: Campaign = { ...campaign };
  if (input.name !== undefined) {
    const name = input.name.trim();
    if (name.length < 1 || name.length > 255) throw campaignInvalid('ERR_CAMPAIGN_INVALID_NAME');
    next.name = name;
  }
  for (const field of TEXT_FIELDS) {
    const value = input[field];
    if (value === undefined) continue;
    if (value.length > MAX_CAMPAIGN_MESSAGE_LENGTH) throw campaignInvalid('ERR_CAMPAIGN_MESSAGE_TOO_LONG', { field });
    next[field] = value;
  }
  if (input.confirmation !== undefined) next.confirmation = input.confirmation;
  if (input.statusTicket !== undefined) next.statusTicket = input.statusTicket;
  if (input.openTicket !== undefined) next.openTicket = input.openTicket;
  for (const { field, kind, code } of REFERENCES) {
    const id = input[field];
    if (id === undefined) continue;
    if (id !== null && !(await deps.references.names(campaign.companyId, kind, [id])).has(id)) throw new NotFoundError(code, { [field]: id });
    next[field] = id;
  }
  if (input.scheduledAt !== undefined) {
    next.scheduledAt =
      input.scheduledAt === null || input.scheduledAt.trim() === ''
        ? null
        : parseScheduledAt(input.scheduledAt, await deps.settings.timeZone(campaign.companyId));
  }
  return next;
}

/** A scheduled campaign must be able to run when its time comes: checked when it is scheduled, not discovered then. */
export async function assertRunnable(deps: WriteDeps, campaign: Campaign): Promise<void> {
  if (campaign.scheduledAt === null) return;
  const problem = await startProblem(deps, campaign);
  if (problem) throw campaignInvalid(problem);
}

export interface MediaDeps {
  campaigns: Campaigns;
  plan: CampaignPlan;
  blobs: BlobStorage;
  ids: IdGenerator;
  clock: Clock;
  announcer: CampaignAnnouncer;
}

/** The caller's campaign while its attachment may still change (before it ever ran). */
export async function editableCampaign(deps: MediaDeps, actor: Actor, campaignId: number): Promise<Campaign> {
  const campaign = await findCampaign(deps, actor, campaignId);
  if (!isEditable(campaign.status)) throw campaignStatusConflict({ status: campaign.status, action: 'media-upload' });
  return campaign;
}
