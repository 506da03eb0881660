import { toImportView, type ContactListImportView } from './contact-list-import.js';
import { NO_ITEMS, type ContactList, type ContactListCounts, type ContactListItem } from './contact-list.js';
import type { ContactListImports, ContactLists } from './ports.js';

/** A list as the API shows it: with its item counts per verdict and its latest import. */
export interface ContactListView extends ContactListCounts {
  id: number;
  companyId: number;
  name: string;
  createdAt: string;
  updatedAt: string;
  lastImport: ContactListImportView | null;
}

/**
 * An item as the API shows it. `isChatappValid` is the lineage client's `isWhatsappValid` under the
 * naming rule: true only when the check found the number (`validity: 'valid'`).
 */
export interface ContactListItemView extends Omit<ContactListItem, 'validatedAt' | 'createdAt' | 'updatedAt'> {
  isChatappValid: boolean;
  validatedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export function toItemView(i: ContactListItem): ContactListItemView {
  return {
    ...i,
    isChatappValid: i.validity === 'valid',
    validatedAt: i.validatedAt?.toISOString() ?? null,
    createdAt: i.createdAt.toISOString(),
    updatedAt: i.updatedAt.toISOString(),
  };
}

/** Lists with their counts and latest imports, read in one query each for any number of lists. */
export class ContactListPresenter {
  constructor(private readonly deps: { lists: ContactLists; imports: ContactListImports }) {}

  async views(companyId: number, lists: readonly ContactList[]): Promise<ContactListView[]> {
    if (!lists.length) return [];
    const ids = lists.map((l) => l.id);
    const counts = await this.deps.lists.counts(companyId, ids);
    const latest = await this.deps.imports.latest(companyId, ids);
    return lists.map((l) => {
      const last = latest.get(l.id);
      return {
        id: l.id,
        companyId: l.companyId,
        name: l.name,
        ...(counts.get(l.id) ?? NO_ITEMS),
        createdAt: l.createdAt.toISOString(),
        updatedAt: l.updatedAt.toISOString(),
        lastImport: last ? toImportView(last) : null,
      };
    });
  }

  async view(companyId: number, list: ContactList): Promise<ContactListView> {
    return (await this.views(companyId, [list]))[0]!;
  }
}
