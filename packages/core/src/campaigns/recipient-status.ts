import type { Clock } from '../shared/ports.js';
import { settingsFromRows } from './campaign-settings.js';
import { afterProviderError, isThrottleSignal, pacingRules } from './pacing.js';
import type { CampaignPacing, CampaignRecipients, CampaignSettingsStore, RecipientProgress } from './ports.js';
import type { CampaignRecipient } from './recipient.js';
import { groupCommit } from '../shared/group-commit.js';

/**
 * A campaign message's delivery status from the channel (the campaign consumers call it with each
 * status change of a message): the recipient moves forward only (sent → delivered → read), or
 * ends `failed` with the connector's reason — one conditional update, so reports handled
 * concurrently (on several instances) never move it back. Rate limits and ban signals count toward the
 * connection's back-off; a delivery resets it. Reports handled at the same time share the update.
 */
export class ApplyRecipientStatus {
  private readonly advance: (change: RecipientProgress) => Promise<CampaignRecipient | null>;

  constructor(private readonly deps: { recipients: CampaignRecipients; pacing: CampaignPacing; settings: CampaignSettingsStore; clock: Clock }) {
    this.advance = groupCommit((changes) => deps.recipients.advanceByMessages(changes));
  }

  async execute(input: {
    readonly messageId: string;
    readonly status: 'sent' | 'delivered' | 'read' | 'played' | 'failed';
    readonly reason?: string | null;
  }): Promise<boolean> {
    const { recipients, pacing, settings, clock } = this.deps;
    if (input.status === 'sent') return false;
    const now = clock.now();
    const state = input.status === 'played' ? 'read' : input.status;
    const r = await this.advance({ messageId: input.messageId, state, at: now, ...(state === 'failed' ? { reason: input.reason ?? 'ERR_SEND_FAILED' } : {}) });
    if (!r) return false;
    if (state === 'failed') {
      if (isThrottleSignal(input.reason)) {
        const rules = pacingRules(settingsFromRows(await settings.rows(r.companyId)), await settings.timeZone(r.companyId));
        await pacing.save(afterProviderError(await pacing.get(r.connectionId), rules, now));
      }
      return true;
    }
    if (state === 'delivered') {
      const state = await pacing.get(r.connectionId);
      if (state.consecutiveErrors > 0) await pacing.save({ ...state, consecutiveErrors: 0 });
    }
    return true;
  }
}
