import type { Users } from '../identity/ports.js';
import { assertAdmin, type Actor } from '../shared/actor.js';
import { ConflictError, NotFoundError, ValidationError } from '../shared/errors.js';
import type { Clock, Transaction } from '../shared/ports.js';
import type { PlanGuard } from '../tenancy/plan-guard.js';
import type { QueueOptions, Queues } from './ports.js';
import { withUsers, type QueueAnnouncer, type QueueWithUsers } from './queue-announcer.js';
import type { QueueLinks } from './queue-links.js';

export { checkPrompt, type PromptLookup } from './queue-links.js';
export type { QueueUser, QueueWithUsers } from './queue-announcer.js';
import {
  byQueueOrder,
  cleanQueueColor,
  cleanQueueName,
  cleanQueueOrder,
  cleanQueueSchedules,
  cleanQueueText,
  DEFAULT_QUEUE_COLOR,
  MAX_QUEUE_ORDER,
  toQueueView,
  type Queue,
  type QueueView,
} from './queue.js';
import type { DayHoursInput } from '../tenancy/day-hours.js';
import { writeChatbotSteps, type ChatbotStep } from './chatbots.js';
import { findQueue } from './find-queue.js';

export interface QueueFields {
  readonly name?: string;
  readonly color?: string;
  readonly greetingMessage?: string | null;
  readonly outOfHoursMessage?: string | null;
  /** The editor's days (`startTimeA`…`endTimeB`), or slots (`startTime`, `endTime`). */
  readonly schedules?: readonly DayHoursInput[];
  readonly orderQueue?: number;
  readonly integrationId?: number | null;
  /** The AI assistant answering its conversations (one of the company's prompts); null: none. */
  readonly promptId?: number | null;
  /** The queue's users, replacing the current ones. */
  readonly userIds?: readonly number[];
  /** The editor's chatbot steps, written after the queue (see `writeChatbotSteps`). */
  readonly chatbots?: readonly ChatbotStep[];
}

export const MAX_QUEUE_USERS = 1000;
/** How many queues one connection may offer. */
export const MAX_LINKED_QUEUES = 100;

/** Every queue id must be one of the company's (404 `ERR_QUEUE_NOT_FOUND` otherwise); duplicates collapse. */
export async function assertQueues(queues: Queues, companyId: number, queueIds: readonly number[]): Promise<number[]> {
  const wanted = [...new Set(queueIds)];
  if (wanted.length > MAX_LINKED_QUEUES) throw new ValidationError('ERR_TOO_MANY_QUEUES');
  const found = wanted.length ? await queues.findByIds(companyId, wanted) : [];
  if (found.length !== wanted.length) throw new NotFoundError('ERR_QUEUE_NOT_FOUND');
  return wanted;
}

/** The company's queues with their users, in menu order; every operator reads them. */
export class ListQueues {
  constructor(private readonly deps: { queues: Queues; users: Users; options: QueueOptions }) {}

  async execute(input: { readonly actor: Actor }): Promise<QueueWithUsers[]> {
    const { companyId } = input.actor;
    return withUsers(this.deps, companyId, await this.deps.queues.list(companyId));
  }
}

/** The queues the caller belongs to (`/queue/user`). */
export class ListMyQueues {
  constructor(private readonly deps: { queues: Queues }) {}

  async execute(input: { readonly actor: Actor }): Promise<QueueView[]> {
    return (await this.deps.queues.listOfUser(input.actor.companyId, input.actor.userId)).map(toQueueView);
  }
}

export class ShowQueue {
  constructor(private readonly deps: { queues: Queues; users: Users; options: QueueOptions }) {}

  async execute(input: { readonly actor: Actor; readonly queueId: number }): Promise<QueueWithUsers> {
    const queue = await findQueue(this.deps.queues, input.actor.companyId, input.queueId);
    return (await withUsers(this.deps, queue.companyId, [queue]))[0]!;
  }
}

interface WriteDeps {
  queues: Queues;
  options: QueueOptions;
  users: Users;
  /** Its integration and AI assistant. */
  links: QueueLinks;
  tx: Transaction;
  clock: Clock;
  /** Publishes the queue as its readers see it. */
  announcer: QueueAnnouncer;
}

async function checkUsers(users: Users, companyId: number, userIds: readonly number[]): Promise<number[]> {
  const wanted = [...new Set(userIds)];
  if (wanted.length > MAX_QUEUE_USERS) throw new ValidationError('ERR_TOO_MANY_QUEUE_USERS');
  const members = new Set((await users.listAll(companyId)).map((u) => u.id));
  if (wanted.some((id) => !members.has(id))) throw new NotFoundError('ERR_NO_USER_FOUND');
  return wanted;
}

async function assertFreeName(queues: Queues, companyId: number, name: string, exceptId?: number) {
  const holder = await queues.findByName(companyId, name);
  if (holder && holder.id !== exceptId) throw new ConflictError('ERR_QUEUE_NAME_ALREADY_EXISTS');
}

/**
 * Admins create queues within the plan's limit (403 `ERR_QUEUE_CREATION_COUNT`). Without
 * `orderQueue` the queue goes after the company's last one. `queue` event, action `update` (the
 * lineage's).
 */
export class CreateQueue {
  constructor(private readonly deps: WriteDeps & { planGuard: PlanGuard }) {}

  async execute(input: QueueFields & { readonly actor: Actor; readonly name: string }): Promise<QueueWithUsers> {
    const { queues, users, planGuard, tx, clock } = this.deps;
    const { actor } = input;
    assertAdmin(actor);
    const companyId = actor.companyId;
    const fields = {
      name: cleanQueueName(input.name),
      color: cleanQueueColor(input.color ?? DEFAULT_QUEUE_COLOR),
      greetingMessage: cleanQueueText(input.greetingMessage),
      outOfHoursMessage: cleanQueueText(input.outOfHoursMessage),
      schedules: cleanQueueSchedules(input.schedules ?? []),
    };
    const userIds = await checkUsers(users, companyId, input.userIds ?? []);
    const integrationId = await this.deps.links.integration(companyId, input.integrationId ?? null);
    const promptId = await this.deps.links.prompt(companyId, input.promptId ?? null);
    const queue = await tx.run(async () => {
      const existing = await queues.list(companyId);
      await planGuard.assertRoomFor(companyId, 'queues', existing.length);
      await assertFreeName(queues, companyId, fields.name);
      const last = [...existing].sort(byQueueOrder).pop();
      const orderQueue = input.orderQueue !== undefined ? cleanQueueOrder(input.orderQueue) : Math.min(last ? last.orderQueue + 1 : 1, MAX_QUEUE_ORDER);
      const now = clock.now();
      const queue = await queues.add({ companyId, ...fields, orderQueue, integrationId, promptId, createdAt: now, updatedAt: now });
      if (userIds.length) await queues.setUsers(companyId, queue.id, userIds);
      if (input.chatbots?.length) await writeChatbotSteps(this.deps, actor, queue.id, null, input.chatbots);
      return queue;
    });
    return this.deps.announcer.updated(companyId, queue);
  }
}

/** Admins edit a queue; `userIds` replaces its users. */
export class UpdateQueue {
  constructor(private readonly deps: WriteDeps) {}

  async execute(input: QueueFields & { readonly actor: Actor; readonly queueId: number }): Promise<QueueWithUsers> {
    const { queues, users, tx, clock } = this.deps;
    const { actor } = input;
    assertAdmin(actor);
    const companyId = actor.companyId;
    const current = await findQueue(queues, companyId, input.queueId);
    const next: Queue = { ...current };
    if (input.name !== undefined) next.name = cleanQueueName(input.name);
    if (input.color !== undefined) next.color = cleanQueueColor(input.color);
    if (input.greetingMessage !== undefined) next.greetingMessage = cleanQueueText(input.greetingMessage);
    if (input.outOfHoursMessage !== undefined) next.outOfHoursMessage = cleanQueueText(input.outOfHoursMessage);
    if (input.schedules !== undefined) next.schedules = cleanQueueSchedules(input.schedules);
    if (input.orderQueue !== undefined) next.orderQueue = cleanQueueOrder(input.orderQueue);
    if (input.integrationId !== undefined && input.integrationId !== current.integrationId) {
      next.integrationId = await this.deps.links.integration(companyId, input.integrationId);
    }
    if (input.promptId !== undefined && input.promptId !== current.promptId) next.promptId = await this.deps.links.prompt(companyId, input.promptId);
    const userIds = input.userIds === undefined ? undefined : await checkUsers(users, companyId, input.userIds);
    if (next.name !== current.name) await assertFreeName(queues, companyId, next.name, current.id);
    next.updatedAt = clock.now();
    await tx.run(async () => {
      await queues.update(next);
      if (userIds) await queues.setUsers(companyId, next.id, userIds);
      if (input.chatbots?.length) await writeChatbotSteps(this.deps, actor, next.id, null, input.chatbots);
    });
    return this.deps.announcer.updated(companyId, next);
  }
}

/**
 * Admins delete a queue: its links and menus go, its tickets stay without a queue. `queue` event,
 * action `delete`, with the id.
 */
export class DeleteQueue {
  constructor(private readonly deps: { queues: Queues; announcer: Pick<QueueAnnouncer, 'deleted'> }) {}

  async execute(input: { readonly actor: Actor; readonly queueId: number }): Promise<void> {
    assertAdmin(input.actor);
    const queue = await findQueue(this.deps.queues, input.actor.companyId, input.queueId);
    await this.deps.queues.remove(queue.companyId, queue.id);
    await this.deps.announcer.deleted(queue.companyId, queue.id);
  }
}
