import type { WalletAssignment, WalletAssignments, WalletChange } from '../contacts/wallet.js';
import type { InMemoryContacts } from './contacts.js';
import { InMemoryTable } from './table.js';

/**
 * The contacts' owners and their history, on the in-memory contacts: the history of a removed
 * contact is gone with it, as the SQL foreign key does. No method awaits between its check and its
 * writes, so concurrent changes of one contact take turns.
 */
export class InMemoryWalletAssignments implements WalletAssignments {
  readonly table = new InMemoryTable<WalletAssignment>();

  constructor(private readonly contacts: InMemoryContacts) {}

  async assign(c: WalletChange) {
    const contact = this.contacts.table.get(c.contactId);
    if (!contact || contact.companyId !== c.companyId || contact.walletUserId !== c.expectedUserId) return null;
    this.contacts.table.replace({ ...contact, walletUserId: c.userId, updatedAt: c.at });
    return this.table.insert({
      companyId: c.companyId,
      contactId: c.contactId,
      userId: c.userId,
      previousUserId: contact.walletUserId,
      assignedBy: c.assignedBy,
      assignedAt: c.at,
    });
  }

  async latest(companyId: number, contactId: number) {
    if (this.contacts.table.get(contactId)?.companyId !== companyId) return null;
    const rows = this.table
      .filter((a) => a.companyId === companyId && a.contactId === contactId)
      .sort((a, b) => b.assignedAt.getTime() - a.assignedAt.getTime() || b.id - a.id);
    return rows[0] ?? null;
  }
}
