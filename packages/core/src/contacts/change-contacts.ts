import { isAdmin, type Actor } from '../shared/actor.js';
import type { Contact } from './contact.js';
import type { Contacts } from './ports.js';
import { ConflictError, ForbiddenError, ValidationError } from '../shared/errors.js';
import type { Clock, Transaction } from '../shared/ports.js';
import type { Tags } from '../tags/ports.js';
import { cleanContactEmail, cleanContactName, cleanContactNumber, cleanExtraInfo, cleanIdentifiers } from './contact-rules.js';
import type { ContactDetails, ContactPresenter } from './contact-view.js';
import type { ContactIdentifier } from './identifiers.js';
import { contactOf } from './read-contacts.js';

/** The editable fields of a contact form; every one optional on update. */
export interface ContactFields {
  readonly name?: string;
  readonly number?: string;
  readonly email?: string | null;
  readonly extraInfo?: ReadonlyArray<{ name: string; value: string }>;
  /** LIDs and page-scoped ids (`{ kind: 'lid' | 'psid', value, pageId }`): on update, exactly these replace the contact's. */
  readonly identifiers?: ReadonlyArray<{ kind: string; value: string; pageId?: string | null }>;
  readonly acceptAudio?: boolean;
  readonly disableBot?: boolean;
  readonly blocked?: boolean;
}

interface Deps {
  contacts: Contacts;
  presenter: ContactPresenter;
  tx: Transaction;
  clock: Clock;
}

/** `POST /contacts`: 409 `ERR_DUPLICATED_CONTACT` when the number (ninth digit or not) already reaches a contact. */
export class CreateContact {
  constructor(private readonly deps: Deps) {}

  async execute(input: { actor: Actor } & ContactFields): Promise<ContactDetails> {
    const { contacts, presenter, tx, clock } = this.deps;
    const companyId = input.actor.companyId;
    const number = cleanContactNumber(input.number ?? '');
    const name = cleanContactName(input.name ?? '', number);
    const email = cleanContactEmail(input.email);
    const extraInfo = cleanExtraInfo(input.extraInfo ?? []);
    const identifiers = cleanIdentifiers(input.identifiers ?? []);
    const contact = await tx.run(async () => {
      if (await contacts.findByNumber(companyId, number)) throw new ConflictError('ERR_DUPLICATED_CONTACT');
      const now = clock.now();
      const created = await contacts.add({
        companyId,
        name,
        number,
        email,
        isGroup: false,
        profilePicUrl: null,
        createdAt: now,
        updatedAt: now,
        extraInfo,
        acceptAudio: input.acceptAudio,
        disableBot: input.disableBot,
        blocked: input.blocked,
      });
      for (const identifier of identifiers) await contacts.linkIdentifier(companyId, created.id, identifier);
      return created;
    });
    return presenter.changed(contact, 'create');
  }
}

/** `PUT /contacts/:contactId`: changes what is given; a group keeps its number. */
export class UpdateContact {
  constructor(private readonly deps: Deps) {}

  async execute(input: { actor: Actor; contactId: number } & ContactFields): Promise<ContactDetails> {
    const { contacts, presenter, tx, clock } = this.deps;
    const current = await contactOf(contacts, input.actor, input.contactId);
    const next: Contact = { ...current, updatedAt: clock.now() };
    if (input.name !== undefined) next.name = cleanContactName(input.name);
    if (input.number !== undefined) next.number = cleanContactNumberOf(current, input.number);
    if (input.email !== undefined) next.email = cleanContactEmail(input.email);
    if (input.extraInfo !== undefined) next.extraInfo = cleanExtraInfo(input.extraInfo);
    if (input.acceptAudio !== undefined) next.acceptAudio = input.acceptAudio;
    if (input.disableBot !== undefined) next.disableBot = input.disableBot;
    if (input.blocked !== undefined) next.blocked = input.blocked;
    const identifiers = input.identifiers === undefined ? undefined : cleanIdentifiers(input.identifiers);
    await tx.run(async () => {
      if (next.number !== current.number) {
        const other = await contacts.findByNumber(current.companyId, next.number);
        if (other && other.id !== current.id) throw new ConflictError('ERR_DUPLICATED_CONTACT');
      }
      await contacts.update(next);
      if (identifiers) await replaceIdentifiers(contacts, next, identifiers);
    });
    return presenter.changed(next, 'update');
  }
}

function cleanContactNumberOf(contact: Contact, raw: string): string {
  if (contact.isGroup) {
    if (raw !== contact.number) throw new ValidationError('ERR_GROUP_NUMBER_FIXED');
    return raw;
  }
  return cleanContactNumber(raw);
}

/** Makes the contact's LIDs and page-scoped ids exactly `wanted` (its phone identifier stays). */
async function replaceIdentifiers(contacts: Contacts, contact: Contact, wanted: readonly ContactIdentifier[]) {
  const key = (i: ContactIdentifier) => `${i.kind}:${i.value}`;
  const keep = new Set(wanted.map(key));
  for (const i of await contacts.identifiersOf(contact.companyId, contact.id)) {
    if (i.kind !== 'phone' && !keep.has(key(i))) await contacts.unlinkIdentifier(contact.companyId, contact.id, i.kind, i.value);
  }
  for (const i of wanted) await contacts.linkIdentifier(contact.companyId, contact.id, i);
}

/** `DELETE /contacts/:contactId` (admins): the contact, its identifiers and tags, and its tickets with their messages. */
export class DeleteContact {
  constructor(private readonly deps: { contacts: Contacts; tags: Tags; presenter: ContactPresenter; tx: Transaction }) {}

  async execute(input: { actor: Actor; contactId: number }): Promise<void> {
    const { contacts, tags, presenter, tx } = this.deps;
    if (!isAdmin(input.actor)) throw new ForbiddenError('ERR_NO_PERMISSION');
    const contact = await contactOf(contacts, input.actor, input.contactId);
    await tx.run(async () => {
      await tags.removeContactTags(contact.companyId, contact.id);
      await contacts.remove(contact.companyId, contact.id);
    });
    await presenter.removed(contact.companyId, contact.id);
  }
}
