import type { Connection } from '../connections/connection.js';
import type { Connections } from '../connections/ports.js';
import type { SessionCommands } from '../connections/session-commands.js';
import type { Clock } from '../shared/ports.js';
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

export interface ReassignerDeps {
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
