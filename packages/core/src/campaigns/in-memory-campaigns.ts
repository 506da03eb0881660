import type { Campaign, CampaignStatus, NewCampaign } from './campaign.js';
import { foldForSearch } from '../shared/text.js';
import { initialPacingState, type ConnectionPacingState } from './pacing.js';
import type { CampaignPacing, CampaignRecipients, Campaigns, RecipientProgress, Suppressions } from './ports.js';
import { isAwaitingConfirmation, progressOf, type CampaignProgress, type CampaignRecipient, type NewRecipient, type RecipientState } from './recipient.js';

const clone = <T>(v: T): T => structuredClone(v);
const fold = foldForSearch;

/** Campaigns in a map; `transition` compares and sets in one step, as the SQL `UPDATE … WHERE status IN` does. */
export class InMemoryCampaigns implements Campaigns {
  private readonly rows = new Map<number, Campaign>();
  private nextId = 1;

  async findById(companyId: number, id: number) {
    const row = this.rows.get(id);
    return row && row.companyId === companyId ? clone(row) : null;
  }

  async add(campaign: NewCampaign) {
    const row = { ...clone(campaign), id: this.nextId++ };
    this.rows.set(row.id, row);
    return clone(row);
  }

  async update(campaign: Campaign) {
    const row = this.rows.get(campaign.id);
    if (row && row.companyId === campaign.companyId) this.rows.set(campaign.id, { ...clone(campaign), status: row.status });
  }

  async transition(companyId: number, id: number, from: readonly CampaignStatus[], to: CampaignStatus, patch: Partial<Campaign> = {}) {
    const row = this.rows.get(id);
    if (!row || row.companyId !== companyId || !from.includes(row.status)) return false;
    this.rows.set(id, { ...row, ...clone(patch), status: to });
    return true;
  }

  async dueScheduled(now: Date, limit: number) {
    return [...this.rows.values()]
      .filter((c) => c.status === 'PROGRAMADA' && c.scheduledAt !== null && c.scheduledAt <= now)
      .sort((a, b) => a.scheduledAt!.getTime() - b.scheduledAt!.getTime() || a.id - b.id)
      .slice(0, limit)
      .map(clone);
  }

  async runningUnmaterialised(limit: number) {
    return [...this.rows.values()]
      .filter((c) => c.status === 'EM_ANDAMENTO' && c.materializedAt === null)
      .slice(0, limit)
      .map(clone);
  }

  async statusForSend(companyId: number, id: number) {
    const row = this.rows.get(id);
    return row && row.companyId === companyId ? row.status : null;
  }

  async runningOnConnection(connectionId: number) {
    return [...this.rows.values()]
      .filter((c) => c.status === 'EM_ANDAMENTO' && c.chatappId === connectionId)
      .sort((a, b) => a.id - b.id)
      .map(clone);
  }

  async page(companyId: number, filter: { search?: string; offset: number; limit: number }) {
    const wanted = fold(filter.search ?? '');
    const rank = (c: Campaign) => c.scheduledAt?.getTime() ?? Number.NEGATIVE_INFINITY;
    const all = [...this.rows.values()]
      .filter((c) => c.companyId === companyId && fold(c.name).includes(wanted))
      .sort((a, b) => (a.status < b.status ? -1 : a.status > b.status ? 1 : 0) || rank(b) - rank(a) || a.id - b.id);
    return { rows: all.slice(filter.offset, filter.offset + filter.limit).map(clone), count: all.length };
  }

  async all(companyId: number) {
    return [...this.rows.values()]
      .filter((c) => c.companyId === companyId)
      .sort((a, b) => a.name.localeCompare(b.name) || a.id - b.id)
      .map(clone);
  }

  async remove(companyId: number, id: number) {
    const row = this.rows.get(id);
    if (!row || row.companyId !== companyId) return false;
    this.rows.delete(id);
    for (const listener of this.removeListeners) listener(id);
    return true;
  }

  async pendingOnContactList(companyId: number, contactListId: number) {
    return [...this.rows.values()]
      .filter(
        (c) =>
          c.companyId === companyId &&
          c.contactListId === contactListId &&
          c.materializedAt === null &&
          (c.status === 'INATIVA' || c.status === 'PROGRAMADA' || c.status === 'EM_ANDAMENTO'),
      )
      .map(clone);
  }

  /** Called with the id of each removed campaign (the in-memory recipients drop theirs, as the SQL cascade does). */
  readonly removeListeners: Array<(id: number) => void> = [];

  /** For tests and the in-memory sources: the status as stored, whatever the company. */
  statusOf(id: number): CampaignStatus | null {
    return this.rows.get(id)?.status ?? null;
  }
}

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

/** Pacing state, send history and next runs per connection. */
export class InMemoryCampaignPacing implements CampaignPacing {
  private readonly states = new Map<number, ConnectionPacingState>();
  private readonly sends = new Map<number, number[]>();
  private readonly runs = new Map<number, { companyId: number; at: number | null }>();

  async get(connectionId: number) {
    return clone(this.states.get(connectionId) ?? initialPacingState(connectionId));
  }

  async save(state: ConnectionPacingState) {
    this.states.set(state.connectionId, clone(state));
  }

  async sendsSince(connectionId: number, since: Date) {
    return (this.sends.get(connectionId) ?? []).filter((t) => t >= since.getTime()).map((t) => new Date(t));
  }

  async recordSend(connectionId: number, at: Date) {
    const list = this.sends.get(connectionId) ?? [];
    list.push(at.getTime());
    // Only the last day counts toward the caps.
    this.sends.set(
      connectionId,
      list.filter((t) => t > at.getTime() - 86_400_000),
    );
  }

  async setNextRun(companyId: number, connectionId: number, at: Date | null, unlessWokenAfter?: Date) {
    const stored = this.runs.get(connectionId)?.at;
    if (unlessWokenAfter && stored !== undefined && stored !== null && stored > unlessWokenAfter.getTime()) return;
    this.runs.set(connectionId, { companyId, at: at ? at.getTime() : null });
  }

  async dueConnections(now: Date, limit: number) {
    return [...this.runs.entries()]
      .filter(([, r]) => r.at !== null && r.at <= now.getTime())
      .sort(([ca, a], [cb, b]) => a.at! - b.at! || ca - cb)
      .slice(0, limit)
      .map(([connectionId, r]) => ({ companyId: r.companyId, connectionId }));
  }

  async wakeCompany(companyId: number, at: Date) {
    for (const run of this.runs.values()) if (run.companyId === companyId && run.at !== null) run.at = at.getTime();
  }
}

/** The suppression list in a map. */
export class InMemorySuppressions implements Suppressions {
  readonly entries: Array<{ companyId: number; number: string; reason: string; campaignId: number | null; createdAt: Date }> = [];

  async suppressed(companyId: number, numbers: readonly string[]) {
    const wanted = new Set(numbers);
    return new Set(this.entries.filter((e) => e.companyId === companyId && wanted.has(e.number)).map((e) => e.number));
  }

  async add(entry: { companyId: number; number: string; reason: string; campaignId: number | null; createdAt: Date }) {
    if (!this.entries.some((e) => e.companyId === entry.companyId && e.number === entry.number)) this.entries.push({ ...entry });
  }
}
