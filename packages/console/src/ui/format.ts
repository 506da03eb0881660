/**
 * Dates and times in the chosen language. Each `Intl.DateTimeFormat` is made once per language
 * and kept: `toLocaleTimeString` and its kin build a new formatter at every call, which the
 * bench's scroll profile caught at over a second of script while the ticket list scrolled.
 */
const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(language: string, kind: keyof typeof OPTIONS): Intl.DateTimeFormat {
  const key = `${kind} ${language}`;
  let made = formatters.get(key);
  if (!made) {
    made = new Intl.DateTimeFormat(language, OPTIONS[kind]);
    formatters.set(key, made);
  }
  return made;
}
const OPTIONS = {
  time: { hour: '2-digit', minute: '2-digit' },
  weekday: { weekday: 'short' },
  date: { day: '2-digit', month: '2-digit', year: '2-digit' },
  day: { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' },
} satisfies Record<string, Intl.DateTimeFormatOptions>;

/** The local calendar day of a time, as one comparable number. */
const dayOf = (d: Date) => d.getFullYear() * 10_000 + d.getMonth() * 100 + d.getDate();

/** "14:05" today, "Mon" this week, else the date, in the chosen language. */
export function relativeTime(iso: string, language: string, now = new Date()): string {
  const date = new Date(iso);
  if (dayOf(date) === dayOf(now)) return formatter(language, 'time').format(date);
  const days = (now.getTime() - date.getTime()) / 86_400_000;
  if (days < 6) return formatter(language, 'weekday').format(date);
  return formatter(language, 'date').format(date);
}

export function timeOfDay(iso: string, language: string): string {
  return formatter(language, 'time').format(new Date(iso));
}

/** The day heading of a group of messages. */
export function dayLabel(iso: string, language: string, labels: { today: string; yesterday: string }, now = new Date()): string {
  const date = new Date(iso);
  if (dayOf(date) === dayOf(now)) return labels.today;
  const yesterday = new Date(now);
  yesterday.setDate(now.getDate() - 1);
  if (dayOf(date) === dayOf(yesterday)) return labels.yesterday;
  return formatter(language, 'day').format(date);
}

/** A person's initials for an avatar (`Ana Souza` → `AS`), at most two; `?` for a name without letters. */
export function initials(name: string): string {
  return (
    name
      .split(/\s+/)
      .filter(Boolean)
      .slice(0, 2)
      .map((w) => w[0]!.toUpperCase())
      .join('') || '?'
  );
}
