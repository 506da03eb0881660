import type { NewProxy, Proxy, ProxyAssignment, ProxyEndpoint } from './proxy.js';

/** The proxy pools. A company sees its own proxies and the platform's (`companyId` null). */
export interface Proxies {
  /** The proxy if it is the company's or the platform's (`companyId` null: the platform's only). */
  findVisible(companyId: number | null, id: number): Promise<Proxy | null>;
  /** The company's and the platform's proxies (`companyId` null: the platform's only), by name then id. */
  listVisible(companyId: number | null): Promise<Proxy[]>;
  /** Every proxy of every pool, for the health job. */
  listAll(): Promise<Proxy[]>;
  add(proxy: NewProxy): Promise<Proxy>;
  /** Saves every field but `companyId` and `createdAt`. */
  update(proxy: Proxy): Promise<void>;
  /** Removes it and its assignments. */
  remove(id: number): Promise<void>;
}

/** Which proxy each connection goes through. */
export interface ProxyAssignments {
  findByConnection(companyId: number, connectionId: number): Promise<ProxyAssignment | null>;
  /** The assignments of the company's connections. */
  listByCompany(companyId: number): Promise<ProxyAssignment[]>;
  /** Every connection (of any company) on the proxy. */
  listByProxy(proxyId: number): Promise<ProxyAssignment[]>;
  /** How many connections each proxy carries (proxies with none are absent), counted in the database. */
  countByProxy(proxyIds: readonly number[]): Promise<Map<number, number>>;
  /** Sets or replaces the connection's proxy. */
  assign(assignment: ProxyAssignment): Promise<void>;
  /** False when the connection had none. */
  remove(companyId: number, connectionId: number): Promise<boolean>;
}

/** What a check through a proxy found. */
export type ProxyCheckResult = { readonly ok: true; readonly latencyMs: number } | { readonly ok: false; readonly error: string };

/**
 * Opens a connection through the proxy to a target the checker controls (never through the proxy
 * to an address the caller chose); never throws for a proxy that fails, it answers `ok: false`.
 */
export interface ProxyChecker {
  check(endpoint: ProxyEndpoint): Promise<ProxyCheckResult>;
  /**
   * Applies the outgoing-call rule to the proxy's own address without connecting, for a proxy saved
   * without a check: 422 `ERR_URL_NOT_ALLOWED` when it is not public (unless the deployment allows
   * private addresses). A host that does not resolve yet passes: `check` applies the rule again when
   * it connects.
   */
  admit(endpoint: Pick<ProxyEndpoint, 'host' | 'port'>): Promise<void>;
}
