import type { Clock, Transaction } from '../shared/ports.js';
import { messageVariants, confirmationVariants, TRANSITIONS, type Campaign, type CampaignAction } from './campaign.js';
import { campaignInvalid, campaignStatusConflict, type CampaignErrorCode } from './campaign-errors.js';
import type { CampaignAnnouncer } from './campaign-announcer.js';
import type { RecipientMaterialiser } from './materialise.js';
import type { CampaignConnections, CampaignRecipients, Campaigns } from './ports.js';
import type { CampaignWakeups } from './wakeups.js';

export type StartProblem = Exclude<CampaignErrorCode, 'ERR_NO_CAMPAIGN_FOUND' | 'ERR_CAMPAIGN_STATUS_CONFLICT' | 'ERR_INVALID_CAMPAIGN_SETTING'>;

/** Why the campaign cannot run, or null. */
export async function startProblem(deps: { connections: CampaignConnections }, c: Campaign): Promise<StartProblem | null> {
  if (c.contactListId === null && c.tagListId === null) return 'ERR_CAMPAIGN_NO_AUDIENCE';
  if (messageVariants(c).length === 0 || (c.confirmation && confirmationVariants(c).length === 0)) return 'ERR_CAMPAIGN_NO_MESSAGE';
  const connection = c.chatappId === null ? null : await deps.connections.find(c.companyId, c.chatappId);
  if (!connection) return 'ERR_CAMPAIGN_NO_CONNECTION';
  // Business-API campaigns need an approved template (Wave 2 · 10); until templates exist they are refused.
  if (connection.kind === 'bizchat') return 'ERR_CAMPAIGN_TEMPLATE_REQUIRED';
  return null;
}

/**
 * How a campaign comes to run: checked that it can, moved into `EM_ANDAMENTO` with its recipients
 * written the first time, announced, and the dispatcher of its connection woken. Start, resume,
 * restart and the recurring start of due campaigns all go through it.
 */
export class CampaignLauncher {
  constructor(
    private readonly deps: {
      campaigns: Pick<Campaigns, 'transition' | 'update'>;
      recipients: Pick<CampaignRecipients, 'addMany'>;
      materialiser: RecipientMaterialiser;
      connections: CampaignConnections;
      transaction: Transaction;
      clock: Clock;
      announcer: CampaignAnnouncer;
      wakeups: CampaignWakeups;
    },
  ) {}

  /** Why the campaign cannot run, or null. */
  problem(campaign: Campaign): Promise<StartProblem | null> {
    return startProblem(this.deps, campaign);
  }

  /**
   * `action` on the caller's campaign: 409 when its stored status does not allow it (or changed
   * meanwhile), 422 with the reason when it cannot run.
   */
  async launch(campaign: Campaign, action: Extract<CampaignAction, 'start' | 'restart' | 'resume'>): Promise<void> {
    if (!TRANSITIONS[action].from.includes(campaign.status)) throw campaignStatusConflict({ status: campaign.status, action });
    const problem = await this.problem(campaign);
    if (problem) throw campaignInvalid(problem);
    if (!(await this.begin(campaign, action))) throw campaignStatusConflict({ status: campaign.status, action });
  }

  /**
   * Moves the campaign into `EM_ANDAMENTO` by `action` and, the first time, materialises its
   * recipients in the same transaction: of two instances starting it, one does both, the other
   * neither. True when this call moved it. The dispatcher of its connection is woken.
   */
  async begin(campaign: Campaign, action: Extract<CampaignAction, 'start' | 'restart' | 'resume'>): Promise<boolean> {
    const { campaigns, recipients, materialiser, transaction, clock, announcer, wakeups } = this.deps;
    const now = clock.now();
    const materialise = campaign.materializedAt === null;
    const toAdd = materialise ? await materialiser.recipientsOf(campaign, now) : [];
    const moved = await transaction.run(async () => {
      const ok = await campaigns.transition(campaign.companyId, campaign.id, TRANSITIONS[action].from, 'EM_ANDAMENTO', {
        updatedAt: now,
        ...(materialise ? { materializedAt: now } : {}),
      });
      if (ok && materialise) await recipients.addMany(toAdd);
      return ok;
    });
    if (!moved) return false;
    await announcer.changed(campaign.companyId, campaign.id);
    await wakeups.wake(campaign.companyId, campaign.chatappId!, now);
    return true;
  }

  /** A due campaign that cannot run ends `FALHOU` with the reason (announced when this call moved it). */
  async fail(campaign: Campaign, problem: StartProblem): Promise<void> {
    const { campaigns, clock, announcer } = this.deps;
    if (await campaigns.transition(campaign.companyId, campaign.id, TRANSITIONS.fail.from, 'FALHOU', { failureReason: problem, updatedAt: clock.now() })) {
      await announcer.changed(campaign.companyId, campaign.id);
    }
  }

  /** A running campaign whose start died before its recipients were written gets them now, and its dispatcher is woken. */
  async materialiseLate(campaign: Campaign): Promise<void> {
    const { campaigns, recipients, materialiser, transaction, clock, wakeups } = this.deps;
    const toAdd = await materialiser.recipientsOf(campaign, clock.now());
    await transaction.run(async () => {
      await recipients.addMany(toAdd);
      await campaigns.update({ ...campaign, materializedAt: clock.now(), updatedAt: clock.now() });
    });
    await wakeups.wake(campaign.companyId, campaign.chatappId!, clock.now());
  }
}
