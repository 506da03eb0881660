import { withUserDefaults, type NewUser, type Page, type RefreshSession, type RefreshSessions, type User, type UserQuery, type Users } from '@servicedesk/core';
import { RefreshSessionSchema, UserSchema } from './schema.js';
import { MikroOrmRepository } from '../shared/context.js';
import { foldedOrder, searchWhere } from '../shared/search.js';
import { marks } from '../shared/sql.js';

const READ = { disableIdentityMap: true } as const;

export class MikroOrmUsers extends MikroOrmRepository implements Users {
  async findById(companyId: number | null, id: number) {
    return this.em.findOne(UserSchema, companyId === null ? { id } : { id, companyId }, READ);
  }
  async findByEmail(email: string) {
    return this.em.findOne(UserSchema, { email }, READ);
  }
  async list(q: UserQuery): Promise<Page<User>> {
    const where = { ...(q.companyId === null ? {} : { companyId: q.companyId }), ...searchWhere(['name', 'email'], q.search) };
    const [rows, count] = await this.em.findAndCount(UserSchema, where, {
      ...READ,
      orderBy: [foldedOrder('name'), { id: 'asc' }],
      offset: q.page.offset,
      limit: q.page.limit,
    });
    return { rows, count };
  }
  async listAll(companyId: number) {
    return this.em.find(UserSchema, { companyId }, { ...READ, orderBy: [foldedOrder('name'), { id: 'asc' }] });
  }
  async countByCompany(companyId: number) {
    return this.em.count(UserSchema, { companyId });
  }
  async lastLoginByCompany(companyIds: readonly number[]) {
    if (!companyIds.length) return new Map<number, Date>();
    const rows = await this.em.execute<Array<{ company_id: number; last: Date | string }>>(
      `select company_id, max(last_login_at) as last from users where company_id in (${marks(companyIds.length)}) and last_login_at is not null group by company_id`,
      [...companyIds],
    );
    return new Map(rows.map((r) => [Number(r.company_id), new Date(r.last)]));
  }
  async add(user: NewUser): Promise<User> {
    const full = withUserDefaults(user);
    const id = (await this.em.insert(UserSchema, full as User)) as number;
    return { ...full, id };
  }
  async update(user: User) {
    const { id, ...fields } = user;
    await this.em.nativeUpdate(UserSchema, { id }, fields);
  }
  async remove(companyId: number, id: number) {
    await this.em.nativeDelete(UserSchema, { id, companyId });
  }
  async bumpTokenVersionsOfCompany(companyId: number) {
    await this.em.execute('update users set token_version = token_version + 1 where company_id = ?', [companyId]);
  }
  async queueIdsOf(companyId: number, userId: number) {
    const rows = await this.em.execute<Array<{ queue_id: number }>>(
      'select qu.queue_id from queue_users qu join queues q on q.id = qu.queue_id where q.company_id = ? and qu.user_id = ? order by qu.queue_id',
      [companyId, userId],
    );
    return rows.map((r) => Number(r.queue_id));
  }
}

export class MikroOrmRefreshSessions extends MikroOrmRepository implements RefreshSessions {
  async create(session: RefreshSession) {
    await this.em.insert(RefreshSessionSchema, session);
  }
  async find(id: string) {
    return this.em.findOne(RefreshSessionSchema, { id }, READ);
  }
  async rotate(id: string, fromJti: string, toJti: string, expiresAt: Date, at: Date) {
    const changed = await this.em.nativeUpdate(
      RefreshSessionSchema,
      { id, currentJti: fromJti, revokedAt: null },
      { currentJti: toJti, previousJti: fromJti, rotatedAt: at, expiresAt },
    );
    return changed === 1;
  }
  async revoke(id: string, at: Date) {
    await this.em.nativeUpdate(RefreshSessionSchema, { id, revokedAt: null }, { revokedAt: at });
  }
  async revokeAllOfUser(userId: number, at: Date) {
    await this.em.nativeUpdate(RefreshSessionSchema, { userId, revokedAt: null }, { revokedAt: at });
  }
  async revokeAllOfCompany(companyId: number, at: Date) {
    await this.em.nativeUpdate(RefreshSessionSchema, { companyId, revokedAt: null }, { revokedAt: at });
  }
}
