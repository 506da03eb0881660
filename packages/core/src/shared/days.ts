import { ValidationError } from './errors.js';

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The first instant of a UTC day; 422 for anything but a real `YYYY-MM-DD`. */
export function dayStart(day: string): Date {
  const m = DAY.exec(day);
  const date = m ? new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]))) : null;
  if (!date || Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== day) throw new ValidationError('ERR_INVALID_DATE');
  return date;
}

/** The first instant of the day after: the exclusive end of a range that includes `day`. */
export function dayEnd(day: string): Date {
  return new Date(dayStart(day).getTime() + 86_400_000);
}
