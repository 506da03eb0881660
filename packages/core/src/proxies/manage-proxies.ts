import { assertAdmin, type Actor } from '../shared/actor.js';
import { ConflictError, ValidationError } from '../shared/errors.js';
import type { Clock, SecretCipher, Transaction } from '../shared/ports.js';
import type { ProxyAssignments, Proxies, ProxyChecker } from './ports.js';
import {
  cleanCountry,
  cleanCredential,
  cleanHost,
  cleanMaxConnections,
  cleanPort,
  cleanProxyName,
  endpointOf,
  FAILURES_BEFORE_FAILING,
  openPassword,
  PROXY_STATUSES,
  sealPassword,
  toProxyView,
  type Proxy,
  type ProxyEndpoint,
  type ProxyProtocol,
  type ProxyStatus,
  type ProxyView,
} from './proxy.js';
import { reassigning, type BalanceDeps, type ProxyRebalancing } from './balance-proxies.js';
import { managedProxy, poolOf } from './proxy-access.js';

export { managedProxy, poolOf, visibleProxy } from './proxy-access.js';

export interface ProxyDeps {
  readonly proxies: Proxies;
  readonly assignments: ProxyAssignments;
  readonly checker: ProxyChecker;
  readonly cipher: SecretCipher;
  readonly tx: Transaction;
  readonly clock: Clock;
}

async function views(deps: Pick<ProxyDeps, 'assignments'>, list: readonly Proxy[]): Promise<ProxyView[]> {
  const counts = await deps.assignments.countByProxy(list.map((p) => p.id));
  return list.map((p) => toProxyView(p, counts.get(p.id) ?? 0));
}

/** The fields of a proxy being created or edited; on an edit, absent keeps what is stored. */
export interface ProxyInput {
  readonly name?: string;
  readonly protocol?: ProxyProtocol;
  readonly host?: string;
  readonly port?: number;
  /** Null or `""` removes it. */
  readonly username?: string | null;
  /** Write-only: a string replaces it, null or `""` removes it, absent keeps it. */
  readonly password?: string | null;
  readonly country?: string | null;
  readonly maxConnections?: number;
  /** False takes it out of the pool (`disabled`); true brings a disabled one back (checked again first). */
  readonly active?: boolean;
  /** Skips the check through the proxy before saving: it is saved `unchecked` (the health job checks it later); the address rule still applies. */
  readonly skipCheck?: boolean;
}

/** Checks through the proxy; a failure refuses the save with 422 `ERR_PROXY_CHECK_FAILED`. */
async function liveCheck(checker: ProxyChecker, endpoint: ProxyEndpoint): Promise<{ latencyMs: number }> {
  const result = await checker.check(endpoint);
  if (!result.ok) throw new ValidationError('ERR_PROXY_CHECK_FAILED', { reason: result.error });
  return { latencyMs: result.latencyMs };
}

/** Admins list the proxies they can use: the company's own and the platform's, with how many connections each carries. */
export class ListProxies {
  constructor(private readonly deps: Pick<ProxyDeps, 'proxies' | 'assignments'>) {}

  async execute(input: { readonly actor: Actor; readonly status?: ProxyStatus }): Promise<ProxyView[]> {
    assertAdmin(input.actor);
    const list = await this.deps.proxies.listVisible(input.actor.companyId);
    return views(this.deps, input.status ? list.filter((p) => p.status === input.status) : list);
  }
}

export class CreateProxy {
  constructor(private readonly deps: ProxyDeps) {}

  async execute(input: ProxyInput & { readonly actor: Actor; readonly name: string; readonly host: string; readonly port: number }): Promise<ProxyView> {
    const { proxies, cipher, checker, clock } = this.deps;
    const companyId = poolOf(input.actor);
    const username = cleanCredential(input.username);
    const password = cleanCredential(input.password);
    const draft = {
      companyId,
      name: cleanProxyName(input.name),
      protocol: input.protocol ?? 'http',
      host: cleanHost(input.host),
      port: cleanPort(input.port),
      username,
      passwordSealed: sealPassword(cipher, companyId, password),
      country: cleanCountry(input.country),
      maxConnections: cleanMaxConnections(input.maxConnections),
    } as const;
    if (password !== null && username === null) throw new ValidationError('ERR_PROXY_INVALID_CREDENTIALS');
    const active = input.active ?? true;
    const now = clock.now();
    // The address rule holds whatever the check setting: a proxy saved unchecked is connected to later.
    await checker.admit(draft);
    const check =
      active && !input.skipCheck ? await liveCheck(checker, { protocol: draft.protocol, host: draft.host, port: draft.port, username, password }) : null;
    const added = await proxies.add({
      ...draft,
      status: !active ? 'disabled' : check ? 'healthy' : 'unchecked',
      disabledReason: active ? null : 'disabled by an admin',
      failCount: 0,
      lastError: null,
      lastLatencyMs: check?.latencyMs ?? null,
      lastCheckAt: check ? now : null,
      createdAt: now,
      updatedAt: now,
    });
    return toProxyView(added, 0);
  }
}

/**
 * An admin edits a proxy of the pool it manages. A change of address or credentials, or bringing a
 * disabled one back, is checked through the proxy first (unless `skipCheck`); disabling it moves its
 * connections elsewhere.
 */
export class UpdateProxy {
  constructor(private readonly deps: Omit<ProxyDeps, 'tx'> & { readonly rebalancing: ProxyRebalancing }) {}

  async execute(input: ProxyInput & { readonly actor: Actor; readonly proxyId: number }): Promise<ProxyView> {
    const { proxies, cipher, checker, clock } = this.deps;
    const current = await managedProxy(proxies, input.actor, input.proxyId);
    const next: Proxy = { ...current };
    if (input.name !== undefined) next.name = cleanProxyName(input.name);
    if (input.protocol !== undefined) next.protocol = input.protocol;
    if (input.host !== undefined) next.host = cleanHost(input.host);
    if (input.port !== undefined) next.port = cleanPort(input.port);
    if (input.username !== undefined) next.username = cleanCredential(input.username);
    let password = openPassword(cipher, current);
    if (input.password !== undefined) {
      password = cleanCredential(input.password);
      next.passwordSealed = sealPassword(cipher, next.companyId, password);
    }
    if (password !== null && next.username === null) throw new ValidationError('ERR_PROXY_INVALID_CREDENTIALS');
    if (input.country !== undefined) next.country = cleanCountry(input.country);
    if (input.maxConnections !== undefined) next.maxConnections = cleanMaxConnections(input.maxConnections);
    const reactivate = input.active === true && current.status === 'disabled';
    const disable = input.active === false && current.status !== 'disabled';
    const moved =
      next.protocol !== current.protocol ||
      next.host !== current.host ||
      next.port !== current.port ||
      next.username !== current.username ||
      input.password !== undefined;
    // A new address follows the address rule whatever the check setting, even on a disabled proxy.
    if (moved || reactivate) await checker.admit(next);
    if (disable) Object.assign(next, { status: 'disabled', disabledReason: 'disabled by an admin' });
    else if (reactivate || (moved && next.status !== 'disabled')) {
      if (!input.skipCheck) {
        const { latencyMs } = await liveCheck(checker, endpointOf(cipher, next));
        Object.assign(next, { status: 'healthy', lastLatencyMs: latencyMs, lastCheckAt: clock.now(), lastError: null });
      } else {
        // What the last check found was about the address or credentials before this edit.
        Object.assign(next, { status: 'unchecked', lastLatencyMs: null, lastCheckAt: null, lastError: null });
      }
      Object.assign(next, { disabledReason: null, failCount: 0 });
    }
    next.updatedAt = clock.now();
    await this.deps.rebalancing.run(async (r) => {
      await proxies.update(next);
      if (disable) await r.moveOff(next);
      else if (moved) await r.restartOn(next);
    });
    return (await views(this.deps, [next]))[0]!;
  }
}

/** Removes a proxy: 409 `ERR_PROXY_IN_USE` while connections use it, unless `force` (they are moved elsewhere first). */
export class DeleteProxy {
  constructor(private readonly deps: BalanceDeps) {}

  async execute(input: { readonly actor: Actor; readonly proxyId: number; readonly force?: boolean }): Promise<void> {
    const { proxies, assignments } = this.deps;
    await reassigning(this.deps, async (reassigner) => {
      const proxy = await managedProxy(proxies, input.actor, input.proxyId);
      const users = await assignments.listByProxy(proxy.id);
      if (users.length > 0 && !input.force) throw new ConflictError('ERR_PROXY_IN_USE');
      if (users.length > 0) await reassigner.moveOff({ ...proxy, status: 'disabled' });
      await proxies.remove(proxy.id);
    });
  }
}

export interface ProxyStats {
  total: number;
  active: number;
  disabled: number;
  capacity: number;
  used: number;
  free: number;
  byStatus: Record<ProxyStatus, number>;
  byCountry: Record<string, number>;
  perProxy: {
    id: number;
    name: string;
    assigned: number;
    capacity: number;
    utilisation: number;
    latencyMs: number | null;
    failCount: number;
    status: ProxyStatus;
  }[];
  /** The company's chat-application connections with no proxy. */
  unassignedConnections: number;
}

/** Figures of the pool the admin sees, from the stored proxies and assignment counts. */
export class ProxyStatistics {
  constructor(private readonly deps: Pick<ProxyDeps, 'proxies' | 'assignments'> & { readonly chatappIds: (companyId: number) => Promise<number[]> }) {}

  async execute(input: { readonly actor: Actor }): Promise<ProxyStats> {
    assertAdmin(input.actor);
    const list = await this.deps.proxies.listVisible(input.actor.companyId);
    const counts = await this.deps.assignments.countByProxy(list.map((p) => p.id));
    const byStatus = Object.fromEntries(PROXY_STATUSES.map((s) => [s, 0])) as Record<ProxyStatus, number>;
    const byCountry: Record<string, number> = {};
    let capacity = 0;
    let used = 0;
    const perProxy = list.map((p) => {
      const assigned = counts.get(p.id) ?? 0;
      byStatus[p.status] += 1;
      byCountry[p.country ?? 'unknown'] = (byCountry[p.country ?? 'unknown'] ?? 0) + 1;
      if (p.status !== 'disabled') capacity += p.maxConnections;
      used += assigned;
      return {
        id: p.id,
        name: p.name,
        assigned,
        capacity: p.maxConnections,
        utilisation: Math.round((assigned / p.maxConnections) * 100) / 100,
        latencyMs: p.lastLatencyMs,
        failCount: p.failCount,
        status: p.status,
      };
    });
    const assigned = new Set((await this.deps.assignments.listByCompany(input.actor.companyId)).map((a) => a.connectionId));
    const unassignedConnections = (await this.deps.chatappIds(input.actor.companyId)).filter((id) => !assigned.has(id)).length;
    return {
      total: list.length,
      active: list.length - byStatus.disabled,
      disabled: byStatus.disabled,
      capacity,
      used,
      free: Math.max(0, capacity - used),
      byStatus,
      byCountry,
      perProxy,
      unassignedConnections,
    };
  }
}

/** The health job: checks every proxy not disabled, counts failures in a row, marks `failing` at the limit and moves its connections. */
export class CheckProxies {
  constructor(private readonly deps: Pick<ProxyDeps, 'proxies' | 'checker' | 'cipher' | 'clock'> & { readonly rebalancing: ProxyRebalancing }) {}

  async execute(): Promise<{ checked: number; failing: number }> {
    const { proxies, checker, cipher, clock } = this.deps;
    let checked = 0;
    let failing = 0;
    for (const proxy of await proxies.listAll()) {
      if (proxy.status === 'disabled') continue;
      let endpoint: ProxyEndpoint;
      let result: Awaited<ReturnType<ProxyChecker['check']>>;
      try {
        endpoint = endpointOf(cipher, proxy);
        result = await checker.check(endpoint);
      } catch {
        result = { ok: false, error: 'credentials unreadable' };
      }
      checked += 1;
      const next: Proxy = { ...proxy, lastCheckAt: clock.now(), updatedAt: clock.now() };
      if (result.ok) Object.assign(next, { status: 'healthy', failCount: 0, lastError: null, lastLatencyMs: result.latencyMs });
      else {
        next.failCount = proxy.failCount + 1;
        next.lastError = result.error.slice(0, 500);
        next.status = next.failCount >= FAILURES_BEFORE_FAILING ? 'failing' : 'degraded';
      }
      const becameFailing = next.status === 'failing' && proxy.status !== 'failing';
      if (next.status === 'failing') failing += 1;
      await this.deps.rebalancing.run(async (r) => {
        await proxies.update(next);
        if (becameFailing) await r.moveOff(next);
      });
    }
    return { checked, failing };
  }
}
