import { assertAdmin, type Actor } from '../shared/actor.js';
import { isUsable } from './proxy.js';
import { chatapps, reassigning, type BalanceDeps, type BalanceResult } from './balance-proxies.js';

/** Moves the company's connections off proxies that are failing, disabled or over capacity. */
export class ForceReassignProxies {
  constructor(private readonly deps: BalanceDeps) {}

  async execute(input: { readonly actor: Actor }): Promise<BalanceResult> {
    assertAdmin(input.actor);
    return reassigning(this.deps, async (r) => {
      const result: BalanceResult = { moved: [], skipped: [] };
      const pool = await r.pool(input.actor.companyId);
      const byId = new Map(pool.proxies.map((p) => [p.id, p]));
      const connections = new Map((await chatapps(this.deps.connections, input.actor.companyId)).map((c) => [c.id, c]));
      const mine = (await this.deps.assignments.listByCompany(input.actor.companyId)).sort(
        (a, b) => b.assignedAt.getTime() - a.assignedAt.getTime() || b.connectionId - a.connectionId,
      );
      for (const a of mine) {
        const connection = connections.get(a.connectionId);
        const proxy = byId.get(a.proxyId);
        if (!connection || !proxy) continue;
        const over = (pool.load.get(proxy.id) ?? 0) > proxy.maxConnections;
        if (isUsable(proxy) && !over) continue;
        const target = r.pick(pool, { exclude: proxy.id, country: proxy.country });
        if (target) result.moved.push(await r.move(connection, proxy.id, target, pool));
        else result.skipped.push({ chatappId: connection.id, reason: 'no-capacity' });
      }
      return result;
    });
  }
}
