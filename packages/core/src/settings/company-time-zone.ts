import { DEFAULT_TIME_ZONE, isTimeZone } from '../tenancy/business-hours.js';
import type { Settings } from './ports.js';

/** The company's time zone (setting `timezone`), the default when unset or unknown. */
export async function companyTimeZone(settings: Pick<Settings, 'get'>, companyId: number): Promise<string> {
  const zone = await settings.get(companyId, 'timezone');
  return zone && isTimeZone(zone) ? zone : DEFAULT_TIME_ZONE;
}
