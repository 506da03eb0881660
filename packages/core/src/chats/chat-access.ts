import type { Users } from '../identity/ports.js';
import type { Actor } from '../shared/actor.js';
import { ForbiddenError, NotFoundError } from '../shared/errors.js';
import type { PlanFeature } from '../tenancy/plan.js';
import type { Chat } from './chat.js';
import type { Chats } from './ports.js';

/** The plan check (403 `ERR_PLAN_FEATURE_DISABLED` without internal chat); `PlanGuard` is one. */
export interface ChatPlan {
  assertFeature(companyId: number, feature: PlanFeature): Promise<void>;
}

/** Any user of a company whose plan has internal chat; what they see of it is their chats only. */
export async function assertChatAccess(plan: ChatPlan, actor: Actor): Promise<void> {
  await plan.assertFeature(actor.companyId, 'internalChat');
}

/**
 * The caller's chat, by id or uuid: 404 `ERR_NO_CHAT_FOUND` when the company has none such or the
 * caller is not one of its members (a non-member cannot tell that it exists).
 */
export async function memberChat(deps: { chats: Chats; plan: ChatPlan }, actor: Actor, chat: number | string): Promise<Chat> {
  await assertChatAccess(deps.plan, actor);
  const found = typeof chat === 'number' ? await deps.chats.findById(actor.companyId, chat) : await deps.chats.findByUuid(actor.companyId, chat);
  if (!found || !(await deps.chats.isMember(actor.companyId, found.id, actor.userId))) throw new NotFoundError('ERR_NO_CHAT_FOUND');
  return found;
}

/** Only the owner renames a chat, changes its members or deletes it (403 `ERR_NO_PERMISSION` for the other members). */
export function assertOwner(actor: Actor, chat: Chat): void {
  if (chat.ownerId !== actor.userId) throw new ForbiddenError('ERR_NO_PERMISSION');
}

/** Every id must be a user of the company (404 `ERR_NO_USER_FOUND` otherwise, also for another company's user). */
export async function assertCompanyUsers(users: Users, companyId: number, userIds: readonly number[]): Promise<void> {
  const known = new Set((await users.listAll(companyId)).map((u) => u.id));
  if (userIds.some((id) => !known.has(id))) throw new NotFoundError('ERR_NO_USER_FOUND');
}
