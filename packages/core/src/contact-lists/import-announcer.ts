import type { RealtimeEvents } from '../realtime/ports.js';
import type { ContactListEvents } from './contact-list-events.js';
import { toImportView, type ContactListImport, type ImportRowError } from './contact-list-import.js';
import { toItemView, type ContactListPresenter } from './contact-list-view.js';
import type { ContactListItems, ContactLists } from './ports.js';

/** Tells the list's readers how an import goes: its progress, its end, then the list and its first page. */
export class ImportAnnouncer {
  constructor(
    private readonly deps: {
      readonly lists: Pick<ContactLists, 'findById'>;
      readonly items: Pick<ContactListItems, 'page'>;
      readonly presenter: ContactListPresenter;
      readonly realtime: RealtimeEvents<ContactListEvents>;
    },
  ) {}

  /** `contactListImport` `progress` after a batch, with that batch's refused rows. */
  async progress(entry: ContactListImport, errors: ImportRowError[]): Promise<void> {
    await this.publish(entry.companyId, { entity: 'contactListImport', data: { ...toImportView(entry), action: 'progress', errors } });
  }

  /** `contactListImport` `done`, then (while the list exists) its `update` and a `ContactListItem` `reload` of its first page. */
  async ended(entry: ContactListImport): Promise<void> {
    const { lists, items, presenter } = this.deps;
    const { companyId, contactListId } = entry;
    await this.publish(companyId, { entity: 'contactListImport', data: { ...toImportView(entry), action: 'done' } });
    const list = await lists.findById(companyId, contactListId);
    if (!list) return;
    await this.publish(companyId, { entity: 'ContactList', data: { action: 'update', record: await presenter.view(companyId, list) } });
    const first = await items.page({ companyId, contactListId, page: { offset: 0, limit: 20 } });
    await this.publish(companyId, { entity: 'ContactListItem', data: { action: 'reload', contactListId, records: first.rows.map(toItemView) } });
  }

  private async publish(companyId: number, event: ContactListEvents): Promise<void> {
    await this.deps.realtime.publish(companyId, event);
  }
}
