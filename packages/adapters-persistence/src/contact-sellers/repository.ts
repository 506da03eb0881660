import type { MikroORM } from '@mikro-orm/core';
import type { WalletAssignment, WalletAssignments, WalletChange } from '@servicedesk/core/contacts/wallet';
import { MikroOrmRepository } from '../shared/context.js';
import { WalletAssignmentSchema } from './schema.js';

const READ = { disableIdentityMap: true } as const;

/**
 * The contacts' owners (`contacts.wallet_user_id`, the column the contacts repository maps) and
 * their history. `assign` locks the contact's row before it compares, so changes take turns.
 */
export class MikroOrmWalletAssignments extends MikroOrmRepository implements WalletAssignments {
  async assign(c: WalletChange): Promise<WalletAssignment | null> {
    const [row] = await this.em.execute<Array<{ wallet_user_id: number | null }>>(
      'select wallet_user_id from contacts where company_id = ? and id = ? for update',
      [c.companyId, c.contactId],
    );
    if (!row || (row.wallet_user_id ?? null) !== c.expectedUserId) return null;
    await this.em.execute('update contacts set wallet_user_id = ?, updated_at = ? where id = ?', [c.userId, c.at, c.contactId]);
    const record = {
      companyId: c.companyId,
      contactId: c.contactId,
      userId: c.userId,
      previousUserId: c.expectedUserId,
      assignedBy: c.assignedBy,
      assignedAt: c.at,
    };
    const id = (await this.em.insert(WalletAssignmentSchema, { ...record } as WalletAssignment)) as number;
    return { ...record, id };
  }

  async latest(companyId: number, contactId: number) {
    return this.em.findOne(WalletAssignmentSchema, { companyId, contactId }, { ...READ, orderBy: [{ assignedAt: 'desc' }, { id: 'desc' }] });
  }
}

/** The contact sellers' table on one database. */
export const contactSellersRepositories = (orm: MikroORM) => ({ walletAssignments: new MikroOrmWalletAssignments(orm) });
