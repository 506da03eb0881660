import type { RealtimeEvents } from '../realtime/ports.js';
import type { ContactEvent } from './contact-events.js';
import type { Contact } from './contact.js';
import type { Contacts } from './ports.js';
import type { Tags } from '../tags/ports.js';
import { toTagSummary, type TagSummary } from '../tags/tag.js';
import type { ContactIdentifier } from './identifiers.js';

/**
 * A contact as the API shows it, under the lineage client's names: `urlPicture` (the picture the
 * channel last gave), `acceptAudioMessage`, and `active` for "not blocked" (`blocked` stays too).
 */
export interface ContactView extends Omit<Contact, 'profilePicUrl' | 'acceptAudio' | 'createdAt' | 'updatedAt'> {
  urlPicture: string | null;
  active: boolean;
  acceptAudioMessage: boolean;
  createdAt: string;
  updatedAt: string;
}

/** A row of the contacts page: the contact with its tags (the client exports them). */
export interface ContactListRow extends ContactView {
  tags?: TagSummary[];
}

/** One contact, opened: with its identifiers and tags. */
export interface ContactDetails extends ContactView {
  identifiers: ContactIdentifier[];
  tags: TagSummary[];
}

/** What a picker needs. */
export interface ContactChoice {
  readonly id: number;
  readonly name: string;
  readonly number: string;
}

export function toContactView(c: Contact): ContactView {
  const { profilePicUrl, acceptAudio, createdAt, updatedAt, ...rest } = c;
  return {
    ...rest,
    urlPicture: profilePicUrl,
    active: !c.blocked,
    acceptAudioMessage: acceptAudio,
    createdAt: createdAt.toISOString(),
    updatedAt: updatedAt.toISOString(),
  };
}

/** Tells the company's operators (`company-<id>-contact`): `create`/`update` carry the contact, `delete` its id. */
export async function publishContact(realtime: RealtimeEvents<ContactEvent>, contact: Contact, action: 'create' | 'update'): Promise<ContactView> {
  const view = toContactView(contact);
  await realtime.publish(contact.companyId, { entity: 'contact', data: { action, contact: view } });
  return view;
}

/** Reads what a contact's details add (identifiers, tags) and tells the operators about changes. */
export class ContactPresenter {
  constructor(private readonly deps: { contacts: Contacts; tags: Tags; realtime: RealtimeEvents<ContactEvent> }) {}

  async details(contact: Contact): Promise<ContactDetails> {
    const identifiers = await this.deps.contacts.identifiersOf(contact.companyId, contact.id);
    const tags = (await this.deps.tags.tagsOfContacts(contact.companyId, [contact.id])).get(contact.id) ?? [];
    return { ...toContactView(contact), identifiers, tags: tags.map(toTagSummary) };
  }

  /** Publishes the change and answers the contact's details. */
  async changed(contact: Contact, action: 'create' | 'update'): Promise<ContactDetails> {
    await publishContact(this.deps.realtime, contact, action);
    return this.details(contact);
  }

  async removed(companyId: number, contactId: number): Promise<void> {
    await this.deps.realtime.publish(companyId, { entity: 'contact', data: { action: 'delete', contactId } });
  }
}
