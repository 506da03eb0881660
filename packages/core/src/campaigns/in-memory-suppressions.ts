import type { Suppressions } from './ports.js';

/** The suppression list in a map. */
export class InMemorySuppressions implements Suppressions {
  readonly entries: Array<{ companyId: number; number: string; reason: string; campaignId: number | null; createdAt: Date }> = [];

  async suppressed(companyId: number, numbers: readonly string[]) {
    const wanted = new Set(numbers);
    return new Set(this.entries.filter((e) => e.companyId === companyId && wanted.has(e.number)).map((e) => e.number));
  }

  async add(entry: { companyId: number; number: string; reason: string; campaignId: number | null; createdAt: Date }) {
    if (!this.entries.some((e) => e.companyId === entry.companyId && e.number === entry.number)) this.entries.push({ ...entry });
  }
}
