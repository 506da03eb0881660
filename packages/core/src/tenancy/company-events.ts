import type { RealtimeEventOf } from '../realtime/ports.js';
import type { CompanyView } from './company.js';

/** `company-<id>-company`: the company's own record (name, plan, schedules…) changed. */
export type CompanyEvent = RealtimeEventOf<'company', { readonly action: 'update'; readonly company: CompanyView }>;
