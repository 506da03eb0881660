import { settingDefinition } from '../settings/catalog.js';
import { companyTimeZone } from '../settings/company-time-zone.js';
import type { Settings } from '../settings/ports.js';
import type { Clock } from '../shared/ports.js';
import { isWithinBusinessHours } from '../tenancy/business-hours.js';
import type { Companies } from '../tenancy/ports.js';
import type { Queue } from '../queues/queue.js';

/**
 * The company's settings and opening hours as the inbound routing reads them: a setting (or its
 * catalog default), whether the company or a queue is open now, in the company's time zone.
 */
export class RoutingSettings {
  constructor(private readonly deps: { settings: Settings; companies: Companies; clock: Clock }) {}

  /** A company setting, or its catalog default; blank text reads as none. */
  async setting(companyId: number, key: string): Promise<string | null> {
    const value = (await this.deps.settings.get(companyId, key)) ?? settingDefinition(key)?.defaultValue ?? null;
    return value === null || value.trim() === '' ? null : value;
  }

  /** Within the company's hours now (a company not found is open). */
  async companyOpen(companyId: number): Promise<boolean> {
    const company = await this.deps.companies.findById(companyId);
    return !company || isWithinBusinessHours(company.schedules, this.deps.clock.now(), await this.timeZone(companyId));
  }

  /** Within the queue's hours now. */
  async queueOpen(queue: Pick<Queue, 'schedules'>, companyId: number): Promise<boolean> {
    return isWithinBusinessHours(queue.schedules, this.deps.clock.now(), await this.timeZone(companyId));
  }

  private timeZone(companyId: number): Promise<string> {
    return companyTimeZone(this.deps.settings, companyId);
  }
}
