import type { Actor } from '../shared/actor.js';
import type { Contact } from './contact.js';
import type { Contacts } from './ports.js';
import { NotFoundError } from '../shared/errors.js';
import { dayEnd, dayStart } from '../shared/days.js';
import { hasMore, pageFromNumber } from '../shared/paging.js';
import type { Tags } from '../tags/ports.js';
import { toTagSummary, type TagSummary } from '../tags/tag.js';
import { toContactView, type ContactChoice, type ContactListRow, type ContactDetails, type ContactPresenter, type ContactView } from './contact-view.js';

export const CONTACTS_PAGE_SIZE = 20;
export const MAX_CONTACT_CHOICES = 5000;

/** The actor's company's contact (404 `ERR_NO_CONTACT_FOUND` otherwise, also for another company's). */
export async function contactOf(contacts: Contacts, actor: Actor, contactId: number): Promise<Contact> {
  const contact = await contacts.findById(actor.companyId, contactId);
  if (!contact) throw new NotFoundError('ERR_NO_CONTACT_FOUND');
  return contact;
}

export interface ListContactsResult {
  readonly contacts: ContactListRow[];
  readonly count: number;
  readonly hasMore: boolean;
}

export interface ListContactsInput {
  readonly actor: Actor;
  readonly searchParam?: string;
  readonly pageNumber?: number;
  /** The lineage's `contactTag`: contacts with any of these tags. */
  readonly tagIds?: readonly number[];
  readonly isGroup?: boolean;
  /** The lineage dashboard's `dateStart`/`dateEnd` (`YYYY-MM-DD`, UTC days, both included): contacts created within. */
  readonly dateStart?: string;
  readonly dateEnd?: string;
}

/**
 * `GET /contacts`: a page of the company's contacts by name, searchable by name, e-mail or number,
 * filtered by tags or by group; each row carries its tags when the use case is given the `tags` port.
 */
export class ListContacts {
  constructor(private readonly deps: { contacts: Contacts; tags?: Tags }) {}

  async execute(input: ListContactsInput): Promise<ListContactsResult> {
    const page = pageFromNumber(input.pageNumber, CONTACTS_PAGE_SIZE);
    const companyId = input.actor.companyId;
    const found = await this.deps.contacts.list({
      companyId,
      search: input.searchParam,
      page,
      ...(input.tagIds?.length ? { tagIds: input.tagIds } : {}),
      ...(input.isGroup === undefined ? {} : { isGroup: input.isGroup }),
      ...(input.dateStart ? { createdFrom: dayStart(input.dateStart) } : {}),
      ...(input.dateEnd ? { createdBefore: dayEnd(input.dateEnd) } : {}),
    });
    const tagsOf = this.deps.tags
      ? await this.deps.tags.tagsOfContacts(
          companyId,
          found.rows.map((c) => c.id),
        )
      : null;
    const contacts = found.rows.map((c): ContactListRow => {
      const view = toContactView(c);
      return tagsOf ? { ...view, tags: (tagsOf.get(c.id) ?? []).map(toTagSummary) } : view;
    });
    return { contacts, count: found.count, hasMore: hasMore(page, found.count) };
  }
}

/** `GET /contacts/list`: id, name and number of the company's contacts by name, for pickers (at most `limit`). */
export class ListContactChoices {
  constructor(private readonly deps: { contacts: Contacts }) {}

  async execute(input: { actor: Actor; searchParam?: string; limit?: number }): Promise<ContactChoice[]> {
    const limit = Math.min(input.limit ?? 1000, MAX_CONTACT_CHOICES);
    const found = await this.deps.contacts.list({ companyId: input.actor.companyId, search: input.searchParam, page: { offset: 0, limit } });
    return found.rows.map((c) => ({ id: c.id, name: c.name, number: c.number }));
  }
}

/** `GET /contacts/:contactId`: the contact with its identifiers and tags. */
export class ShowContact {
  constructor(private readonly deps: { contacts: Contacts; presenter: ContactPresenter }) {}

  async execute(input: { actor: Actor; contactId: number }): Promise<ContactDetails> {
    return this.deps.presenter.details(await contactOf(this.deps.contacts, input.actor, input.contactId));
  }
}

/** `GET /contactTags/:contactId`: the contact's tags, by name. */
export class ListContactTags {
  constructor(private readonly deps: { contacts: Contacts; tags: Tags }) {}

  async execute(input: { actor: Actor; contactId: number }): Promise<TagSummary[]> {
    const contact = await contactOf(this.deps.contacts, input.actor, input.contactId);
    return ((await this.deps.tags.tagsOfContacts(contact.companyId, [contact.id])).get(contact.id) ?? []).map(toTagSummary);
  }
}
