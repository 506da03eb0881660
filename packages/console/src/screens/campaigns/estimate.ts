/** The pacing settings the estimate reads (`/campaign-settings`, as numbers and booleans). */
export interface Pacing {
  /** The random gap between two sends, in seconds: from `messageInterval` to `messageIntervalMax`. */
  readonly messageInterval: number;
  readonly messageIntervalMax: number;
  /** A pause of `greaterInterval` seconds after every `longerIntervalAfter` sends (0: never). */
  readonly longerIntervalAfter: number;
  readonly greaterInterval: number;
  /** The sending window on the company's clock, `HH:mm` (`24:00` for the day's end). */
  readonly startHour: string;
  readonly endHour: string;
  /** Whether Saturdays and Sundays are sending days. */
  readonly sabado: boolean;
  readonly domingo: boolean;
  /** Sends per connection in any rolling hour and 24 hours (0: no cap). */
  readonly capHourly: number;
  readonly capDaily: number;
}

/** A moment on the company's wall clock: the weekday (0 Sunday … 6 Saturday) and the seconds since midnight. */
export interface WallClock {
  readonly weekday: number;
  readonly seconds: number;
}

export interface Estimate {
  /** From the start to the last send, in seconds. */
  readonly seconds: number;
  /** When the last send goes out, on the company's clock, counted in days from the start's day. */
  readonly days: number;
  readonly end: WallClock;
}

const DAY = 86_400;
const HOUR = 3_600;

function hhmm(value: string): number {
  const m = /^(\d{1,2}):(\d{2})$/.exec(value.trim());
  if (!m) return 0;
  return Math.min(DAY, Number(m[1]) * HOUR + Number(m[2]) * 60);
}

/**
 * When a campaign of `recipients` would send its last message under `pacing`, starting at `start`
 * on the company's clock, with the connection free (no other campaign on it, the session connected,
 * no provider back-off) and each gap at its average. Null when the settings never allow a send
 * (no sending day, or an empty window). A model of the dispatcher's rules, not a promise.
 */
export function estimateFinish(recipients: number, pacing: Pacing, start: WallClock): Estimate | null {
  const open = hhmm(pacing.startHour);
  const close = hhmm(pacing.endHour);
  const sendsOn = (weekday: number) => (weekday === 6 ? pacing.sabado : weekday === 0 ? pacing.domingo : true);
  if (close <= open || ![0, 1, 2, 3, 4, 5, 6].some(sendsOn)) return null;
  const origin = start.seconds;
  const wall = (t: number) => {
    const abs = origin + t;
    const day = Math.floor(abs / DAY);
    return { day, weekday: (((start.weekday + day) % 7) + 7) % 7, seconds: abs - day * DAY };
  };
  /** The first moment at or after `t` inside the window. */
  const inWindow = (t: number): number => {
    for (let i = 0; i < 9; i++) {
      const w = wall(t);
      if (sendsOn(w.weekday) && w.seconds >= open && w.seconds < close) return t;
      if (sendsOn(w.weekday) && w.seconds < open) t += open - w.seconds;
      else t += DAY - w.seconds + open;
    }
    return t;
  };
  const gap = Math.max(0, (pacing.messageInterval + Math.max(pacing.messageInterval, pacing.messageIntervalMax)) / 2);
  const sent: number[] = [];
  let hourFrom = 0;
  let dayFrom = 0;
  let t = 0;
  let last = 0;
  for (let i = 0; i < recipients; i++) {
    for (let again = true; again; ) {
      again = false;
      t = inWindow(t);
      while (hourFrom < sent.length && sent[hourFrom]! <= t - HOUR) hourFrom++;
      while (dayFrom < sent.length && sent[dayFrom]! <= t - DAY) dayFrom++;
      if (pacing.capHourly > 0 && sent.length - hourFrom >= pacing.capHourly) {
        t = sent[sent.length - pacing.capHourly]! + HOUR;
        again = true;
      } else if (pacing.capDaily > 0 && sent.length - dayFrom >= pacing.capDaily) {
        t = sent[sent.length - pacing.capDaily]! + DAY;
        again = true;
      }
    }
    sent.push(t);
    last = t;
    t += gap;
    if (pacing.longerIntervalAfter > 0 && (i + 1) % pacing.longerIntervalAfter === 0) t += pacing.greaterInterval;
  }
  const w = wall(last);
  return { seconds: last, days: w.day, end: { weekday: w.weekday, seconds: w.seconds } };
}

/** The settings' stored rows (`[{key, value}]`, every value a string) read as pacing, the documented defaults filling the gaps. */
export function pacingOf(rows: ReadonlyArray<{ key: string; value: string }>): Pacing {
  const v = new Map(rows.map((r) => [r.key, r.value]));
  const num = (key: string, fallback: number) => {
    const n = Number(v.get(key));
    return v.has(key) && Number.isFinite(n) ? n : fallback;
  };
  const bool = (key: string) => v.get(key) === 'true' || v.get(key) === 'enabled' || v.get(key) === '1';
  return {
    messageInterval: num('messageInterval', 20),
    messageIntervalMax: num('messageIntervalMax', 40),
    longerIntervalAfter: num('longerIntervalAfter', 20),
    greaterInterval: num('greaterInterval', 60),
    startHour: v.get('startHour') ?? '08:00',
    endHour: v.get('endHour') ?? '20:00',
    sabado: bool('sabado'),
    domingo: bool('domingo'),
    capHourly: num('capHourly', 30),
    capDaily: num('capDaily', 150),
  };
}
