/** One slot of a company's business hours, in the lineage's shape. */
export interface BusinessHours {
  weekday: string;
  weekdayEn: 'sunday' | 'monday' | 'tuesday' | 'wednesday' | 'thursday' | 'friday' | 'saturday';
  startTime: string;
  endTime: string;
}

/**
 * A day of business hours (a queue's, a company's) as the lineage's editors send and reads it: up to two ranges, `A`
 * and `B` (a morning and an afternoon); a range with blank times is none. Stored as one
 * `BusinessHours` slot per range (a day without ranges keeps one blank slot, for its label).
 */
export interface DayHours {
  weekday: string;
  weekdayEn: BusinessHours['weekdayEn'];
  startTimeA: string;
  endTimeA: string;
  startTimeB: string;
  endTimeB: string;
}

const isBlank = (start: string, end: string) => start === '' && end === '';

/** Stored slots to the editor's days: a day's first two non-blank slots are its ranges `A` and `B`. */
export function toDayHours(slots: readonly BusinessHours[]): DayHours[] {
  const days = new Map<string, { weekday: string; ranges: BusinessHours[] }>();
  for (const slot of slots) {
    const day = days.get(slot.weekdayEn) ?? { weekday: slot.weekday, ranges: [] };
    if (!isBlank(slot.startTime, slot.endTime)) day.ranges.push(slot);
    days.set(slot.weekdayEn, day);
  }
  return [...days].map(([weekdayEn, { weekday, ranges }]) => ({
    weekday,
    weekdayEn: weekdayEn as BusinessHours['weekdayEn'],
    startTimeA: ranges[0]?.startTime ?? '',
    endTimeA: ranges[0]?.endTime ?? '',
    startTimeB: ranges[1]?.startTime ?? '',
    endTimeB: ranges[1]?.endTime ?? '',
  }));
}

/** A day as the editor sends it, or a slot as stored (`startTime`/`endTime`, the company's shape). */
export type DayHoursInput = DayHours | BusinessHours;

/** The editor's days to slots: each non-blank range one slot, a day without ranges one blank slot. */
export function fromDayHours(days: readonly DayHoursInput[]): BusinessHours[] {
  return days.flatMap((d): BusinessHours[] => {
    if (!('startTimeA' in d)) return [{ weekday: d.weekday, weekdayEn: d.weekdayEn, startTime: d.startTime, endTime: d.endTime }];
    const ranges = [
      [d.startTimeA, d.endTimeA],
      [d.startTimeB, d.endTimeB],
    ].filter(([start, end]) => !isBlank(start!, end!));
    const slots = ranges.map(([startTime, endTime]) => ({ weekday: d.weekday, weekdayEn: d.weekdayEn, startTime: startTime!, endTime: endTime! }));
    return slots.length ? slots : [{ weekday: d.weekday, weekdayEn: d.weekdayEn, startTime: '', endTime: '' }];
  });
}
