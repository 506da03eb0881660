import type { Settings } from '../settings/ports.js';

export class InMemorySettings implements Settings {
  private readonly values = new Map<string, string>();
  private key(companyId: number | null, key: string) {
    return `${companyId ?? 'global'}:${key}`;
  }

  async get(companyId: number | null, key: string) {
    return this.values.get(this.key(companyId, key)) ?? null;
  }
  async all(companyId: number | null) {
    const prefix = `${companyId ?? 'global'}:`;
    const out = new Map<string, string>();
    for (const [k, v] of this.values) if (k.startsWith(prefix)) out.set(k.slice(prefix.length), v);
    return out;
  }
  async put(companyId: number | null, key: string, value: string) {
    this.values.set(this.key(companyId, key), value);
  }
  dropCompany(companyId: number) {
    for (const k of [...this.values.keys()]) if (k.startsWith(`${companyId}:`)) this.values.delete(k);
  }
}
