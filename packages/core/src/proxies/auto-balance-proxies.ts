import { assertAdmin, type Actor } from '../shared/actor.js';
import { chatapps, reassigning, type BalanceDeps, type BalanceResult } from './balance-proxies.js';

/** Gives a proxy to each of the company's connections that has none, least-loaded first, within capacity. */
export class AutoBalanceProxies {
  constructor(private readonly deps: BalanceDeps) {}

  async execute(input: { readonly actor: Actor }): Promise<BalanceResult> {
    assertAdmin(input.actor);
    return reassigning(this.deps, async (r) => {
      const result: BalanceResult = { moved: [], skipped: [] };
      const assigned = new Set((await this.deps.assignments.listByCompany(input.actor.companyId)).map((a) => a.connectionId));
      const pool = await r.pool(input.actor.companyId);
      for (const connection of await chatapps(this.deps.connections, input.actor.companyId)) {
        if (assigned.has(connection.id)) continue;
        const target = r.pick(pool);
        if (target) result.moved.push(await r.move(connection, null, target, pool));
        else result.skipped.push({ chatappId: connection.id, reason: 'no-capacity' });
      }
      return result;
    });
  }
}
