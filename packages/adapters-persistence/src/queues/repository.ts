import { raw, UniqueConstraintViolationException } from '@mikro-orm/core';
import {
  byQueueOrder,
  ConflictError,
  type ErrorCode,
  type NewQueue,
  type NewQueueIntegration,
  type NewQueueOption,
  type Page,
  type Queue,
  type QueueIntegration,
  type QueueIntegrationQuery,
  type QueueIntegrations,
  type QueueOption,
  type QueueOptionQuery,
  type QueueOptions,
  type Queues,
} from '@servicedesk/core';
import { QueueIntegrationSchema, QueueOptionSchema, QueueSchema } from './schema.js';
import { MikroOrmRepository } from '../shared/context.js';
import { foldedOrder, searchWhere } from '../shared/search.js';
import { marks } from '../shared/sql.js';

const READ = { disableIdentityMap: true } as const;
const lowerIs = (column: string, value: string) => ({ [raw((a: string) => `lower(${a}.${column}) = lower(?)`, [value])]: [] });

/** A unique index decides two writers taking one name or key: the loser gets the use case's 409. */
async function unique<T>(index: string, code: ErrorCode, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (err instanceof UniqueConstraintViolationException && err.message.includes(index)) throw new ConflictError(code);
    throw err;
  }
}

const QUEUE_NAME = ['queues_company_id_lower_name_idx', 'ERR_QUEUE_NAME_ALREADY_EXISTS'] as const;
const OPTION_KEY = ['queue_options_sibling_key_idx', 'ERR_QUEUE_OPTION_ALREADY_EXISTS'] as const;
const INTEGRATION_NAME = ['queue_integrations_company_id_lower_name_idx', 'ERR_INTEGRATION_NAME_ALREADY_EXISTS'] as const;

export class MikroOrmQueues extends MikroOrmRepository implements Queues {
  async findById(companyId: number, id: number) {
    return this.em.findOne(QueueSchema, { id, companyId }, READ);
  }
  async findByIds(companyId: number, ids: readonly number[]) {
    if (!ids.length) return [];
    return this.em.find(QueueSchema, { companyId, id: { $in: [...ids] } }, { ...READ, orderBy: { id: 'asc' } });
  }
  async findByName(companyId: number, name: string) {
    return this.em.findOne(QueueSchema, { companyId, ...lowerIs('name', name) }, READ);
  }
  async list(companyId: number) {
    return this.em.find(QueueSchema, { companyId }, { ...READ, orderBy: [{ orderQueue: 'asc' }, { id: 'asc' }] });
  }
  async countByCompany(companyId: number) {
    return this.em.count(QueueSchema, { companyId });
  }
  async add(queue: NewQueue): Promise<Queue> {
    const id = (await unique(...QUEUE_NAME, () => this.em.insert(QueueSchema, { ...queue } as Queue))) as number;
    return { ...queue, id };
  }
  async update(queue: Queue) {
    const { id, companyId, ...fields } = queue;
    await unique(...QUEUE_NAME, () => this.em.nativeUpdate(QueueSchema, { id, companyId }, fields));
  }
  /** The foreign keys take the links and menus along; tickets, which have none to queues, are cleared here. */
  async remove(companyId: number, id: number) {
    await this.em.execute('update tickets set queue_id = null, queue_option_id = null where company_id = ? and queue_id = ?', [companyId, id]);
    await this.em.nativeDelete(QueueSchema, { id, companyId });
  }

  async usersOf(companyId: number, queueIds: readonly number[]) {
    const found = new Map<number, number[]>();
    if (!queueIds.length) return found;
    const rows = await this.em.execute<Array<{ queue_id: number; user_id: number }>>(
      `select qu.queue_id, qu.user_id from queue_users qu join queues q on q.id = qu.queue_id
       where q.company_id = ? and qu.queue_id in (${marks(queueIds.length)}) order by qu.queue_id, qu.user_id`,
      [companyId, ...queueIds],
    );
    for (const r of rows) found.set(Number(r.queue_id), [...(found.get(Number(r.queue_id)) ?? []), Number(r.user_id)]);
    return found;
  }
  async setUsers(companyId: number, queueId: number, userIds: readonly number[]) {
    await this.em.execute(
      `delete from queue_users qu using queues q where qu.queue_id = ? and q.id = qu.queue_id and q.company_id = ?${userIds.length ? ` and qu.user_id not in (${marks(userIds.length)})` : ''}`,
      [queueId, companyId, ...userIds],
    );
    if (!userIds.length) return;
    await this.em.execute(
      `insert into queue_users (queue_id, user_id) select q.id, u.id from queues q join users u on u.company_id = q.company_id
       where q.id = ? and q.company_id = ? and u.id in (${marks(userIds.length)}) on conflict do nothing`,
      [queueId, companyId, ...userIds],
    );
  }
  async listOfUser(companyId: number, userId: number) {
    return this.em.find(
      QueueSchema,
      { companyId, [raw((a: string) => `exists (select 1 from queue_users qu where qu.queue_id = ${a}.id and qu.user_id = ?)`, [userId])]: [] },
      {
        ...READ,
        orderBy: [{ orderQueue: 'asc' }, { id: 'asc' }],
      },
    );
  }

  async ofConnections(companyId: number, connectionIds: readonly number[]) {
    const found = new Map<number, Queue[]>();
    if (!connectionIds.length) return found;
    const links = await this.em.execute<Array<{ connection_id: number; queue_id: number }>>(
      `select cq.connection_id, cq.queue_id from connection_queues cq join queues q on q.id = cq.queue_id
       where q.company_id = ? and cq.connection_id in (${marks(connectionIds.length)})`,
      [companyId, ...connectionIds],
    );
    const queues = new Map((await this.findByIds(companyId, [...new Set(links.map((l) => Number(l.queue_id)))])).map((q) => [q.id, q]));
    for (const l of links) {
      const queue = queues.get(Number(l.queue_id));
      if (queue) found.set(Number(l.connection_id), [...(found.get(Number(l.connection_id)) ?? []), queue]);
    }
    for (const list of found.values()) list.sort(byQueueOrder);
    return found;
  }
  async setConnectionQueues(companyId: number, connectionId: number, queueIds: readonly number[]) {
    await this.em.execute(
      `delete from connection_queues cq using queues q where cq.connection_id = ? and q.id = cq.queue_id and q.company_id = ?${queueIds.length ? ` and cq.queue_id not in (${marks(queueIds.length)})` : ''}`,
      [connectionId, companyId, ...queueIds],
    );
    if (!queueIds.length) return;
    await this.em.execute(
      `insert into connection_queues (connection_id, queue_id) select c.id, q.id from connections c join queues q on q.company_id = c.company_id
       where c.id = ? and c.company_id = ? and q.id in (${marks(queueIds.length)}) on conflict do nothing`,
      [connectionId, companyId, ...queueIds],
    );
  }
}

export class MikroOrmQueueOptions extends MikroOrmRepository implements QueueOptions {
  async findById(companyId: number, id: number) {
    return this.em.findOne(QueueOptionSchema, { id, companyId }, READ);
  }
  async list(q: QueueOptionQuery) {
    return this.em.find(
      QueueOptionSchema,
      {
        companyId: q.companyId,
        ...(q.queueId !== undefined ? { queueId: q.queueId } : {}),
        ...(q.parentId !== undefined ? { parentId: q.parentId } : {}),
        ...(q.kind !== undefined ? { kind: q.kind } : {}),
      },
      { ...READ, orderBy: { id: 'asc' } },
    );
  }
  async add(option: NewQueueOption): Promise<QueueOption> {
    const id = (await unique(...OPTION_KEY, () => this.em.insert(QueueOptionSchema, { ...option } as QueueOption))) as number;
    return { ...option, id };
  }
  async update(option: QueueOption) {
    const { id, companyId, ...fields } = option;
    await unique(...OPTION_KEY, () => this.em.nativeUpdate(QueueOptionSchema, { id, companyId }, fields));
  }
  /** The parent foreign key removes the subtree. */
  async remove(companyId: number, id: number) {
    await this.em.nativeDelete(QueueOptionSchema, { id, companyId });
  }
}

export class MikroOrmQueueIntegrations extends MikroOrmRepository implements QueueIntegrations {
  async findById(companyId: number, id: number) {
    return this.em.findOne(QueueIntegrationSchema, { id, companyId }, READ);
  }
  async findByName(companyId: number, name: string) {
    return this.em.findOne(QueueIntegrationSchema, { companyId, ...lowerIs('name', name) }, READ);
  }
  async list(q: QueueIntegrationQuery): Promise<Page<QueueIntegration>> {
    const [rows, count] = await this.em.findAndCount(
      QueueIntegrationSchema,
      { companyId: q.companyId, ...searchWhere(['name'], q.search) },
      {
        ...READ,
        orderBy: [foldedOrder('name'), { id: 'asc' }],
        offset: q.page.offset,
        limit: q.page.limit,
      },
    );
    return { rows, count };
  }
  async add(integration: NewQueueIntegration): Promise<QueueIntegration> {
    const id = (await unique(...INTEGRATION_NAME, () => this.em.insert(QueueIntegrationSchema, { ...integration } as QueueIntegration))) as number;
    return { ...integration, id };
  }
  async update(integration: QueueIntegration) {
    const { id, companyId, ...fields } = integration;
    await unique(...INTEGRATION_NAME, () => this.em.nativeUpdate(QueueIntegrationSchema, { id, companyId }, fields));
  }
  /** The queues' foreign key detaches it from them. */
  async remove(companyId: number, id: number) {
    await this.em.nativeDelete(QueueIntegrationSchema, { id, companyId });
  }
}
