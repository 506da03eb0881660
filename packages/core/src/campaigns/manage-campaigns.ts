import type { Actor } from '../shared/actor.js';
import { assertAdmin } from '../shared/actor.js';
import { NotFoundError, PayloadTooLargeError, ValidationError } from '../shared/errors.js';
import type { ErrorCode } from '../shared/error-codes.js';
import { hasMore, pageFromNumber } from '../shared/paging.js';
import type { BlobStorage, Clock, IdGenerator, Transaction } from '../shared/ports.js';
import type { RealtimeEvents } from '../realtime/ports.js';
import { storeUpload, uploadSize, type UploadedFile } from '../uploads/image-upload.js';
import { safeFileName, safeMediaType } from '../connections/connection-media.js';
import { campaignDefaults, isEditable, TRANSITIONS, type Campaign } from './campaign.js';
import { campaignInvalid, campaignStatusConflict } from './campaign-errors.js';
import type { CampaignEvent, CampaignSettingsEvent } from './campaign-events.js';
import { cleanSettingsInput } from './campaign-settings.js';
import type { CampaignView, CampaignViews } from './campaign-view.js';
import { findCampaign, type CampaignPlan } from './find-campaign.js';
import type { CampaignPacing, CampaignReferenceKind, CampaignReferences, Campaigns, CampaignSettingsStore, StoredCampaignSetting } from './ports.js';
import { startProblem, type StartDeps } from './start-campaign.js';
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

/** Campaign attachments up to this size (the channel runtime's media limit). */
export const MAX_CAMPAIGN_MEDIA_BYTES = 16 * 1024 * 1024;
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

interface WriteDeps {
  campaigns: Campaigns;
  references: CampaignReferences;
  settings: CampaignSettingsStore;
  connections: StartDeps['connections'];
  plan: CampaignPlan;
  views: CampaignViews;
  realtime: RealtimeEvents<CampaignEvent>;
  clock: Clock;
}

/** The campaign with the input applied and checked (names, lengths, referenced ids in the company). */
async function applyInput(deps: WriteDeps, campaign: Campaign, input: CampaignInput): Promise<Campaign> {
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
async function assertRunnable(deps: WriteDeps, campaign: Campaign): Promise<void> {
  if (campaign.scheduledAt === null) return;
  const problem = await startProblem(deps, campaign);
  if (problem) throw campaignInvalid(problem);
}

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
    const view = await this.deps.views.view(created);
    await this.deps.realtime.publish(actor.companyId, { entity: 'campaign', data: { action: 'create', record: view } });
    return view;
  }
}

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
    return republish(this.deps, stored);
  }
}

/** `DELETE /campaigns/:id`: any campaign but a running one (pause or cancel it first); its recipients and attachment go with it. */
export class DeleteCampaign {
  constructor(private readonly deps: { campaigns: Campaigns; plan: CampaignPlan; blobs: BlobStorage; realtime: RealtimeEvents<CampaignEvent> }) {}

  async execute(input: { readonly actor: Actor; readonly campaignId: number }): Promise<void> {
    const campaign = await findCampaign(this.deps, input.actor, input.campaignId);
    if (campaign.status === 'EM_ANDAMENTO') throw campaignStatusConflict({ status: campaign.status, action: 'delete' });
    if (!(await this.deps.campaigns.remove(campaign.companyId, campaign.id))) return;
    if (campaign.media) await this.deps.blobs.delete(campaign.media.path);
    await this.deps.realtime.publish(campaign.companyId, { entity: 'campaign', data: { action: 'delete', id: campaign.id } });
  }
}

/** `GET /campaigns`: 20 per page, searched by name. */
export class ListCampaigns {
  constructor(private readonly deps: { campaigns: Campaigns; plan: CampaignPlan; views: CampaignViews }) {}

  async execute(input: { readonly actor: Actor; readonly searchParam?: string; readonly pageNumber?: number }) {
    assertAdmin(input.actor);
    await this.deps.plan.assertFeature(input.actor.companyId, 'campaigns');
    const page = pageFromNumber(input.pageNumber);
    const { rows, count } = await this.deps.campaigns.page(input.actor.companyId, {
      ...(input.searchParam?.trim() ? { search: input.searchParam.trim() } : {}),
      offset: page.offset,
      limit: page.limit,
    });
    return { records: await this.deps.views.views(input.actor.companyId, rows), count, hasMore: hasMore(page, count) };
  }
}

/** `GET /campaigns/list`: every campaign of the caller's company (never one named in the query), by name. */
export class ListAllCampaigns {
  constructor(private readonly deps: { campaigns: Campaigns; plan: CampaignPlan; views: CampaignViews }) {}

  async execute(input: { readonly actor: Actor }): Promise<CampaignView[]> {
    assertAdmin(input.actor);
    await this.deps.plan.assertFeature(input.actor.companyId, 'campaigns');
    return this.deps.views.views(input.actor.companyId, await this.deps.campaigns.all(input.actor.companyId));
  }
}

interface MediaDeps {
  campaigns: Campaigns;
  plan: CampaignPlan;
  blobs: BlobStorage;
  ids: IdGenerator;
  clock: Clock;
  views: CampaignViews;
  realtime: RealtimeEvents<CampaignEvent>;
}

/** The campaign as stored now, published as an `update` frame and answered. */
async function republish(deps: Pick<MediaDeps, 'campaigns' | 'views' | 'realtime'>, campaign: Campaign): Promise<CampaignView> {
  const after = (await deps.campaigns.findById(campaign.companyId, campaign.id)) ?? campaign;
  const view = await deps.views.view(after);
  await deps.realtime.publish(after.companyId, { entity: 'campaign', data: { action: 'update', record: view } });
  return view;
}

/** The caller's campaign while its attachment may still change (before it ever ran). */
async function editableCampaign(deps: MediaDeps, actor: Actor, campaignId: number): Promise<Campaign> {
  const campaign = await findCampaign(deps, actor, campaignId);
  if (!isEditable(campaign.status)) throw campaignStatusConflict({ status: campaign.status, action: 'media-upload' });
  return campaign;
}

/** `POST /campaigns/:id/media-upload`: the one attachment of every variant, replacing an earlier one. */
export class SetCampaignMedia {
  constructor(private readonly deps: MediaDeps) {}

  async execute(input: { readonly actor: Actor; readonly campaignId: number; readonly file: UploadedFile | undefined }): Promise<CampaignView> {
    const { campaigns, blobs, ids, clock } = this.deps;
    const campaign = await editableCampaign(this.deps, input.actor, input.campaignId);
    const file = input.file;
    if (!file) throw new ValidationError('ERR_NO_FILE');
    if (uploadSize(file) === 0) throw new ValidationError('ERR_EMPTY_FILE');
    if (uploadSize(file) > MAX_CAMPAIGN_MEDIA_BYTES) throw new PayloadTooLargeError('ERR_FILE_TOO_LARGE');
    const name = safeFileName(file.filename);
    const key = `public/company-${campaign.companyId}/campaigns/${campaign.id}/${ids.uuid()}-${name}`;
    const contentType = safeMediaType(file.contentType);
    await storeUpload(blobs, key, file, contentType);
    await campaigns.update({
      ...campaign,
      media: { path: key, name: file.filename.slice(0, 255) || name, contentType, size: uploadSize(file) },
      updatedAt: clock.now(),
    });
    if (campaign.media) await blobs.delete(campaign.media.path);
    return republish(this.deps, campaign);
  }
}

/** `DELETE /campaigns/:id/media-upload`: the attachment goes, its file too. */
export class RemoveCampaignMedia {
  constructor(private readonly deps: MediaDeps) {}

  async execute(input: { readonly actor: Actor; readonly campaignId: number }): Promise<CampaignView> {
    const campaign = await editableCampaign(this.deps, input.actor, input.campaignId);
    if (campaign.media) {
      await this.deps.campaigns.update({ ...campaign, media: null, updatedAt: this.deps.clock.now() });
      await this.deps.blobs.delete(campaign.media.path);
    }
    return republish(this.deps, campaign);
  }
}

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
