import type { Clock, Transaction } from '../shared/ports.js';
import { isSending, TRANSITIONS } from './campaign.js';
import type { CampaignAnnouncer } from './campaign-announcer.js';
import type { ConnectionPacer } from './connection-pacer.js';
import { DISCONNECTED_RETRY_MS, type PacingRules, type WaitReason } from './pacing.js';
import type { CampaignRecipients, Campaigns, CampaignSender } from './ports.js';
import type { CampaignRecipient } from './recipient.js';

export interface DispatchDeps {
  campaigns: Campaigns;
  recipients: CampaignRecipients;
  /** The pacing policy against the stored pacing state, the company's settings and the session. */
  pacer: ConnectionPacer;
  sender: CampaignSender;
  transaction: Transaction;
  clock: Clock;
  /** The `campaign` frame when one completes, and the progress frames. */
  announcer: CampaignAnnouncer;
}

export interface DispatchResult {
  readonly sent: number;
  /** When to run again for this connection; null when nothing is left to do until woken. */
  readonly nextRunAt: Date | null;
  /** Why it stopped: a pacing rule, `nothing-due`, or `batch` (it sent its share of this run). */
  readonly reason: WaitReason | 'nothing-due' | 'batch' | 'contended';
}

/** The key the send path deduplicates by: one message per recipient and stage, whatever retries. */
export function campaignIdempotencyKey(r: Pick<CampaignRecipient, 'campaignId' | 'id' | 'stage'>): string {
  return `campaign:${r.campaignId}:recipient:${r.id}:${r.stage}`;
}

/** How long a claim holds a recipient: far longer than one send, short enough that a dead instance's claim lapses soon. */
export const CLAIM_MS = 60_000;

/**
 * The dispatcher of one connection (every campaign on it): completes the campaigns with nothing
 * left, and while the pacing policy says "send now", claims the next due recipient, sends it
 * through the send path with its idempotency key and records it — all against stored state, so a
 * restart, a crash or a second instance goes on with the same pacing and never sends twice.
 * Answers when to run next. Pause and cancel act before the next send: the status is read again
 * in the send's own transaction.
 */
export class DispatchConnection {
  constructor(private readonly deps: DispatchDeps) {}

  async execute(input: { readonly companyId: number; readonly connectionId: number; readonly maxSends?: number }): Promise<DispatchResult> {
    const { recipients, clock, pacer, announcer } = this.deps;
    const { companyId, connectionId } = input;
    const maxSends = input.maxSends ?? 20;
    let sent = 0;
    for (let round = 0; round < maxSends + 5; round++) {
      const now = clock.now();
      await this.completeFinished(connectionId, now);
      const due = await recipients.nextDue(connectionId);
      if (!due) return { sent, nextRunAt: await this.nextAwaitingExpiry(connectionId, now), reason: 'nothing-due' };
      const { rules, confirmationTimeoutMs } = await pacer.rules(companyId);
      const decision = await pacer.decision(companyId, connectionId, rules, now);
      if (decision.kind === 'wait') return { sent, nextRunAt: new Date(Math.max(decision.until.getTime(), due.getTime())), reason: decision.reason };
      if (due > now) return { sent, nextRunAt: due, reason: 'nothing-due' };
      if (sent >= maxSends) return { sent, nextRunAt: now, reason: 'batch' };
      const recipient = await recipients.claimNext(connectionId, now, new Date(now.getTime() + CLAIM_MS));
      if (!recipient) return { sent, nextRunAt: new Date(now.getTime() + 1000), reason: 'contended' };
      const outcome = await this.sendOne(recipient, rules, confirmationTimeoutMs, now);
      if (outcome === 'sent') sent++;
      if (outcome === 'retry') return { sent, nextRunAt: new Date(now.getTime() + DISCONNECTED_RETRY_MS), reason: 'disconnected' };
      await announcer.progress(recipient.companyId, recipient.campaignId, now);
    }
    return { sent, nextRunAt: clock.now(), reason: 'batch' };
  }

  /** One recipient, in one transaction: status re-read, pacing re-checked on the locked state, send, outcome, pacing. */
  private async sendOne(r: CampaignRecipient, rules: PacingRules, timeoutMs: number, now: Date): Promise<'sent' | 'failed' | 'retry' | 'released'> {
    const { campaigns, recipients, pacer, sender, transaction } = this.deps;
    return transaction.run(async () => {
      // Share-locked until this send commits: a pause or cancel either waits for it or is seen by it.
      const status = await campaigns.statusForSend(r.companyId, r.campaignId);
      const campaign = status && isSending(status) ? await campaigns.findById(r.companyId, r.campaignId) : null;
      if (!campaign) {
        await recipients.release(r.id);
        return 'released';
      }
      // Read again inside the transaction (the SQL adapter locks the row): two dispatchers never both take one gap.
      const state = await pacer.stillAllowed(r.connectionId, rules, now);
      if (!state) {
        await recipients.release(r.id);
        return 'released';
      }
      const confirming = r.stage === 'confirmation';
      const result = await sender.send({
        companyId: r.companyId,
        connectionId: r.connectionId,
        campaignId: r.campaignId,
        recipientId: r.id,
        idempotencyKey: campaignIdempotencyKey(r),
        number: r.number,
        name: r.name,
        contactId: r.contactId,
        body: confirming ? (r.confirmationBody ?? '') : r.body,
        media: confirming ? null : r.media,
        openTicket: campaign.openTicket === 'enabled',
        statusTicket: campaign.statusTicket,
        userId: campaign.userId,
        queueId: campaign.queueId,
      });
      if (!result.ok && result.retryable) {
        await recipients.release(r.id, new Date(now.getTime() + DISCONNECTED_RETRY_MS));
        return 'retry';
      }
      const base = { ...r, attempts: r.attempts + 1, claimedUntil: null, updatedAt: now };
      if (!result.ok) {
        await recipients.update({ ...base, state: 'failed', reason: result.reason });
        return 'failed';
      }
      await recipients.update({
        ...base,
        state: 'sent',
        reason: null,
        messageId: result.messageId,
        sentAt: now,
        deliveredAt: null,
        readAt: null,
        ...(confirming ? { confirmationRequestedAt: now, awaitingUntil: new Date(now.getTime() + timeoutMs) } : {}),
      });
      await pacer.sent(r.connectionId, state, rules, now);
      return 'sent';
    });
  }

  /** Running campaigns of the connection with nothing pending and no question still waiting end `FINALIZADA`. */
  private async completeFinished(connectionId: number, now: Date): Promise<void> {
    const { campaigns, recipients, announcer } = this.deps;
    for (const c of await campaigns.runningOnConnection(connectionId)) {
      if (await recipients.hasPending(c.id)) continue;
      if ((await recipients.countAwaiting(c.id, now)) > 0) continue;
      await recipients.expireAwaiting(c.id, now);
      if (await campaigns.transition(c.companyId, c.id, TRANSITIONS.complete.from, 'FINALIZADA', { completedAt: now, updatedAt: now })) {
        if (await announcer.changed(c.companyId, c.id)) await announcer.progress(c.companyId, c.id, now, true);
      }
    }
  }

  private async nextAwaitingExpiry(connectionId: number, now: Date): Promise<Date | null> {
    let next: Date | null = null;
    for (const c of await this.deps.campaigns.runningOnConnection(connectionId)) {
      const at = await this.deps.recipients.nextAwaitingExpiry(c.id, now);
      if (at && (!next || at < next)) next = at;
    }
    return next;
  }
}
