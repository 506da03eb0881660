import type { Actor } from '../shared/actor.js';
import { ConflictError, NotFoundError } from '../shared/errors.js';
import type { Clock, Transaction } from '../shared/ports.js';
import type { Contact } from './contact.js';
import type { Contacts } from './ports.js';

/**
 * One change of a contact's wallet (`walletUserId`: the user who owns the contact, its responsible
 * seller), kept as history. User ids stay as written when a user is later deleted.
 */
export interface WalletAssignment {
  id: number;
  companyId: number;
  contactId: number;
  /** The new owner; null: the contact was left without one. */
  userId: number | null;
  previousUserId: number | null;
  /** Who made the change (from the token). */
  assignedBy: number;
  assignedAt: Date;
}

export interface WalletChange {
  readonly companyId: number;
  readonly contactId: number;
  readonly userId: number | null;
  /** The owner the caller's checks saw: the change is made only while it still is the owner. */
  readonly expectedUserId: number | null;
  readonly assignedBy: number;
  readonly at: Date;
}

/**
 * The contacts' wallets and their history. `assign` sets only the contact's owner (and
 * `updatedAt`), so it races with no other edit of the contact; inside a transaction the contact's
 * row stays locked until it ends, so changes of one contact's owner take turns.
 */
export interface WalletAssignments {
  /**
   * Gives the contact to `userId` (or to nobody) and records the change, when the contact's owner
   * is still `expectedUserId`. Null when the contact is absent (another company's too) or its owner
   * was another one: nothing is written.
   */
  assign(change: WalletChange): Promise<WalletAssignment | null>;
  /** The contact's latest change (by time, then id), or null when it never changed. */
  latest(companyId: number, contactId: number): Promise<WalletAssignment | null>;
}

/**
 * Gives `contact` (as the caller's checks read it) to a user, or to nobody, and records who did it
 * and when, in one transaction. Its owner must not have changed since it was read: else 409
 * `ERR_CONTACT_SELLER_CHANGED` (404 when it was deleted meanwhile). Giving a contact to its owner
 * again writes nothing. Answers the contact as it is now and whether its owner changed.
 */
export async function assignWallet(
  deps: { contacts: Contacts; wallets: WalletAssignments; tx: Transaction; clock: Clock },
  actor: Actor,
  contact: Contact,
  userId: number | null,
): Promise<{ contact: Contact; changed: boolean }> {
  if (contact.walletUserId === userId) return { contact, changed: false };
  const at = deps.clock.now();
  const recorded = await deps.tx.run(() =>
    deps.wallets.assign({
      companyId: contact.companyId,
      contactId: contact.id,
      userId,
      expectedUserId: contact.walletUserId,
      assignedBy: actor.userId,
      at,
    }),
  );
  if (!recorded) {
    if (!(await deps.contacts.findById(contact.companyId, contact.id))) throw new NotFoundError('ERR_NO_CONTACT_FOUND');
    throw new ConflictError('ERR_CONTACT_SELLER_CHANGED');
  }
  // Read again: the contact's other fields may have been edited meanwhile.
  const now = await deps.contacts.findById(contact.companyId, contact.id);
  return { contact: now ?? { ...contact, walletUserId: userId, updatedAt: at }, changed: true };
}
