import { contactSellerRoutes } from '@servicedesk/adapters-http';
import { createContactSellers, type ContactSellersApi } from '@servicedesk/core/compose/contact-sellers';
import { feature, type Feature } from './feature.js';
import { PERSISTENCE_FEATURES, tablesOf } from '@servicedesk/adapters-persistence/features';

/**
 * Contact sellers (`/contact-sellers`): a contact's responsible seller is the owner of its wallet;
 * this feature provides the wallets' history (`walletAssignments`), which `/contact-wallet` writes too.
 */
export const contactSellers: Feature<object, { contactSellers: ContactSellersApi }> = feature({
  name: 'contact-sellers',
  ...tablesOf(PERSISTENCE_FEATURES.contactSellers),
  ports: ({ infra }) => PERSISTENCE_FEATURES.contactSellers.repositories(infra.db.orm),
  api: (ports) => ({ contactSellers: createContactSellers(ports) }),
  routes: (app) => contactSellerRoutes(app),
});
