import { AssignSeller, ListSellers, ShowResponsibleSeller } from '../contact-sellers/manage-sellers.js';
import type { WalletAssignments } from '../contacts/wallet.js';
import type { SharedPorts } from './shared-ports.js';

/** The contact sellers' own port: the contacts' owners and their history (`/contact-wallet` writes through it too). */
export interface ContactSellerPorts {
  readonly walletAssignments: WalletAssignments;
}

/** Contact sellers: who is responsible for a contact (its wallet's owner), read and assigned. */
export function createContactSellers(p: ContactSellerPorts & SharedPorts) {
  const { walletAssignments: wallets, contacts, users, realtime, tx, clock } = p;
  return {
    listSellers: new ListSellers({ users }),
    showResponsibleSeller: new ShowResponsibleSeller({ contacts, users, wallets }),
    assignSeller: new AssignSeller({ contacts, users, wallets, tx, clock, realtime }),
  };
}
export type ContactSellersApi = ReturnType<typeof createContactSellers>;
