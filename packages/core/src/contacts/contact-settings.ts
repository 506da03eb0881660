import type { Users } from '../identity/ports.js';
import { isAdmin, type Actor } from '../shared/actor.js';
import type { Contact } from './contact.js';
import type { Contacts } from './ports.js';
import { ForbiddenError, NotFoundError } from '../shared/errors.js';
import type { Clock, Transaction } from '../shared/ports.js';
import type { ContactDetails, ContactPresenter } from './contact-view.js';
import { contactOf } from './read-contacts.js';
import { assignWallet, type WalletAssignments } from './wallet.js';

interface Deps {
  contacts: Contacts;
  presenter: ContactPresenter;
  clock: Clock;
}

/** Reads the contact, applies the change, saves it and tells the operators. */
async function change(deps: Deps, actor: Actor, contactId: number, apply: (c: Contact) => Partial<Contact>): Promise<ContactDetails> {
  const current = await contactOf(deps.contacts, actor, contactId);
  const next: Contact = { ...current, ...apply(current), updatedAt: deps.clock.now() };
  await deps.contacts.update(next);
  return deps.presenter.changed(next, 'update');
}

/** `PUT /contacts/toggleAcceptAudio/:contactId`: sets `acceptAudio`, or flips it when no value is given. */
export class ToggleAcceptAudio {
  constructor(private readonly deps: Deps) {}
  execute(input: { actor: Actor; contactId: number; acceptAudio?: boolean }) {
    return change(this.deps, input.actor, input.contactId, (c) => ({ acceptAudio: input.acceptAudio ?? !c.acceptAudio }));
  }
}

/** `PUT /contacts/toggleDisableBot/:contactId`: sets `disableBot`, or flips it when no value is given. */
export class ToggleDisableBot {
  constructor(private readonly deps: Deps) {}
  execute(input: { actor: Actor; contactId: number; disableBot?: boolean }) {
    return change(this.deps, input.actor, input.contactId, (c) => ({ disableBot: input.disableBot ?? !c.disableBot }));
  }
}

/**
 * `PUT /contacts/block/:contactId`: blocks or unblocks, or flips when no value is given. A blocked
 * contact's messages are still stored, on a closed ticket, and reach no operator.
 */
export class SetContactBlocked {
  constructor(private readonly deps: Deps) {}
  execute(input: { actor: Actor; contactId: number; blocked?: boolean }) {
    return change(this.deps, input.actor, input.contactId, (c) => ({ blocked: input.blocked ?? !c.blocked }));
  }
}

interface OwnerDeps extends Deps {
  users: Users;
}

/** Only admins hand contacts to operators or link them to users; the user must be of the company (404 otherwise). */
async function assertUserOfCompany(deps: OwnerDeps, actor: Actor, userId: number): Promise<void> {
  if (!isAdmin(actor)) throw new ForbiddenError('ERR_NO_PERMISSION');
  if (!(await deps.users.findById(actor.companyId, userId))) throw new NotFoundError('ERR_NO_USER_FOUND');
}

/**
 * `PUT /contact-wallet/:contactId` (admins): the operator who owns the contact (its responsible
 * seller), or nobody with null; the change is recorded as `/contact-sellers/assign` records it.
 */
export class SetContactWallet {
  constructor(private readonly deps: OwnerDeps & { wallets: WalletAssignments; tx: Transaction }) {}
  async execute(input: { actor: Actor; contactId: number; userId: number | null }) {
    if (input.userId === null) {
      if (!isAdmin(input.actor)) throw new ForbiddenError('ERR_NO_PERMISSION');
    } else {
      await assertUserOfCompany(this.deps, input.actor, input.userId);
    }
    const current = await contactOf(this.deps.contacts, input.actor, input.contactId);
    const { contact } = await assignWallet(this.deps, input.actor, current, input.userId);
    return this.deps.presenter.changed(contact, 'update');
  }
}

/**
 * `PUT /contacts/:contactId/link-user` (admins): the contact is that platform user (an employee's own
 * number). A user is linked to at most one contact of the company: 409 `ERR_USER_ALREADY_LINKED`.
 */
export class LinkContactUser {
  constructor(private readonly deps: OwnerDeps) {}
  async execute(input: { actor: Actor; contactId: number; userId: number }) {
    await assertUserOfCompany(this.deps, input.actor, input.userId);
    return change(this.deps, input.actor, input.contactId, () => ({ linkedUserId: input.userId }));
  }
}

/** `PUT /contacts/:contactId/unlink-user` (admins). */
export class UnlinkContactUser {
  constructor(private readonly deps: OwnerDeps) {}
  async execute(input: { actor: Actor; contactId: number }) {
    if (!isAdmin(input.actor)) throw new ForbiddenError('ERR_NO_PERMISSION');
    return change(this.deps, input.actor, input.contactId, () => ({ linkedUserId: null }));
  }
}
