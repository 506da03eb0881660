import { canonicalPhone, digitsOf } from '../contacts/phone-numbers.js';
import { foldForSearch } from '../shared/text.js';
import type { Clock, Transaction } from '../shared/ports.js';
import { MAX_WORD_LENGTH, settingsFromRows } from './campaign-settings.js';
import type { CampaignRecipients, CampaignSettingsStore, Suppressions } from './ports.js';
import { isAwaitingConfirmation } from './recipient.js';
import type { CampaignWakeups } from './wakeups.js';

/** Lower case, accent-free, punctuation and emoji dropped, spaces collapsed: "Sim!!" and " SIM " are "sim". */
export function normaliseReply(text: string): string {
  return foldForSearch(text)
    .replace(/[^\p{L}\p{N}\s]/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Whether the whole reply is one of the words (each normalised the same way); a word inside a longer sentence does not count. */
export function matchesWord(text: string, words: readonly string[]): boolean {
  const reply = normaliseReply(text);
  return reply !== '' && words.some((w) => normaliseReply(w) === reply);
}

export type ReplyOutcome = 'confirmed' | 'suppressed' | 'ignored';

/**
 * An inbound text from a number on a connection, as campaigns see it (the inbound path calls this
 * for every text message). A stop word puts the number on the company's suppression list and
 * skips whatever campaign messages it still had coming; a yes word answers a waiting confirmation
 * question, and the message then goes out paced like any other. Anything else changes nothing:
 * a reply is not consent.
 */
export class HandleCampaignReply {
  constructor(
    private readonly deps: {
      recipients: CampaignRecipients;
      suppressions: Suppressions;
      settings: CampaignSettingsStore;
      transaction: Transaction;
      clock: Clock;
      wakeups: CampaignWakeups;
    },
  ) {}

  async execute(input: { readonly companyId: number; readonly connectionId: number; readonly number: string; readonly text: string }): Promise<ReplyOutcome> {
    const { recipients, suppressions, settings, transaction, clock, wakeups } = this.deps;
    // A configured word is at most 100 characters: longer replies (most messages) need no lookup at all.
    const reply = normaliseReply(input.text);
    if (reply === '' || reply.length > MAX_WORD_LENGTH) return 'ignored';
    const values = settingsFromRows(await settings.rows(input.companyId));
    const number = canonicalPhone(digitsOf(input.number));
    const now = clock.now();
    if (matchesWord(input.text, values.stopWords)) {
      const open = await recipients.findByNumber(input.companyId, input.connectionId, number);
      await transaction.run(async () => {
        await suppressions.add({ companyId: input.companyId, number, reason: 'stop-word', campaignId: open[0]?.campaignId ?? null, createdAt: now });
        for (const r of open) {
          if (r.state === 'pending' || isAwaitingConfirmation(r)) {
            await recipients.update({ ...r, state: 'skipped', reason: 'stop-word', claimedUntil: null, awaitingUntil: null, updatedAt: now });
          }
        }
      });
      return 'suppressed';
    }
    if (!matchesWord(input.text, values.confirmationYesWords)) return 'ignored';
    const waiting = (await recipients.findByNumber(input.companyId, input.connectionId, number)).find(
      (r) => isAwaitingConfirmation(r) && r.awaitingUntil !== null && r.awaitingUntil > now,
    );
    if (!waiting) return 'ignored';
    await recipients.update({
      ...waiting,
      stage: 'message',
      state: 'pending',
      confirmedAt: now,
      awaitingUntil: null,
      dueAt: now,
      messageId: null,
      sentAt: null,
      deliveredAt: null,
      readAt: null,
      claimedUntil: null,
      updatedAt: now,
    });
    await wakeups.wake(input.companyId, input.connectionId, now);
    return 'confirmed';
  }
}
