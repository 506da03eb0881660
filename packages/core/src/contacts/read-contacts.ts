import type { Actor } from '../shared/actor.js';
import type { Contact } from './contact.js';
import type { Contacts } from './ports.js';
import { NotFoundError } from '../shared/errors.js';
import { hasMore, pageFromNumber } from '../shared/paging.js';
import type { Tags } from '../tags/ports.js';
import { toTagSummary, type TagSummary } from '../tags/tag.js';
import { toContactView, type ContactChoice, type ContactDetails, type ContactPresenter, type ContactView } from './contact-view.js';

export const CONTACTS_PAGE_SIZE = 20;
export const MAX_CONTACT_CHOICES = 5000;

/** The actor's company's contact (404 `ERR_NO_CONTACT_FOUND` otherwise, also for another company's). */
export async function contactOf(contacts: Contacts, actor: Actor, contactId: number): Promise<Contact> {
  const contact = await contacts.findById(actor.companyId, contactId);
  if (!contact) throw new NotFoundError('ERR_NO_CONTACT_FOUND');
  return contact;
}

export interface ListContactsResult { readonly contacts: ContactView[]; readonly count: number; readonly hasMore: boolean; }

/** `GET /contacts`: a page of the company's contacts by name, searchable by name, e-mail or number. */
export class ListContacts {
  constructor(private readonly deps: { contacts: Contacts }) {}

  async execute(input: { actor: Actor; searchParam?: string; pageNumber?: number }): Promise<ListContactsResult> {
    const page = pageFromNumber(input.pageNumber, CONTACTS_PAGE_SIZE);
    const found = await this.deps.contacts.list({ companyId: input.actor.companyId, search: input.searchParam, page });
    return { contacts: found.rows.map(toContactView), count: found.count, hasMore: hasMore(page, found.count) };
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
