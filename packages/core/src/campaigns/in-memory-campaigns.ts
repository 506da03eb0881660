import type { Campaign, CampaignStatus, NewCampaign } from './campaign.js';
import { foldForSearch } from '../shared/text.js';
import type { Campaigns } from './ports.js';

export const clone = <T>(v: T): T => structuredClone(v);

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
