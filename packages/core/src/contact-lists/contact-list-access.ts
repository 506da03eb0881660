import { assertAdmin, type Actor } from '../shared/actor.js';
import { NotFoundError } from '../shared/errors.js';
import type { PlanFeature } from '../tenancy/plan.js';
import type { ContactList, ContactListItem } from './contact-list.js';
import type { ContactListItems, ContactLists } from './ports.js';

/** The plan check (403 `ERR_PLAN_FEATURE_DISABLED` without the campaigns feature); `PlanGuard` is one. */
export interface ContactListPlan {
  assertFeature(companyId: number, feature: PlanFeature): Promise<void>;
}

/**
 * Contact lists serve campaigns: like the campaign routes, they are for admins (403
 * `ERR_NO_PERMISSION`) of companies whose plan has campaigns.
 */
export async function assertListAccess(plan: ContactListPlan, actor: Actor): Promise<void> {
  assertAdmin(actor);
  await plan.assertFeature(actor.companyId, 'campaigns');
}

/** The company's list, or 404 `ERR_NO_CONTACT_LIST_FOUND` (also for another company's). */
export async function findList(lists: ContactLists, companyId: number, id: number): Promise<ContactList> {
  const list = await lists.findById(companyId, id);
  if (!list) throw new NotFoundError('ERR_NO_CONTACT_LIST_FOUND');
  return list;
}

/** The company's item, or 404 `ERR_NO_CONTACT_LIST_ITEM_FOUND` (also for another company's). */
export async function findItem(items: ContactListItems, companyId: number, id: number): Promise<ContactListItem> {
  const item = await items.findById(companyId, id);
  if (!item) throw new NotFoundError('ERR_NO_CONTACT_LIST_ITEM_FOUND');
  return item;
}
