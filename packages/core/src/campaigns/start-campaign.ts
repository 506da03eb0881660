import type { Actor } from '../shared/actor.js';
import type { RealtimeEvents } from '../realtime/ports.js';
import type { Clock, Transaction } from '../shared/ports.js';
import { messageVariants, confirmationVariants, TRANSITIONS, type Campaign, type CampaignAction } from './campaign.js';
import { campaignInvalid, campaignStatusConflict, type CampaignErrorCode } from './campaign-errors.js';
import type { CampaignViews } from './campaign-view.js';
import type { CampaignEvent } from './campaign-events.js';
import { settingsFromRows } from './campaign-settings.js';
import { materialiseRecipients } from './materialise.js';
import type { RandomSource } from './pacing.js';
import type { CampaignAudience, CampaignConnections, CampaignRecipients, Campaigns, CampaignSettingsStore, Suppressions } from './ports.js';
import type { CampaignWakeups } from './wakeups.js';
import { findCampaign, type CampaignPlan } from './find-campaign.js';

export interface StartDeps {
  campaigns: Campaigns;
  recipients: CampaignRecipients;
  audience: CampaignAudience;
  suppressions: Suppressions;
  settings: CampaignSettingsStore;
  connections: CampaignConnections;
  transaction: Transaction;
  clock: Clock;
  random: RandomSource;
  realtime: RealtimeEvents<CampaignEvent>;
  views: CampaignViews;
  wakeups: CampaignWakeups;
}

/** Why the campaign cannot run, or null. */
export async function startProblem(
  deps: Pick<StartDeps, 'connections'>,
  c: Campaign,
): Promise<Exclude<CampaignErrorCode, 'ERR_NO_CAMPAIGN_FOUND' | 'ERR_CAMPAIGN_STATUS_CONFLICT' | 'ERR_INVALID_CAMPAIGN_SETTING'> | null> {
  if (c.contactListId === null && c.tagListId === null) return 'ERR_CAMPAIGN_NO_AUDIENCE';
  if (messageVariants(c).length === 0 || (c.confirmation && confirmationVariants(c).length === 0)) return 'ERR_CAMPAIGN_NO_MESSAGE';
  const connection = c.chatappId === null ? null : await deps.connections.find(c.companyId, c.chatappId);
  if (!connection) return 'ERR_CAMPAIGN_NO_CONNECTION';
  // Business-API campaigns need an approved template (Wave 2 · 10); until templates exist they are refused.
  if (connection.kind === 'bizchat') return 'ERR_CAMPAIGN_TEMPLATE_REQUIRED';
  return null;
}

/**
 * Moves the campaign into `EM_ANDAMENTO` by `action` and, the first time, materialises its
 * recipients in the same transaction: of two instances starting it, one does both, the other
 * neither. True when this call moved it. The dispatcher of its connection is woken.
 */
export async function beginRunning(deps: StartDeps, campaign: Campaign, action: Extract<CampaignAction, 'start' | 'restart' | 'resume'>): Promise<boolean> {
  const now = deps.clock.now();
  const materialise = campaign.materializedAt === null;
  const recipients = materialise ? await materialiseRecipients(deps, campaign, settingsFromRows(await deps.settings.rows(campaign.companyId)), now) : [];
  const moved = await deps.transaction.run(async () => {
    const ok = await deps.campaigns.transition(campaign.companyId, campaign.id, TRANSITIONS[action].from, 'EM_ANDAMENTO', {
      updatedAt: now,
      ...(materialise ? { materializedAt: now } : {}),
    });
    if (ok && materialise) await deps.recipients.addMany(recipients);
    return ok;
  });
  if (!moved) return false;
  const after = await deps.campaigns.findById(campaign.companyId, campaign.id);
  if (after) await deps.realtime.publish(after.companyId, { entity: 'campaign', data: { action: 'update', record: await deps.views.view(after) } });
  await deps.wakeups.wake(campaign.companyId, campaign.chatappId!, now);
  return true;
}

/** "Start now": a draft or scheduled campaign runs at once (422 with the reason when it cannot run). */
export class StartCampaign {
  constructor(private readonly deps: StartDeps & { plan: CampaignPlan }) {}

  async execute(input: { readonly actor: Actor; readonly campaignId: number }): Promise<void> {
    const campaign = await findCampaign(this.deps, input.actor, input.campaignId);
    if (!TRANSITIONS.start.from.includes(campaign.status)) throw campaignStatusConflict({ status: campaign.status, action: 'start' });
    const problem = await startProblem(this.deps, campaign);
    if (problem) throw campaignInvalid(problem);
    if (!(await beginRunning(this.deps, campaign, 'start'))) throw campaignStatusConflict({ status: campaign.status, action: 'start' });
  }
}

/**
 * The recurring job's use case: every scheduled campaign whose time has come — however long ago,
 * so one saved with a past time or due while everything was down starts too — and any running
 * campaign whose start died before its recipients were written. One that cannot run ends `FALHOU`
 * with the reason. Answers how many started.
 */
export class StartDueCampaigns {
  constructor(private readonly deps: StartDeps) {}

  async execute(limit = 50): Promise<number> {
    const { campaigns, clock, realtime, views } = this.deps;
    let started = 0;
    for (const campaign of await campaigns.dueScheduled(clock.now(), limit)) {
      const problem = await startProblem(this.deps, campaign);
      if (problem) {
        if (await campaigns.transition(campaign.companyId, campaign.id, TRANSITIONS.fail.from, 'FALHOU', { failureReason: problem, updatedAt: clock.now() })) {
          const after = await campaigns.findById(campaign.companyId, campaign.id);
          if (after) await realtime.publish(after.companyId, { entity: 'campaign', data: { action: 'update', record: await views.view(after) } });
        }
        continue;
      }
      if (await beginRunning(this.deps, campaign, 'start')) started++;
    }
    for (const campaign of await campaigns.runningUnmaterialised(limit)) {
      // Running without recipients: the start's transaction never committed them (only possible without a real transaction).
      const recipients = await materialiseRecipients(this.deps, campaign, settingsFromRows(await this.deps.settings.rows(campaign.companyId)), clock.now());
      await this.deps.transaction.run(async () => {
        await this.deps.recipients.addMany(recipients);
        await campaigns.update({ ...campaign, materializedAt: clock.now(), updatedAt: clock.now() });
      });
      await this.deps.wakeups.wake(campaign.companyId, campaign.chatappId!, clock.now());
    }
    return started;
  }
}
