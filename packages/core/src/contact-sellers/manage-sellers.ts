import type { ContactEvent } from '../contacts/contact-events.js';
import { publishContact } from '../contacts/contact-view.js';
import type { Contact } from '../contacts/contact.js';
import type { Contacts } from '../contacts/ports.js';
import { contactOf } from '../contacts/read-contacts.js';
import { assignWallet, type WalletAssignments } from '../contacts/wallet.js';
import type { Users } from '../identity/ports.js';
import { toWireProfile, type WireProfile } from '../identity/user.js';
import type { RealtimeEvents } from '../realtime/ports.js';
import { isAdmin, type Actor } from '../shared/actor.js';
import { ForbiddenError, NotFoundError } from '../shared/errors.js';
import type { Clock, Transaction } from '../shared/ports.js';
import { foldForSearch } from '../shared/text.js';

/** A user who can be a contact's responsible seller. */
export interface SellerView {
  readonly id: number;
  readonly name: string;
  readonly email: string;
  readonly profile: WireProfile;
}

export interface NamedUser {
  readonly id: number;
  readonly name: string;
}

/** Who is responsible for a contact now, since when, and who made them so. */
export interface ResponsibleSellerView {
  readonly contactId: number;
  readonly seller: NamedUser | null;
  /** When the current seller (or, with none, the contact's release) was assigned; null when no record says. */
  readonly since: string | null;
  readonly assignedBy: NamedUser | null;
}

interface ReadDeps {
  contacts: Contacts;
  users: Users;
  wallets: WalletAssignments;
}

/**
 * `GET /contact-sellers/sellers`: every user of the company (profiles user and admin; a super user
 * is an admin here), by name: any of them may own contacts. Any operator reads it.
 */
export class ListSellers {
  constructor(private readonly deps: Pick<ReadDeps, 'users'>) {}

  async execute(input: { readonly actor: Actor }): Promise<SellerView[]> {
    const users = await this.deps.users.listAll(input.actor.companyId);
    return users
      .map((u) => ({ id: u.id, name: u.name, email: u.email, profile: toWireProfile(u.profile), key: foldForSearch(u.name) }))
      .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : a.id - b.id))
      .map(({ key: _key, ...seller }) => seller);
  }
}

async function responsibleOf(deps: ReadDeps, contact: Contact): Promise<ResponsibleSellerView> {
  const { users, wallets } = deps;
  const named = async (id: number | null) => {
    const user = id === null ? null : await users.findById(contact.companyId, id);
    return user ? { id: user.id, name: user.name } : null;
  };
  const latest = await wallets.latest(contact.companyId, contact.id);
  // A record of another owner says nothing of the current one (set before records were kept).
  const current = latest && latest.userId === contact.walletUserId ? latest : null;
  return {
    contactId: contact.id,
    seller: await named(contact.walletUserId),
    since: current?.assignedAt.toISOString() ?? null,
    assignedBy: current ? await named(current.assignedBy) : null,
  };
}

/** `GET /contact-sellers/responsible/:contactId`: any operator (as they read contacts); another company's contact is 404. */
export class ShowResponsibleSeller {
  constructor(private readonly deps: ReadDeps) {}

  async execute(input: { readonly actor: Actor; readonly contactId: number }): Promise<ResponsibleSellerView> {
    return responsibleOf(this.deps, await contactOf(this.deps.contacts, input.actor, input.contactId));
  }
}

/**
 * Admins give any contact to any user of the company, or to nobody. A user takes a contact nobody
 * owns for themselves, and hands a contact they own to another user or to nobody; anything else is
 * 403 `ERR_NO_PERMISSION`.
 */
function assertMayAssign(actor: Actor, contact: Contact, userId: number | null): void {
  if (isAdmin(actor) || contact.walletUserId === actor.userId) return;
  if (contact.walletUserId === null && userId === actor.userId) return;
  throw new ForbiddenError('ERR_NO_PERMISSION');
}

/**
 * `PUT /contact-sellers/assign/:contactId`: the contact's responsible seller, the owner of its
 * wallet (`walletUserId`), which new conversations are routed to with `DirectTicketsToWallets`.
 * The user must be one of the company's (404 `ERR_NO_USER_FOUND`). Each change is recorded (who,
 * when) and emits `contact` (`update`); assigning the current seller again changes nothing.
 */
export class AssignSeller {
  constructor(private readonly deps: ReadDeps & { tx: Transaction; clock: Clock; realtime: RealtimeEvents<ContactEvent> }) {}

  async execute(input: { readonly actor: Actor; readonly contactId: number; readonly userId: number | null }): Promise<ResponsibleSellerView> {
    const { actor, userId } = input;
    const contact = await contactOf(this.deps.contacts, actor, input.contactId);
    if (userId !== null && !(await this.deps.users.findById(actor.companyId, userId))) throw new NotFoundError('ERR_NO_USER_FOUND');
    assertMayAssign(actor, contact, userId);
    const assigned = await assignWallet(this.deps, actor, contact, userId);
    if (assigned.changed) await publishContact(this.deps.realtime, assigned.contact, 'update');
    return responsibleOf(this.deps, assigned.contact);
  }
}
