/** "14:05" today, "Mon" this week, else the date, in the chosen language. */
export function relativeTime(iso: string, language: string, now = new Date()): string {
  const date = new Date(iso);
  const sameDay = date.toDateString() === now.toDateString();
  if (sameDay) return date.toLocaleTimeString(language, { hour: '2-digit', minute: '2-digit' });
  const days = (now.getTime() - date.getTime()) / 86_400_000;
  if (days < 6) return date.toLocaleDateString(language, { weekday: 'short' });
  return date.toLocaleDateString(language, { day: '2-digit', month: '2-digit', year: '2-digit' });
}

export function timeOfDay(iso: string, language: string): string {
  return new Date(iso).toLocaleTimeString(language, { hour: '2-digit', minute: '2-digit' });
}

/** The day heading of a group of messages. */
export function dayLabel(iso: string, language: string, labels: { today: string; yesterday: string }, now = new Date()): string {
  const date = new Date(iso);
  if (date.toDateString() === now.toDateString()) return labels.today;
  const yesterday = new Date(now);
  yesterday.setDate(now.getDate() - 1);
  if (date.toDateString() === yesterday.toDateString()) return labels.yesterday;
  return date.toLocaleDateString(language, { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' });
}
