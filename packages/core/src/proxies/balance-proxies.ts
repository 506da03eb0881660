import { toConnectionView, type Connection } from '../connections/connection.js';
import type { SessionEvent } from '../connections/connection-events.js';
import type { Connections } from '../connections/ports.js';
import type { SessionCommands } from '../connections/session-commands.js';
import type { RealtimeEvents } from '../realtime/ports.js';
import { assertAdmin, type Actor } from '../shared/actor.js';
import { ConflictError, NotFoundError, ValidationError } from '../shared/errors.js';
import type { Clock, Transaction } from '../shared/ports.js';
import { managedProxy, visibleProxy } from './proxy-access.js';
import type { ProxyAssignments, Proxies } from './ports.js';
import { isUsable, type Proxy } from './proxy.js';

/** One connection a balancing moved (`from`/`to` null: it had none / has none now). */
export interface ProxyMove {
  readonly chatappId: number;
  readonly from: number | null;
  readonly to: number | null;
}
/** One connection a balancing left as it was, and why. */
export interface ProxySkip {
  readonly chatappId: number;
  readonly reason: 'no-capacity';
}
export interface BalanceResult {
  moved: ProxyMove[];
  skipped: ProxySkip[];
}

interface ReassignerDeps {
  readonly proxies: Proxies;
  readonly assignments: ProxyAssignments;
  readonly connections: Connections;
  readonly sessions: SessionCommands;
  readonly clock: Clock;
}

/**
 * Moves connections between proxies inside the caller's transaction, and restarts each moved
 * session that is running (Baileys reads its proxy when it opens its socket). The sessions it
 * restarted are kept in `restarted` for the caller to announce after commit.
 */
export class Reassigner {
  readonly restarted: Connection[] = [];

  constructor(private readonly deps: ReassignerDeps) {}

  /** The pool a company's connections may use, with what each proxy carries now. */
  async pool(companyId: number): Promise<{ proxies: Proxy[]; load: Map<number, number> }> {
    const proxies = await this.deps.proxies.listVisible(companyId);
    return { proxies, load: await this.deps.assignments.countByProxy(proxies.map((p) => p.id)) };
  }

  /** The least-loaded usable proxy with room, the connection's current country first; null when none has room. */
  pick(pool: { proxies: Proxy[]; load: Map<number, number> }, options: { exclude?: number; country?: string | null } = {}): Proxy | null {
    const candidates = pool.proxies
      .filter((p) => isUsable(p) && p.id !== options.exclude && (pool.load.get(p.id) ?? 0) < p.maxConnections)
      .sort(
        (a, b) =>
          Number(b.country === (options.country ?? undefined)) - Number(a.country === (options.country ?? undefined)) ||
          (pool.load.get(a.id) ?? 0) / a.maxConnections - (pool.load.get(b.id) ?? 0) / b.maxConnections ||
          Number(a.status !== 'healthy') - Number(b.status !== 'healthy') ||
          a.id - b.id,
      );
    return candidates[0] ?? null;
  }

  /** Puts the connection on `proxy` (null: on none) and restarts its session if it runs. */
  async move(connection: Connection, from: number | null, proxy: Proxy | null, pool?: { load: Map<number, number> }): Promise<ProxyMove> {
    if (proxy)
      await this.deps.assignments.assign({
        connectionId: connection.id,
        companyId: connection.companyId,
        proxyId: proxy.id,
        assignedAt: this.deps.clock.now(),
      });
    else await this.deps.assignments.remove(connection.companyId, connection.id);
    if (pool) {
      if (from !== null) pool.load.set(from, (pool.load.get(from) ?? 1) - 1);
      if (proxy) pool.load.set(proxy.id, (pool.load.get(proxy.id) ?? 0) + 1);
    }
    await this.restart(connection);
    return { chatappId: connection.id, from, to: proxy?.id ?? null };
  }

  /** Restarts a running session so it reconnects through its current proxy. */
  async restart(connection: Connection): Promise<void> {
    if (connection.status === 'DISCONNECTED') return;
    await this.deps.sessions.apply(connection, 'restart');
    this.restarted.push(connection);
  }

  /** Moves every connection (of any company) off a proxy that leaves the pool: to the least-loaded other one with room, or to none (`to` null). */
  async moveOff(proxy: Proxy): Promise<BalanceResult> {
    const result: BalanceResult = { moved: [], skipped: [] };
    const pools = new Map<number, { proxies: Proxy[]; load: Map<number, number> }>();
    for (const a of await this.deps.assignments.listByProxy(proxy.id)) {
      const connection = await this.deps.connections.findById(a.companyId, a.connectionId);
      if (!connection) continue;
      if (!pools.has(a.companyId)) pools.set(a.companyId, await this.pool(a.companyId));
      const pool = pools.get(a.companyId)!;
      const target = this.pick(pool, { exclude: proxy.id, country: proxy.country });
      result.moved.push(await this.move(connection, proxy.id, target, pool));
    }
    return result;
  }

  /** Restarts every running session on the proxy (its address or credentials changed). */
  async restartOn(proxy: Proxy): Promise<void> {
    for (const a of await this.deps.assignments.listByProxy(proxy.id)) {
      const connection = await this.deps.connections.findById(a.companyId, a.connectionId);
      if (connection) await this.restart(connection);
    }
  }
}

export interface BalanceDeps extends ReassignerDeps {
  readonly tx: Transaction;
  readonly realtime: RealtimeEvents<SessionEvent>;
}

/** Runs `work` with a fresh Reassigner in one transaction, then announces the restarted sessions. */
export async function reassigning<T>(deps: BalanceDeps, work: (r: Reassigner) => Promise<T>): Promise<T> {
  const reassigner = new Reassigner(deps);
  const result = await deps.tx.run(() => work(reassigner));
  for (const c of reassigner.restarted)
    await deps.realtime.publish(c.companyId, { entity: 'chatappSession', data: { action: 'update', session: toConnectionView(c) } });
  return result;
}

/** The company's chat-application connection, 404 `ERR_NO_CONNECTION_FOUND` otherwise; 422 for another kind. */
async function chatapp(connections: Connections, actor: Actor, id: number): Promise<Connection> {
  const found = await connections.findById(actor.companyId, id);
  if (!found) throw new NotFoundError('ERR_NO_CONNECTION_FOUND');
  if (found.kind !== 'chatapp') throw new ValidationError('ERR_PROXY_NOT_FOR_CONNECTION');
  return found;
}

async function chatapps(connections: Connections, companyId: number): Promise<Connection[]> {
  return (await connections.list(companyId)).filter((c) => c.kind === 'chatapp').sort((a, b) => a.id - b.id);
}

export interface AssignmentView {
  readonly chatappId: number;
  readonly proxyId: number | null;
  readonly assignedAt: string | null;
  readonly restarted: boolean;
}

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

/** An admin takes a connection off its proxy (404 `ERR_NO_PROXY_ASSIGNMENT` when it has none); its session restarts without one. */
export class RemoveProxyAssignment {
  constructor(private readonly deps: BalanceDeps) {}

  async execute(input: { readonly actor: Actor; readonly chatappId: number }): Promise<AssignmentView> {
    assertAdmin(input.actor);
    return reassigning(this.deps, async (r) => {
      const connection = await chatapp(this.deps.connections, input.actor, input.chatappId);
      const current = await this.deps.assignments.findByConnection(connection.companyId, connection.id);
      if (!current) throw new NotFoundError('ERR_NO_PROXY_ASSIGNMENT');
      await r.move(connection, current.proxyId, null);
      return { chatappId: connection.id, proxyId: null, assignedAt: null, restarted: r.restarted.length > 0 };
    });
  }
}

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

/** Takes a proxy out of the pool with a reason and moves its connections to others (the platform's: super admin only). */
export class DisableProblematicProxy {
  constructor(private readonly deps: BalanceDeps) {}

  async execute(input: { readonly actor: Actor; readonly proxyId: number; readonly reason?: string }): Promise<BalanceResult & { proxyId: number }> {
    const reason = input.reason?.trim() || 'disabled as problematic';
    if (reason.length > 500) throw new ValidationError('ERR_PROXY_INVALID_REASON');
    return reassigning(this.deps, async (r) => {
      const proxy = await managedProxy(this.deps.proxies, input.actor, input.proxyId);
      const disabled: Proxy = { ...proxy, status: 'disabled', disabledReason: reason, updatedAt: this.deps.clock.now() };
      await this.deps.proxies.update(disabled);
      return { proxyId: proxy.id, ...(await r.moveOff(disabled)) };
    });
  }
}
