import type { CampaignRecipients, RecipientProgress } from './ports.js';
import { isAwaitingConfirmation, progressOf, type CampaignProgress, type CampaignRecipient, type NewRecipient, type RecipientState } from './recipient.js';
import { type InMemoryCampaigns, clone } from './in-memory-campaigns.js';

/** Recipients in a map; `claimNext` is one synchronous step, so two dispatchers never take the same one. */
export class InMemoryCampaignRecipients implements CampaignRecipients {
  private readonly rows = new Map<number, CampaignRecipient>();
  private nextId = 1;

  constructor(private readonly campaigns: InMemoryCampaigns) {
    campaigns.removeListeners.push((campaignId) => {
      for (const [id, r] of this.rows) if (r.campaignId === campaignId) this.rows.delete(id);
    });
  }

  private all(): CampaignRecipient[] {
    return [...this.rows.values()];
  }

  async addMany(recipients: readonly NewRecipient[]) {
    const key = (r: { campaignId: number; number: string }) => `${r.campaignId}:${r.number}`;
    const present = new Set(this.all().map(key));
    let added = 0;
    for (const r of recipients) {
      if (present.has(key(r))) continue;
      present.add(key(r));
      const row = { ...clone(r), id: this.nextId++ };
      this.rows.set(row.id, row);
      added++;
    }
    return added;
  }

  async findById(companyId: number, id: number) {
    const r = this.rows.get(id);
    return r && r.companyId === companyId ? clone(r) : null;
  }

  async findByMessageId(messageId: string) {
    const r = this.all().find((x) => x.messageId === messageId);
    return r ? clone(r) : null;
  }

  async findByNumber(companyId: number, connectionId: number, number: string) {
    return this.all()
      .filter((r) => r.companyId === companyId && r.connectionId === connectionId && r.number === number)
      .sort((a, b) => b.campaignId - a.campaignId)
      .map(clone);
  }

  private due(connectionId: number, now: Date): CampaignRecipient[] {
    return this.all()
      .filter(
        (r) =>
          r.connectionId === connectionId &&
          r.state === 'pending' &&
          r.dueAt <= now &&
          (!r.claimedUntil || r.claimedUntil <= now) &&
          this.campaigns.statusOf(r.campaignId) === 'EM_ANDAMENTO',
      )
      .sort((a, b) => a.campaignId - b.campaignId || a.id - b.id);
  }

  async claimNext(connectionId: number, now: Date, claimedUntil: Date) {
    const next = this.due(connectionId, now)[0];
    if (!next) return null;
    next.claimedUntil = new Date(claimedUntil.getTime());
    return clone(next);
  }

  async update(recipient: CampaignRecipient) {
    if (this.rows.get(recipient.id)?.companyId === recipient.companyId) this.rows.set(recipient.id, clone(recipient));
  }

  async advanceByMessages(changes: readonly RecipientProgress[]) {
    return changes.map((change) => this.advanceByMessage(change));
  }

  private advanceByMessage(change: RecipientProgress): CampaignRecipient | null {
    const r = this.all().find((x) => x.messageId === change.messageId);
    const from: Record<typeof change.state, RecipientState[]> = { delivered: ['sent'], read: ['sent', 'delivered'], failed: ['sent', 'delivered', 'read'] };
    if (!r || !from[change.state].includes(r.state)) return null;
    const at = new Date(change.at.getTime());
    if (change.state === 'failed') Object.assign(r, { state: 'failed', reason: change.reason ?? null, awaitingUntil: null, updatedAt: at });
    else Object.assign(r, { state: change.state, deliveredAt: r.deliveredAt ?? at, ...(change.state === 'read' ? { readAt: at } : {}), updatedAt: at });
    return clone(r);
  }

  async release(id: number, dueAt?: Date) {
    const r = this.rows.get(id);
    if (!r) return;
    r.claimedUntil = null;
    if (dueAt) r.dueAt = new Date(dueAt.getTime());
  }

  async progress(companyId: number, campaignId: number): Promise<CampaignProgress> {
    return progressOf(this.all().filter((r) => r.companyId === companyId && r.campaignId === campaignId));
  }

  async hasPending(campaignId: number) {
    return this.all().some((r) => r.campaignId === campaignId && r.state === 'pending');
  }

  async nextDue(connectionId: number) {
    let next: Date | null = null;
    for (const r of this.all()) {
      if (r.connectionId !== connectionId || r.state !== 'pending' || this.campaigns.statusOf(r.campaignId) !== 'EM_ANDAMENTO') continue;
      const at = r.claimedUntil && r.claimedUntil > r.dueAt ? r.claimedUntil : r.dueAt;
      if (!next || at < next) next = at;
    }
    return next ? new Date(next.getTime()) : null;
  }

  async countAwaiting(campaignId: number, now: Date) {
    return this.all().filter((r) => r.campaignId === campaignId && isAwaitingConfirmation(r) && r.awaitingUntil !== null && r.awaitingUntil > now).length;
  }

  async nextAwaitingExpiry(campaignId: number, now: Date) {
    const times = this.all()
      .filter((r) => r.campaignId === campaignId && isAwaitingConfirmation(r) && r.awaitingUntil && r.awaitingUntil > now)
      .map((r) => r.awaitingUntil!.getTime());
    return times.length ? new Date(Math.min(...times)) : null;
  }

  async expireAwaiting(campaignId: number, now: Date) {
    let n = 0;
    for (const r of this.all()) {
      if (r.campaignId === campaignId && isAwaitingConfirmation(r) && (!r.awaitingUntil || r.awaitingUntil <= now)) {
        Object.assign(r, { state: 'skipped', reason: 'no-confirmation', awaitingUntil: null, updatedAt: now });
        n++;
      }
    }
    return n;
  }

  async list(companyId: number, campaignId: number, filter: { state?: RecipientState; offset: number; limit: number }) {
    const rows = this.all()
      .filter((r) => r.companyId === companyId && r.campaignId === campaignId && (!filter.state || r.state === filter.state))
      .sort((a, b) => a.id - b.id);
    return { rows: rows.slice(filter.offset, filter.offset + filter.limit).map(clone), count: rows.length };
  }

  /** For tests: every recipient. */
  snapshot(): CampaignRecipient[] {
    return this.all().map(clone);
  }
}
