import { ValidationError } from '../shared/errors.js';
import { isEmail, normalizeEmail } from '../shared/text.js';
import { isValidCnpj, onlyDigits } from '../cnpj/cnpj.js';
import { isTimeOfDay, type BusinessHours } from './company.js';

export interface CompanyFields {
  readonly name?: string;
  readonly email?: string | null;
  readonly phone?: string | null;
  readonly document?: string | null;
  readonly status?: boolean;
  readonly planId?: number;
  readonly dueDate?: string | null;
  readonly recurrence?: string;
  readonly paymentMethod?: string | null;
}

export function cleanCompanyName(name: string): string {
  const trimmed = name.trim();
  if (trimmed.length < 2 || trimmed.length > 120) throw new ValidationError('ERR_INVALID_COMPANY_NAME');
  return trimmed;
}

export function cleanCompanyEmail(email: string | null | undefined): string | null {
  if (email === null || email === undefined || email.trim() === '') return null;
  const normalized = normalizeEmail(email);
  if (!isEmail(normalized)) throw new ValidationError('ERR_INVALID_EMAIL');
  return normalized;
}

/** CPF (11 digits) is kept as given; a CNPJ (14 digits) must have valid check digits. */
export function cleanDocument(document: string | null | undefined): string | null {
  if (document === null || document === undefined || document.trim() === '') return null;
  const digits = onlyDigits(document);
  if (digits.length === 14 && isValidCnpj(digits)) return digits;
  if (digits.length === 11) return digits;
  throw new ValidationError('ERR_INVALID_DOCUMENT');
}

export function cleanDueDate(date: string | null | undefined): string | null {
  if (date === null || date === undefined || date === '') return null;
  const day = date.slice(0, 10);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day) || Number.isNaN(Date.parse(day))) throw new ValidationError('ERR_INVALID_DUE_DATE');
  return day;
}

const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'] as const;

export function cleanSchedules(schedules: readonly BusinessHours[]): BusinessHours[] {
  if (schedules.length > 7 * 4) throw new ValidationError('ERR_INVALID_SCHEDULES');
  return schedules.map((s) => {
    const blank = s.startTime === '' && s.endTime === '';
    if (!WEEKDAYS.includes(s.weekdayEn)) throw new ValidationError('ERR_INVALID_SCHEDULES');
    if (!blank && (!isTimeOfDay(s.startTime) || !isTimeOfDay(s.endTime) || s.startTime >= s.endTime)) {
      throw new ValidationError('ERR_INVALID_SCHEDULES');
    }
    return { weekday: s.weekday, weekdayEn: s.weekdayEn, startTime: s.startTime, endTime: s.endTime };
  });
}

/** A week with no business hours set: one empty slot per day, the shape the lineage's editor expects. */
export function emptyWeek(): BusinessHours[] {
  const names = ['Domingo', 'Segunda-feira', 'Terça-feira', 'Quarta-feira', 'Quinta-feira', 'Sexta-feira', 'Sábado'];
  return WEEKDAYS.map((weekdayEn, i) => ({ weekday: names[i]!, weekdayEn, startTime: '', endTime: '' }));
}
