import type { MikroORM } from '@mikro-orm/core';
import type { ProxyAssignments, Proxies } from '@servicedesk/core/proxies/ports';
import type { NewProxy, Proxy, ProxyAssignment } from '@servicedesk/core/proxies/proxy';
import { MikroOrmRepository } from '../shared/context.js';
import { foldedOrder } from '../shared/search.js';
import { ProxyAssignmentSchema, ProxySchema } from './schema.js';

const READ = { disableIdentityMap: true } as const;
/** A positive int4: anything else names no row (and must not reach an int4 parameter). */
const isId = (id: number) => Number.isSafeInteger(id) && id > 0 && id <= 2_147_483_647;

/** The platform's proxies, plus the company's own when one is given. */
const visibleTo = (companyId: number | null) => (companyId === null ? { companyId: null } : { $or: [{ companyId: null }, { companyId }] });

export class MikroOrmProxies extends MikroOrmRepository implements Proxies {
  async findVisible(companyId: number | null, id: number) {
    if (!isId(id)) return null;
    return this.em.findOne(ProxySchema, { id, ...visibleTo(companyId) }, READ);
  }
  async listVisible(companyId: number | null) {
    return this.em.find(ProxySchema, visibleTo(companyId), { ...READ, orderBy: [foldedOrder('name'), { id: 'asc' }] });
  }
  async listAll() {
    return this.em.find(ProxySchema, {}, { ...READ, orderBy: { id: 'asc' } });
  }
  async add(proxy: NewProxy): Promise<Proxy> {
    const id = (await this.em.insert(ProxySchema, { ...proxy } as Proxy)) as number;
    return { ...proxy, id };
  }
  async update(p: Proxy) {
    const {
      name,
      protocol,
      host,
      port,
      username,
      passwordSealed,
      country,
      maxConnections,
      status,
      disabledReason,
      failCount,
      lastError,
      lastLatencyMs,
      lastCheckAt,
      updatedAt,
    } = p;
    await this.em.nativeUpdate(
      ProxySchema,
      { id: p.id },
      {
        name,
        protocol,
        host,
        port,
        username,
        passwordSealed,
        country,
        maxConnections,
        status,
        disabledReason,
        failCount,
        lastError,
        lastLatencyMs,
        lastCheckAt,
        updatedAt,
      },
    );
  }
  async remove(id: number) {
    if (isId(id)) await this.em.nativeDelete(ProxySchema, { id });
  }
}

export class MikroOrmProxyAssignments extends MikroOrmRepository implements ProxyAssignments {
  async findByConnection(companyId: number, connectionId: number) {
    if (!isId(connectionId)) return null;
    return this.em.findOne(ProxyAssignmentSchema, { connectionId, companyId }, READ);
  }
  async listByCompany(companyId: number) {
    return this.em.find(ProxyAssignmentSchema, { companyId }, { ...READ, orderBy: { connectionId: 'asc' } });
  }
  async listByProxy(proxyId: number) {
    if (!isId(proxyId)) return [];
    return this.em.find(ProxyAssignmentSchema, { proxyId }, { ...READ, orderBy: { connectionId: 'asc' } });
  }
  async countByProxy(proxyIds: readonly number[]) {
    const ids = proxyIds.filter(isId);
    const counts = new Map<number, number>();
    if (ids.length === 0) return counts;
    const rows = await this.em.execute<Array<{ proxy_id: number; n: string }>>(
      'select proxy_id, count(*) as n from proxy_assignments where proxy_id in (?) group by proxy_id',
      [ids],
    );
    for (const r of rows) counts.set(Number(r.proxy_id), Number(r.n));
    return counts;
  }
  async assign(a: ProxyAssignment) {
    await this.em.execute(
      `insert into proxy_assignments (connection_id, company_id, proxy_id, assigned_at) values (?, ?, ?, ?)
       on conflict (connection_id) do update set proxy_id = excluded.proxy_id, assigned_at = excluded.assigned_at`,
      [a.connectionId, a.companyId, a.proxyId, a.assignedAt],
    );
  }
  async remove(companyId: number, connectionId: number) {
    if (!isId(connectionId)) return false;
    return (await this.em.nativeDelete(ProxyAssignmentSchema, { connectionId, companyId })) > 0;
  }
}

/** The proxies' repositories over one ORM. */
export const proxiesRepositories = (orm: MikroORM) => ({
  proxies: new MikroOrmProxies(orm),
  proxyAssignments: new MikroOrmProxyAssignments(orm),
});
