import type { Connection } from '../connections/connection.js';
import { assertAdmin, type Actor } from '../shared/actor.js';
import { isUsable } from './proxy.js';
import { chatapps, reassigning, type BalanceDeps, type BalanceResult } from './balance-proxies.js';

/**
 * Spreads all the company's connections evenly over the usable proxies (by share of capacity), moving
 * only what must move so the fewest sessions reconnect; connections without a proxy get one too.
 */
export class ForceRebalanceAllProxies {
  constructor(private readonly deps: BalanceDeps) {}

  async execute(input: { readonly actor: Actor }): Promise<BalanceResult> {
    assertAdmin(input.actor);
    return reassigning(this.deps, async (r) => {
      const result: BalanceResult = { moved: [], skipped: [] };
      const companyId = input.actor.companyId;
      const pool = await r.pool(companyId);
      const usable = pool.proxies.filter(isUsable);
      const all = await chatapps(this.deps.connections, companyId);
      const current = new Map((await this.deps.assignments.listByCompany(companyId)).map((a) => [a.connectionId, a.proxyId]));
      // The company's own share of each proxy: the other companies' load stays where it is.
      const foreign = new Map(usable.map((p) => [p.id, (pool.load.get(p.id) ?? 0) - [...current.values()].filter((id) => id === p.id).length]));
      const room = usable.map((p) => ({ p, room: Math.max(0, p.maxConnections - (foreign.get(p.id) ?? 0)) }));
      const totalRoom = room.reduce((s, x) => s + x.room, 0);
      const wanted = Math.min(all.length, totalRoom);
      // Targets proportional to room (largest remainder: the fractions decide who carries one more).
      const target = new Map<number, number>();
      const share = (cap: number) => (totalRoom ? (wanted * cap) / totalRoom : 0);
      let given = 0;
      for (const { p, room: cap } of room) {
        const t = Math.floor(share(cap));
        target.set(p.id, t);
        given += t;
      }
      const fraction = (cap: number) => share(cap) - Math.floor(share(cap));
      for (const { p, room: cap } of [...room].sort((a, b) => fraction(b.room) - fraction(a.room) || b.room - a.room || a.p.id - b.p.id)) {
        if (given >= wanted) break;
        if ((target.get(p.id) ?? 0) < cap) {
          target.set(p.id, (target.get(p.id) ?? 0) + 1);
          given += 1;
        }
      }
      const kept = new Map<number, number>();
      const toPlace: Connection[] = [];
      for (const c of all) {
        const on = current.get(c.id);
        if (on !== undefined && target.has(on) && (kept.get(on) ?? 0) < target.get(on)!) kept.set(on, (kept.get(on) ?? 0) + 1);
        else toPlace.push(c);
      }
      for (const c of toPlace) {
        const from = current.get(c.id) ?? null;
        const dest = usable.find((p) => (kept.get(p.id) ?? 0) < (target.get(p.id) ?? 0));
        if (!dest) {
          result.skipped.push({ chatappId: c.id, reason: 'no-capacity' });
          continue;
        }
        kept.set(dest.id, (kept.get(dest.id) ?? 0) + 1);
        result.moved.push(await r.move(c, from, dest));
      }
      return result;
    });
  }
}
