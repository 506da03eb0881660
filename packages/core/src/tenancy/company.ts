import { toDayHours, type BusinessHours, type DayHours } from './day-hours.js';

/** A slot of business hours lives with the days it makes up (`day-hours.ts`); a company holds a list of them. */
export type { BusinessHours } from './day-hours.js';

export interface Company {
  id: number;
  name: string;
  email: string | null;
  phone: string | null;
  /** CNPJ or CPF digits, when given. */
  document: string | null;
  /** Inactive companies cannot log in (super users excepted). */
  status: boolean;
  planId: number;
  /** Date (YYYY-MM-DD) the current period is paid until. */
  dueDate: string | null;
  recurrence: string;
  paymentMethod: string | null;
  schedules: BusinessHours[];
  createdAt: Date;
  updatedAt: Date;
}

export type NewCompany = Omit<Company, 'id'>;

export interface CompanyView extends Omit<Company, 'createdAt' | 'updatedAt' | 'schedules'> {
  /** One entry per day with up to two ranges (`startTimeA`…`endTimeB`), as the lineage's hours editor reads and sends them. */
  schedules: DayHours[];
  createdAt: string;
  updatedAt: string;
}

export function toCompanyView(c: Company): CompanyView {
  return { ...c, schedules: toDayHours(c.schedules), createdAt: c.createdAt.toISOString(), updatedAt: c.updatedAt.toISOString() };
}

const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;
export function isTimeOfDay(value: string): boolean {
  return TIME.test(value);
}
