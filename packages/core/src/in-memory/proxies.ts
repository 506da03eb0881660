import type { ProxyAssignments, Proxies, ProxyChecker, ProxyCheckResult } from '../proxies/ports.js';
import type { NewProxy, Proxy, ProxyAssignment, ProxyEndpoint } from '../proxies/proxy.js';
import { ValidationError } from '../shared/errors.js';
import { compareFolded, InMemoryTable } from './table.js';

const byName = (a: Proxy, b: Proxy) => compareFolded(a.name, b.name) || a.id - b.id;

/** Proxy pools in memory; removing a proxy removes its assignments, as the SQL foreign key does. */
export class InMemoryProxies implements Proxies {
  readonly table = new InMemoryTable<Proxy>();

  constructor(private readonly assignments?: InMemoryProxyAssignments) {}

  private visible(companyId: number | null, p: Proxy) {
    return p.companyId === null || p.companyId === companyId;
  }
  async findVisible(companyId: number | null, id: number) {
    const p = this.table.get(id);
    return p && this.visible(companyId, p) ? p : null;
  }
  async listVisible(companyId: number | null) {
    return this.table.filter((p) => this.visible(companyId, p)).sort(byName);
  }
  async listAll() {
    return this.table.filter(() => true).sort((a, b) => a.id - b.id);
  }
  async add(proxy: NewProxy) {
    return this.table.insert(proxy);
  }
  async update(proxy: Proxy) {
    const stored = this.table.get(proxy.id);
    if (stored) this.table.replace({ ...proxy, companyId: stored.companyId, createdAt: stored.createdAt });
  }
  async remove(id: number) {
    this.table.delete(id);
    this.assignments?.dropProxy(id);
  }
}

export class InMemoryProxyAssignments implements ProxyAssignments {
  readonly rows = new Map<number, ProxyAssignment>();

  dropProxy(proxyId: number) {
    for (const [id, a] of this.rows) if (a.proxyId === proxyId) this.rows.delete(id);
  }
  async findByConnection(companyId: number, connectionId: number) {
    const a = this.rows.get(connectionId);
    return a && a.companyId === companyId ? structuredClone(a) : null;
  }
  async listByCompany(companyId: number) {
    return [...this.rows.values()].filter((a) => a.companyId === companyId).map((a) => structuredClone(a));
  }
  async listByProxy(proxyId: number) {
    return [...this.rows.values()]
      .filter((a) => a.proxyId === proxyId)
      .sort((a, b) => a.connectionId - b.connectionId)
      .map((a) => structuredClone(a));
  }
  async countByProxy(proxyIds: readonly number[]) {
    const counts = new Map<number, number>();
    for (const a of this.rows.values()) if (proxyIds.includes(a.proxyId)) counts.set(a.proxyId, (counts.get(a.proxyId) ?? 0) + 1);
    return counts;
  }
  async assign(a: ProxyAssignment) {
    this.rows.set(a.connectionId, structuredClone(a));
  }
  async remove(companyId: number, connectionId: number) {
    const a = this.rows.get(connectionId);
    if (!a || a.companyId !== companyId) return false;
    this.rows.delete(connectionId);
    return true;
  }
}

/**
 * A checker whose answers the test sets per host (`fail(host, why)`); every other host passes in 10 ms.
 * Hosts given to `forbid` are refused by the address rule (`ERR_URL_NOT_ALLOWED`), checked or not.
 */
export class InMemoryProxyChecker implements ProxyChecker {
  readonly failing = new Map<string, string>();
  readonly forbidden = new Set<string>();
  readonly checked: ProxyEndpoint[] = [];

  fail(host: string, error = 'connection refused') {
    this.failing.set(host, error);
  }
  heal(host: string) {
    this.failing.delete(host);
  }
  forbid(host: string) {
    this.forbidden.add(host);
  }
  async admit(endpoint: Pick<ProxyEndpoint, 'host' | 'port'>): Promise<void> {
    if (this.forbidden.has(endpoint.host)) throw new ValidationError('ERR_URL_NOT_ALLOWED');
  }
  async check(endpoint: ProxyEndpoint): Promise<ProxyCheckResult> {
    await this.admit(endpoint);
    this.checked.push(endpoint);
    const error = this.failing.get(endpoint.host);
    return error === undefined ? { ok: true, latencyMs: 10 } : { ok: false, error };
  }
}
