import type { NewObjstoreConfig, ObjstoreConfig, ObjstoreConnection } from '../objstore/objstore-config.js';
import type { BlobLocation, BlobLocations, ObjstoreCheckReport, ObjstoreCheckStep, ObjstoreConfigs, ObjstoreProbe } from '../objstore/ports.js';
import type { ErrorCode } from '../shared/error-codes.js';
import { ConflictError } from '../shared/errors.js';
import { InMemoryTable, compareFolded } from './table.js';

const byName = (a: ObjstoreConfig, b: ObjstoreConfig) => compareFolded(a.name, b.name) || a.id - b.id;

/** Object-store configs in memory, ordered as the SQL adapter orders them. */
export class InMemoryObjstoreConfigs implements ObjstoreConfigs {
  readonly table = new InMemoryTable<ObjstoreConfig>();

  /** With the locations, removing a config that holds blobs is refused, as the SQL adapter refuses it. */
  constructor(private readonly locations?: InMemoryBlobLocations) {}

  async findById(companyId: number, id: number) {
    return this.table.find((c) => c.id === id && c.companyId === companyId);
  }
  async findActive(companyId: number) {
    return this.table.find((c) => c.companyId === companyId && c.active);
  }
  async list(companyId: number) {
    return this.table.filter((c) => c.companyId === companyId).sort(byName);
  }
  async add(c: NewObjstoreConfig) {
    return this.table.insert({ ...c, active: false });
  }
  async update(c: ObjstoreConfig) {
    const stored = this.table.get(c.id);
    if (!stored || stored.companyId !== c.companyId) return;
    this.table.replace({ ...c, companyId: stored.companyId, createdAt: stored.createdAt, active: stored.active });
  }
  async activate(companyId: number, id: number) {
    const target = this.table.get(id);
    if (!target || target.companyId !== companyId) return [];
    const others = this.table.filter((c) => c.companyId === companyId && c.active && c.id !== id);
    for (const c of others) this.table.replace({ ...c, active: false });
    this.table.replace({ ...target, active: true });
    return others.map((c) => c.id);
  }
  async deactivate(companyId: number, id: number) {
    const stored = this.table.get(id);
    if (stored && stored.companyId === companyId) this.table.replace({ ...stored, active: false });
  }
  async remove(companyId: number, id: number) {
    if (!(await this.findById(companyId, id))) return false;
    if (this.locations && (await this.locations.countOf(companyId, id)) > 0) throw new ConflictError('ERR_OBJSTORE_CONFIG_IN_USE');
    this.table.delete(id);
    return true;
  }
}

/** Blob locations in memory, by key. */
export class InMemoryBlobLocations implements BlobLocations {
  readonly rows = new Map<string, BlobLocation>();

  async find(key: string) {
    return this.rows.get(key) ?? null;
  }
  async save(location: BlobLocation) {
    this.rows.set(location.key, { ...location });
  }
  async forget(key: string) {
    this.rows.delete(key);
  }
  async usage(prefix: string) {
    let total = 0;
    for (const row of this.rows.values()) if (row.key.startsWith(prefix)) total += row.size;
    return total;
  }
  async countOf(companyId: number, configId: number) {
    return [...this.rows.values()].filter((r) => r.companyId === companyId && r.configId === configId).length;
  }
}

/**
 * A connection test for tests: succeeds unless `failAt` names a step, and records each call
 * (the secret included, to prove which one was used).
 */
export class InMemoryObjstoreProbe implements ObjstoreProbe {
  readonly calls: Array<{ connection: ObjstoreConnection; probeKey: string }> = [];
  failAt: { step: ObjstoreCheckStep; error: ErrorCode } | null = null;

  async check(connection: ObjstoreConnection, probeKey: string): Promise<ObjstoreCheckReport> {
    this.calls.push({ connection: { ...connection }, probeKey });
    return this.failAt ? { ok: false, ...this.failAt } : { ok: true, latencyMs: 12 };
  }
}
