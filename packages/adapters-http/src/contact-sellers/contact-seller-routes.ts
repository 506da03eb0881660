import type { Application } from '@servicedesk/core';
import { z } from 'zod';
import { route } from '../http/route.js';
import { id, idParam } from '../http/schemas.js';
import { responsibleSellerSchema, sellerListSchema } from './contact-seller-schemas.js';

export const CONTACT_SELLERS_TAG = 'Contact sellers';

type SellersApp = Pick<Application, 'contactSellers'>;

/**
 * Contact sellers (`/contact-sellers`): who is responsible for a contact — the owner of its wallet
 * (`walletUserId`, also set by `PUT /contact-wallet/:contactId`) — read and assigned, each change
 * recorded. Events: `company-<id>-contact` `update`, as contact edits.
 */
export function contactSellerRoutes(app: SellersApp) {
  const tag = CONTACT_SELLERS_TAG;
  const s = app.contactSellers;
  const byContactId = idParam('contactId');
  return [
    route({
      method: 'GET',
      path: '/contact-sellers/sellers',
      auth: 'isAuth',
      tag,
      summary: 'The users who can be responsible for contacts',
      description: 'Any operator. Every user of the company (profiles `user` and `admin`), by name, as `[{id, name, email, profile}]`.',
      response: sellerListSchema,
      handler: async ({ actor }) => s.listSellers.execute({ actor }),
    }),
    route({
      method: 'GET',
      path: '/contact-sellers/responsible/:contactId',
      auth: 'isAuth',
      tag,
      summary: "A contact's responsible seller, since when and by whom",
      description: "Any operator. Another company's contact is 404.",
      params: byContactId,
      response: responsibleSellerSchema,
      errors: [{ status: 404, codes: ['ERR_NO_CONTACT_FOUND'] }],
      handler: async ({ actor, params }) => s.showResponsibleSeller.execute({ actor, contactId: params.contactId }),
    }),
    route({
      method: 'PUT',
      path: '/contact-sellers/assign/:contactId',
      auth: 'isAuth',
      tag,
      summary: "Assign a contact's responsible seller, or release it",
      description:
        '`{userId}` (a user of the company) or `{userId: null}`. Admins assign any contact; a user takes a contact nobody owns for themselves, and hands ' +
        'one they own to another user or to nobody. Each change is recorded (who, when) and emits `contact` `update`; the same seller again changes nothing. ' +
        'With the setting `DirectTicketsToWallets`, new conversations of the contact open assigned to its seller.',
      params: byContactId,
      body: z.object({ userId: id.nullable().meta({ description: 'The new seller; null: none' }) }).meta({ example: { userId: 5 } }),
      response: responsibleSellerSchema,
      errors: [
        { status: 403, codes: ['ERR_NO_PERMISSION'], description: 'A user assigning a contact someone else owns, or giving an unowned one to another' },
        { status: 404, codes: ['ERR_NO_CONTACT_FOUND', 'ERR_NO_USER_FOUND'] },
        { status: 409, codes: ['ERR_CONTACT_SELLER_CHANGED'], description: "Another change of the contact's seller came first" },
      ],
      handler: async ({ actor, params, body }) => s.assignSeller.execute({ actor, contactId: params.contactId, userId: body.userId }),
    }),
  ];
}
