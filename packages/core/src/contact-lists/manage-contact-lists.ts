import type { Actor } from '../shared/actor.js';
import { ConflictError } from '../shared/errors.js';
import { hasMore, pageFromNumber } from '../shared/paging.js';
import type { Clock } from '../shared/ports.js';
import type { RealtimeEvents } from '../realtime/ports.js';
import { assertListAccess, findList, type ContactListPlan } from './contact-list-access.js';
import type { ContactListEvent } from './contact-list-events.js';
import type { ContactListPresenter, ContactListView } from './contact-list-view.js';
import { cleanContactListName } from './contact-list.js';
import type { ContactListUsage, ContactLists } from './ports.js';

interface ReadDeps {
  lists: ContactLists;
  presenter: ContactListPresenter;
  plan: ContactListPlan;
}
interface WriteDeps extends ReadDeps {
  clock: Clock;
  realtime: RealtimeEvents<ContactListEvent>;
}

/** `GET /contact-lists`: a page (20) of the company's lists by name, `searchParam` in the name, as `{records, count, hasMore}`. */
export class ListContactLists {
  constructor(private readonly deps: ReadDeps) {}

  async execute(input: { readonly actor: Actor; readonly searchParam?: string; readonly pageNumber?: number }) {
    const { lists, presenter, plan } = this.deps;
    await assertListAccess(plan, input.actor);
    const { companyId } = input.actor;
    const page = pageFromNumber(input.pageNumber);
    const found = await lists.page({ companyId, page, ...(input.searchParam?.trim() ? { search: input.searchParam } : {}) });
    return { records: await presenter.views(companyId, found.rows), count: found.count, hasMore: hasMore(page, found.count) };
  }
}

/** `GET /contact-lists/list`: every list of the caller's company (the campaign form's picker). */
export class ListAllContactLists {
  constructor(private readonly deps: ReadDeps) {}

  async execute(input: { readonly actor: Actor }): Promise<ContactListView[]> {
    await assertListAccess(this.deps.plan, input.actor);
    const { companyId } = input.actor;
    return this.deps.presenter.views(companyId, await this.deps.lists.all(companyId));
  }
}

export class ShowContactList {
  constructor(private readonly deps: ReadDeps) {}

  async execute(input: { readonly actor: Actor; readonly contactListId: number }): Promise<ContactListView> {
    await assertListAccess(this.deps.plan, input.actor);
    const { companyId } = input.actor;
    return this.deps.presenter.view(companyId, await findList(this.deps.lists, companyId, input.contactListId));
  }
}

/** Creates an empty list (`ContactList` event, action `create`). */
export class CreateContactList {
  constructor(private readonly deps: WriteDeps) {}

  async execute(input: { readonly actor: Actor; readonly name: string }): Promise<ContactListView> {
    const { lists, presenter, plan, clock, realtime } = this.deps;
    await assertListAccess(plan, input.actor);
    const { companyId } = input.actor;
    const name = cleanContactListName(input.name);
    const now = clock.now();
    const view = await presenter.view(companyId, await lists.add({ companyId, name, createdAt: now, updatedAt: now }));
    await realtime.publish(companyId, { entity: 'ContactList', data: { action: 'create', record: view } });
    return view;
  }
}

/** Renames a list (`ContactList` event, action `update`); without a name it changes nothing. */
export class UpdateContactList {
  constructor(private readonly deps: WriteDeps) {}

  async execute(input: { readonly actor: Actor; readonly contactListId: number; readonly name?: string }): Promise<ContactListView> {
    const { lists, presenter, plan, clock, realtime } = this.deps;
    await assertListAccess(plan, input.actor);
    const { companyId } = input.actor;
    const list = await findList(lists, companyId, input.contactListId);
    if (input.name === undefined) return presenter.view(companyId, list);
    const next = { ...list, name: cleanContactListName(input.name), updatedAt: clock.now() };
    await lists.update(next);
    const view = await presenter.view(companyId, next);
    await realtime.publish(companyId, { entity: 'ContactList', data: { action: 'update', record: view } });
    return view;
  }
}

/**
 * Deletes a list with its items (`ContactList` event, action `delete`). Refused with 409
 * `ERR_CONTACT_LIST_IN_USE` while a campaign that has not started yet would read it.
 */
export class DeleteContactList {
  constructor(private readonly deps: { lists: ContactLists; usage: ContactListUsage; plan: ContactListPlan; realtime: RealtimeEvents<ContactListEvent> }) {}

  async execute(input: { readonly actor: Actor; readonly contactListId: number }): Promise<void> {
    const { lists, usage, plan, realtime } = this.deps;
    await assertListAccess(plan, input.actor);
    const { companyId } = input.actor;
    const list = await findList(lists, companyId, input.contactListId);
    const readers = await usage.campaignsReading(companyId, list.id);
    if (readers.length) throw new ConflictError('ERR_CONTACT_LIST_IN_USE', { campaigns: readers });
    await lists.remove(companyId, list.id);
    await realtime.publish(companyId, { entity: 'ContactList', data: { action: 'delete', id: list.id } });
  }
}
