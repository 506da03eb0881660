import { assertAdmin, type Actor } from '../shared/actor.js';
import { ConflictError } from '../shared/errors.js';
import { visibleProxy } from './proxy-access.js';
import { isUsable, type Proxy } from './proxy.js';
import { chatapp, reassigning, type AssignmentView, type BalanceDeps } from './balance-proxies.js';

/** An admin puts one connection on a proxy: the one named, or the least-loaded usable one with room. */
export class AssignProxy {
  constructor(private readonly deps: BalanceDeps) {}

  async execute(input: { readonly actor: Actor; readonly chatappId: number; readonly proxyId?: number }): Promise<AssignmentView> {
    assertAdmin(input.actor);
    return reassigning(this.deps, async (r) => {
      const connection = await chatapp(this.deps.connections, input.actor, input.chatappId);
      const current = await this.deps.assignments.findByConnection(connection.companyId, connection.id);
      const pool = await r.pool(connection.companyId);
      let target: Proxy | null;
      if (input.proxyId !== undefined) {
        target = await visibleProxy(this.deps.proxies, input.actor, input.proxyId);
        if (current?.proxyId === target.id)
          return { chatappId: connection.id, proxyId: target.id, assignedAt: current.assignedAt.toISOString(), restarted: false };
        if (!isUsable(target)) throw new ConflictError('ERR_PROXY_UNAVAILABLE');
        if ((pool.load.get(target.id) ?? 0) >= target.maxConnections) throw new ConflictError('ERR_PROXY_FULL');
      } else {
        if (current) return { chatappId: connection.id, proxyId: current.proxyId, assignedAt: current.assignedAt.toISOString(), restarted: false };
        target = r.pick(pool);
        if (!target) throw new ConflictError('ERR_PROXY_NO_CAPACITY');
      }
      await r.move(connection, current?.proxyId ?? null, target, pool);
      return { chatappId: connection.id, proxyId: target.id, assignedAt: this.deps.clock.now().toISOString(), restarted: r.restarted.length > 0 };
    });
  }
}
