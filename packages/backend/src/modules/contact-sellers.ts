import { contactSellerRoutes } from '@servicedesk/adapters-http';
import { contactSellersRepositories, FEATURE_TABLES } from '@servicedesk/adapters-persistence';
import { createContactSellers, type ContactSellersApi } from '@servicedesk/core/compose/contact-sellers';
import { feature, type Feature } from './feature.js';

/**
 * Contact sellers (`/contact-sellers`): a contact's responsible seller is the owner of its wallet;
 * this feature provides the wallets' history (`walletAssignments`), which `/contact-wallet` writes too.
 */
export const contactSellers: Feature<object, { contactSellers: ContactSellersApi }> = feature({
  name: 'contact-sellers',
  ...FEATURE_TABLES.contactSellers,
  ports: ({ infra }) => contactSellersRepositories(infra.db.orm),
  api: (ports) => ({ contactSellers: createContactSellers(ports) }),
  routes: (app) => contactSellerRoutes(app),
});
