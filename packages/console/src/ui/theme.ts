export type Theme = 'light' | 'dark';
const KEY = 'servicedesk.theme';

/** The theme chosen before, else the system's. */
export function currentTheme(): Theme {
  const saved = localStorage.getItem(KEY);
  if (saved === 'light' || saved === 'dark') return saved;
  return window.matchMedia?.('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

/** Sent on `window` when a preference of this browser changes (theme, notifications), so every control showing it follows. */
export const PREFERENCES_CHANGED = 'servicedesk:preferences';

export function applyTheme(theme: Theme, remember = true): void {
  document.documentElement.dataset.theme = theme;
  if (remember) {
    localStorage.setItem(KEY, theme);
    window.dispatchEvent(new Event(PREFERENCES_CHANGED));
  }
}
