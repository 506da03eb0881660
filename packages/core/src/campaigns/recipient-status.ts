import type { Clock } from '../shared/ports.js';
import { settingsFromRows } from './campaign-settings.js';
import { afterProviderError, isThrottleSignal, pacingRules } from './pacing.js';
import type { CampaignPacing, CampaignRecipients, CampaignSettingsStore } from './ports.js';
import type { RecipientState } from './recipient.js';

const RANK: Record<RecipientState, number> = { pending: 0, sent: 1, delivered: 2, read: 3, failed: 4, skipped: 4 };

/**
 * A campaign message's delivery status from the channel (the message path calls it with each
 * status change of a message): the recipient moves forward only (sent → delivered → read), or
 * ends `failed` with the connector's reason. Rate limits and ban signals count toward the
 * connection's back-off; a delivery resets it.
 */
export class ApplyRecipientStatus {
  constructor(private readonly deps: { recipients: CampaignRecipients; pacing: CampaignPacing; settings: CampaignSettingsStore; clock: Clock }) {}

  async execute(input: { readonly messageId: string; readonly status: 'sent' | 'delivered' | 'read' | 'played' | 'failed'; readonly reason?: string | null }): Promise<boolean> {
    const { recipients, pacing, settings, clock } = this.deps;
    const r = await recipients.findByMessageId(input.messageId);
    if (!r || r.state === 'pending' || r.state === 'skipped' || r.state === 'failed') return false;
    const now = clock.now();
    const status: RecipientState = input.status === 'played' ? 'read' : input.status;
    if (status === 'failed') {
      await recipients.update({ ...r, state: 'failed', reason: input.reason ?? 'ERR_SEND_FAILED', awaitingUntil: null, updatedAt: now });
      if (isThrottleSignal(input.reason)) {
        const rules = pacingRules(settingsFromRows(await settings.rows(r.companyId)), await settings.timeZone(r.companyId));
        await pacing.save(afterProviderError(await pacing.get(r.connectionId), rules, now));
      }
      return true;
    }
    if (RANK[status] <= RANK[r.state]) return false;
    await recipients.update({ ...r, state: status, ...(status === 'delivered' || status === 'read' ? { deliveredAt: r.deliveredAt ?? now } : {}), ...(status === 'read' ? { readAt: now } : {}), updatedAt: now });
    if (status === 'delivered') {
      const state = await pacing.get(r.connectionId);
      if (state.consecutiveErrors > 0) await pacing.save({ ...state, consecutiveErrors: 0 });
    }
    return true;
  }
}
