import { cleanContactEmail, cleanContactName, cleanContactNumber } from '../contacts/contact-rules.js';
import { canonicalPhone } from '../contacts/phone-numbers.js';
import type { Actor } from '../shared/actor.js';
import { hasMore, pageFromNumber } from '../shared/paging.js';
import type { Clock } from '../shared/ports.js';
import type { RealtimeEvents } from '../realtime/ports.js';
import { assertListAccess, findItem, findList, type ContactListPlan } from './contact-list-access.js';
import type { ContactListEvent, ContactListItemEvent } from './contact-list-events.js';
import { toItemView, type ContactListItemView, type ContactListPresenter } from './contact-list-view.js';
import { cleanVariables, type ContactListItem } from './contact-list.js';
import type { ContactListItems, ContactLists } from './ports.js';

/** The fields of an item's form; on an edit, those left out stay as they are. */
export interface ItemFields {
  readonly name?: string;
  readonly number?: string;
  readonly email?: string | null;
  readonly variables?: Readonly<Record<string, string>>;
}

interface ReadDeps {
  lists: ContactLists;
  items: ContactListItems;
  plan: ContactListPlan;
}
interface WriteDeps extends ReadDeps {
  presenter: ContactListPresenter;
  clock: Clock;
  realtime: RealtimeEvents<ContactListEvent | ContactListItemEvent>;
}

/** `GET /contact-list-items`: a page (20) by name, of one list or of all, `searchParam` in the name or number, as `{contacts, count, hasMore}`. */
export class ListContactListItems {
  constructor(private readonly deps: ReadDeps) {}

  async execute(input: { readonly actor: Actor; readonly contactListId?: number; readonly searchParam?: string; readonly pageNumber?: number }) {
    const { lists, items, plan } = this.deps;
    await assertListAccess(plan, input.actor);
    const { companyId } = input.actor;
    if (input.contactListId !== undefined) await findList(lists, companyId, input.contactListId);
    const page = pageFromNumber(input.pageNumber);
    const found = await items.page({
      companyId,
      page,
      ...(input.contactListId !== undefined ? { contactListId: input.contactListId } : {}),
      ...(input.searchParam?.trim() ? { search: input.searchParam } : {}),
    });
    return { contacts: found.rows.map(toItemView), count: found.count, hasMore: hasMore(page, found.count) };
  }
}

/** `GET /contact-list-items/list`: every item of one list of the caller's company. */
export class ListAllContactListItems {
  constructor(private readonly deps: ReadDeps) {}

  async execute(input: { readonly actor: Actor; readonly contactListId: number }): Promise<ContactListItemView[]> {
    const { lists, items, plan } = this.deps;
    await assertListAccess(plan, input.actor);
    const list = await findList(lists, input.actor.companyId, input.contactListId);
    return (await items.all(input.actor.companyId, list.id)).map(toItemView);
  }
}

export class ShowContactListItem {
  constructor(private readonly deps: ReadDeps) {}

  async execute(input: { readonly actor: Actor; readonly itemId: number }): Promise<ContactListItemView> {
    await assertListAccess(this.deps.plan, input.actor);
    return toItemView(await findItem(this.deps.items, input.actor.companyId, input.itemId));
  }
}

/** After an item changed: the item's event, then its list's (its counts changed). */
async function announce(deps: WriteDeps, item: ContactListItem, action: 'create' | 'update'): Promise<ContactListItemView> {
  const view = toItemView(item);
  await deps.realtime.publish(item.companyId, { entity: 'ContactListItem', data: { action, record: view } });
  await announceList(deps, item.companyId, item.contactListId);
  return view;
}

async function announceList(deps: WriteDeps, companyId: number, contactListId: number) {
  const list = await deps.lists.findById(companyId, contactListId);
  if (list) await deps.realtime.publish(companyId, { entity: 'ContactList', data: { action: 'update', record: await deps.presenter.view(companyId, list) } });
}

/**
 * Adds a number to a list; it waits for the number check as `unknown`. 409
 * `ERR_CONTACT_LIST_ITEM_DUPLICATE` when the list has the number (in its canonical form) already.
 */
export class CreateContactListItem {
  constructor(private readonly deps: WriteDeps) {}

  async execute(input: ItemFields & { readonly actor: Actor; readonly contactListId: number }): Promise<ContactListItemView> {
    const { lists, items, plan, clock } = this.deps;
    await assertListAccess(plan, input.actor);
    const { companyId } = input.actor;
    const list = await findList(lists, companyId, input.contactListId);
    const number = cleanContactNumber(input.number ?? '');
    const now = clock.now();
    const item = await items.add({
      companyId,
      contactListId: list.id,
      name: cleanContactName(input.name ?? '', number),
      number,
      canonicalNumber: canonicalPhone(number),
      email: cleanContactEmail(input.email) ?? '',
      isGroup: false,
      validity: 'unknown',
      validatedAt: null,
      validationError: null,
      variables: cleanVariables(input.variables ?? {}),
      createdAt: now,
      updatedAt: now,
    });
    return announce(this.deps, item, 'create');
  }
}

/** Edits an item; a new number is checked again (`unknown`). 409 `ERR_CONTACT_LIST_ITEM_DUPLICATE` as on creation. */
export class UpdateContactListItem {
  constructor(private readonly deps: WriteDeps) {}

  async execute(input: ItemFields & { readonly actor: Actor; readonly itemId: number }): Promise<ContactListItemView> {
    const { items, plan, clock } = this.deps;
    await assertListAccess(plan, input.actor);
    const item = await findItem(items, input.actor.companyId, input.itemId);
    const next: ContactListItem = { ...item, updatedAt: clock.now() };
    if (input.number !== undefined) {
      const number = cleanContactNumber(input.number);
      if (number !== item.number) {
        Object.assign(next, { number, canonicalNumber: canonicalPhone(number), validity: 'unknown', validatedAt: null, validationError: null });
      }
    }
    if (input.name !== undefined) next.name = cleanContactName(input.name, next.number);
    if (input.email !== undefined) next.email = cleanContactEmail(input.email) ?? '';
    if (input.variables !== undefined) next.variables = cleanVariables(input.variables);
    await items.update(next);
    return announce(this.deps, next, 'update');
  }
}

/** Removes an item (`ContactListItem` event, action `delete`, with its id and list). */
export class DeleteContactListItem {
  constructor(private readonly deps: WriteDeps) {}

  async execute(input: { readonly actor: Actor; readonly itemId: number }): Promise<void> {
    const { items, plan, realtime } = this.deps;
    await assertListAccess(plan, input.actor);
    const item = await findItem(items, input.actor.companyId, input.itemId);
    await items.remove(item.companyId, item.id);
    await realtime.publish(item.companyId, { entity: 'ContactListItem', data: { action: 'delete', id: item.id, contactListId: item.contactListId } });
    await announceList(this.deps, item.companyId, item.contactListId);
  }
}
