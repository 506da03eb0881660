import type { Users } from '../identity/ports.js';
import { assertAdmin, type Actor } from '../shared/actor.js';
import { ConflictError, NotFoundError, ValidationError } from '../shared/errors.js';
import type { Clock } from '../shared/ports.js';
import { findQueue } from './find-queue.js';
import type { QueueOptions, Queues } from './ports.js';
import {
  byMenuOrder,
  cleanOptionKey,
  cleanOptionMessage,
  cleanOptionTitle,
  MAX_OPTION_DEPTH,
  nextOptionKey,
  type QueueOption,
  type QueueOptionKind,
} from './queue-option.js';

/** The editable fields of a menu node; on update, an absent field keeps its value. */
export interface QueueOptionFields {
  readonly queueId?: number;
  readonly parentId?: number | null;
  readonly title?: string;
  readonly message?: string | null;
  readonly option?: string;
  readonly forwardQueueId?: number | null;
  readonly forwardUserId?: number | null;
  readonly closeTicket?: boolean;
}

export interface OptionDeps {
  readonly queues: Queues;
  readonly options: QueueOptions;
  readonly users: Users;
  readonly clock: Clock;
}

/** The company's node of this kind, or 404 (`ERR_QUEUE_OPTION_NOT_FOUND`, or `ERR_CHATBOT_NOT_FOUND` for chatbots). */
export async function findOption(options: QueueOptions, companyId: number, id: number, kind: QueueOptionKind): Promise<QueueOption> {
  const found = await options.findById(companyId, id);
  if (!found || found.kind !== kind) throw new NotFoundError(kind === 'chatbot' ? 'ERR_CHATBOT_NOT_FOUND' : 'ERR_QUEUE_OPTION_NOT_FOUND');
  return found;
}

/** The nodes of one queue by id, to walk its tree in memory (menus are small). */
async function treeOf(options: QueueOptions, companyId: number, queueId: number): Promise<Map<number, QueueOption>> {
  return new Map((await options.list({ companyId, queueId })).map((o) => [o.id, o]));
}

function depthOf(tree: Map<number, QueueOption>, id: number | null): number {
  let depth = 0;
  for (let at = id === null ? undefined : tree.get(id); at; at = at.parentId === null ? undefined : tree.get(at.parentId)) depth++;
  return depth;
}

/** How many levels the node and its descendants take (1 for a leaf). */
function heightOf(tree: Map<number, QueueOption>, id: number): number {
  const children = [...tree.values()].filter((o) => o.parentId === id);
  return 1 + Math.max(0, ...children.map((c) => heightOf(tree, c.id)));
}

function isUnder(tree: Map<number, QueueOption>, id: number, ancestorId: number): boolean {
  for (let at = tree.get(id); at; at = at.parentId === null ? undefined : tree.get(at.parentId)) if (at.id === ancestorId) return true;
  return false;
}

/** At most one action: forward to a queue, forward to a user, or close. */
function checkActions(o: Pick<QueueOption, 'forwardQueueId' | 'forwardUserId' | 'closeTicket'>) {
  if ([o.forwardQueueId !== null, o.forwardUserId !== null, o.closeTicket].filter(Boolean).length > 1) throw new ValidationError('ERR_QUEUE_OPTION_ONE_ACTION');
}

async function checkTargets(deps: OptionDeps, companyId: number, input: QueueOptionFields) {
  if (input.forwardQueueId != null) await findQueue(deps.queues, companyId, input.forwardQueueId);
  if (input.forwardUserId != null && !(await deps.users.findById(companyId, input.forwardUserId))) throw new NotFoundError('ERR_NO_USER_FOUND');
}

function assertFreeKey(tree: Map<number, QueueOption>, parentId: number | null, option: string, exceptId?: number) {
  const taken = [...tree.values()].some((o) => o.parentId === parentId && o.id !== exceptId && o.option.toLowerCase() === option.toLowerCase());
  if (taken) throw new ConflictError('ERR_QUEUE_OPTION_ALREADY_EXISTS');
}

/** Lists nodes of one kind: a queue's, one level of it (`parentId`, null for the first menu), or the company's. */
export async function listOptions(
  options: QueueOptions,
  input: { readonly actor: Actor; readonly kind: QueueOptionKind; readonly queueId?: number; readonly parentId?: number | null },
) {
  const rows = await options.list({
    companyId: input.actor.companyId,
    kind: input.kind,
    ...(input.queueId !== undefined ? { queueId: input.queueId } : {}),
    ...(input.parentId !== undefined ? { parentId: input.parentId } : {}),
  });
  return rows.sort((a, b) => a.queueId - b.queueId || (a.parentId ?? 0) - (b.parentId ?? 0) || byMenuOrder(a, b));
}

/**
 * Adds a node under `parentId` (it takes the parent's queue; its kind must be the parent's) or at
 * the top of `queueId`'s menu. Without `option` it takes the next free number among its siblings.
 */
export async function createOption(
  deps: OptionDeps,
  actor: Actor,
  kind: QueueOptionKind,
  input: QueueOptionFields & { readonly title: string },
): Promise<QueueOption> {
  assertAdmin(actor);
  const companyId = actor.companyId;
  const parent = input.parentId == null ? null : await findOption(deps.options, companyId, input.parentId, kind);
  if (parent && input.queueId !== undefined && input.queueId !== parent.queueId) throw new ValidationError('ERR_QUEUE_OPTION_QUEUE_MISMATCH');
  const queueId = parent?.queueId ?? input.queueId;
  if (queueId === undefined) throw new ValidationError('ERR_QUEUE_REQUIRED');
  await findQueue(deps.queues, companyId, queueId);
  await checkTargets(deps, companyId, input);
  const tree = await treeOf(deps.options, companyId, queueId);
  const parentId = parent?.id ?? null;
  if (depthOf(tree, parentId) + 1 > MAX_OPTION_DEPTH) throw new ValidationError('ERR_QUEUE_OPTION_TOO_DEEP');
  const siblings = [...tree.values()].filter((o) => o.parentId === parentId);
  const option = input.option !== undefined ? cleanOptionKey(input.option) : nextOptionKey(siblings);
  assertFreeKey(tree, parentId, option);
  const draft = {
    companyId,
    queueId,
    parentId,
    kind,
    title: cleanOptionTitle(input.title),
    message: cleanOptionMessage(input.message),
    option,
    forwardQueueId: input.forwardQueueId ?? null,
    forwardUserId: input.forwardUserId ?? null,
    closeTicket: input.closeTicket ?? false,
  };
  checkActions(draft);
  const now = deps.clock.now();
  return deps.options.add({ ...draft, createdAt: now, updatedAt: now });
}

/** Edits a node; moving it (`parentId`) stays within its queue and kind, never under itself. */
export async function updateOption(deps: OptionDeps, actor: Actor, kind: QueueOptionKind, id: number, input: QueueOptionFields): Promise<QueueOption> {
  assertAdmin(actor);
  const companyId = actor.companyId;
  const current = await findOption(deps.options, companyId, id, kind);
  if (input.queueId !== undefined && input.queueId !== current.queueId) throw new ValidationError('ERR_QUEUE_OPTION_QUEUE_MISMATCH');
  const next: QueueOption = { ...current };
  if (input.title !== undefined) next.title = cleanOptionTitle(input.title);
  if (input.message !== undefined) next.message = cleanOptionMessage(input.message);
  if (input.option !== undefined) next.option = cleanOptionKey(input.option);
  if (input.forwardQueueId !== undefined) next.forwardQueueId = input.forwardQueueId;
  if (input.forwardUserId !== undefined) next.forwardUserId = input.forwardUserId;
  if (input.closeTicket !== undefined) next.closeTicket = input.closeTicket;
  checkActions(next);
  await checkTargets(deps, companyId, input);
  const tree = await treeOf(deps.options, companyId, current.queueId);
  if (input.parentId !== undefined && input.parentId !== current.parentId) {
    if (input.parentId !== null) {
      const parent = await findOption(deps.options, companyId, input.parentId, kind);
      if (parent.queueId !== current.queueId) throw new ValidationError('ERR_QUEUE_OPTION_QUEUE_MISMATCH');
      if (isUnder(tree, parent.id, current.id)) throw new ValidationError('ERR_QUEUE_OPTION_CYCLE');
    }
    if (depthOf(tree, input.parentId) + heightOf(tree, current.id) > MAX_OPTION_DEPTH) throw new ValidationError('ERR_QUEUE_OPTION_TOO_DEEP');
    next.parentId = input.parentId;
  }
  if (next.parentId !== current.parentId || next.option.toLowerCase() !== current.option.toLowerCase())
    assertFreeKey(tree, next.parentId, next.option, next.id);
  next.updatedAt = deps.clock.now();
  await deps.options.update(next);
  return next;
}

/** Removes a node and everything under it. */
export async function deleteOption(deps: Pick<OptionDeps, 'options'>, actor: Actor, kind: QueueOptionKind, id: number): Promise<void> {
  assertAdmin(actor);
  const option = await findOption(deps.options, actor.companyId, id, kind);
  await deps.options.remove(option.companyId, option.id);
}
