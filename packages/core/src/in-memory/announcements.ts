import { isVisibleTo, targets, type Announcement, type NewAnnouncement } from '../announcements/announcement.js';
import type { AnnouncementAudience, AnnouncementQuery, Announcements } from '../announcements/ports.js';
import type { PageRequest } from '../shared/paging.js';
import { foldForSearch } from '../shared/text.js';
import type { InMemoryUsers } from './identity.js';
import { InMemoryTable, slice } from './table.js';
import type { InMemoryCompanies } from './tenancy.js';

/** Priority 1 first, then newest, then the higher id: the SQL adapter's order. */
const byPriority = (a: Announcement, b: Announcement) => a.priority - b.priority || b.createdAt.getTime() - a.createdAt.getTime() || b.id - a.id;

/**
 * Announcements in memory. Targets name existing companies only, as the SQL adapter's foreign
 * keys keep them: unknown ids are dropped on write, and a removed company (`dropCompany`) takes
 * its announcements and its place among targets with it.
 */
export class InMemoryAnnouncements implements Announcements {
  readonly table = new InMemoryTable<Announcement>();

  constructor(private readonly companies: InMemoryCompanies) {}

  private known(a: NewAnnouncement): NewAnnouncement {
    const ids = a.targetCompanyIds?.filter((id) => this.companies.table.get(id) !== null).sort((x, y) => x - y) ?? null;
    return { ...a, targetCompanyIds: ids };
  }

  async findById(id: number) {
    return this.table.get(id);
  }
  async add(a: NewAnnouncement) {
    return this.table.insert(this.known(a));
  }
  async update(a: Announcement) {
    const stored = this.table.get(a.id);
    if (stored) this.table.replace({ ...this.known(a), id: a.id, companyId: stored.companyId, createdAt: stored.createdAt });
  }
  async remove(id: number) {
    if (!this.table.get(id)) return false;
    this.table.delete(id);
    return true;
  }
  async page(q: AnnouncementQuery & { readonly page: PageRequest }) {
    return slice(await this.all(q), q.page);
  }
  async all(q: AnnouncementQuery) {
    const term = q.search?.trim() ? foldForSearch(q.search) : '';
    return this.table
      .filter(
        (a) =>
          (!term || foldForSearch(a.title).includes(term)) &&
          (q.status === undefined || a.status === q.status) &&
          (q.targetCompanyId === undefined || targets(a, q.targetCompanyId)) &&
          (q.visibleTo === undefined || isVisibleTo(a, q.visibleTo.companyId, q.visibleTo.at)),
      )
      .sort(byPriority);
  }

  /** ON DELETE CASCADE of the author's company, and of a target's link. */
  dropCompany(companyId: number): void {
    for (const a of this.table.filter(() => true)) {
      if (a.companyId === companyId) this.table.delete(a.id);
      else if (a.targetCompanyIds?.includes(companyId)) this.table.replace({ ...a, targetCompanyIds: a.targetCompanyIds.filter((id) => id !== companyId) });
    }
  }
}

export class InMemoryAnnouncementAudience implements AnnouncementAudience {
  constructor(
    private readonly companies: InMemoryCompanies,
    private readonly users: InMemoryUsers,
  ) {}

  async activeCompanyIds(afterId: number, limit: number) {
    return this.companies.table
      .filter((c) => c.status && c.id > afterId)
      .map((c) => c.id)
      .sort((a, b) => a - b)
      .slice(0, limit);
  }
  async existingCompanyIds(ids: readonly number[]) {
    return [...new Set(ids)].filter((id) => this.companies.table.get(id) !== null).sort((a, b) => a - b);
  }
  async superUserCompanyIds() {
    return [...new Set(this.users.table.filter((u) => u.profile === 'super').map((u) => u.companyId))].sort((a, b) => a - b);
  }
}
