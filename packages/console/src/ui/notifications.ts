import { PREFERENCES_CHANGED } from './theme.js';
/**
 * Desktop notifications and a short sound for a contact's new message while the tab is hidden.
 * The browser's permission is asked once, from a click (browsers ignore it otherwise); the sound and
 * the notifications can be muted per user on this browser.
 */
const MUTE_KEY = (userId: number) => `servicedesk.muted.${userId}`;

export function notificationsSupported(): boolean {
  return typeof Notification === 'function';
}

export function isMuted(userId: number): boolean {
  return localStorage.getItem(MUTE_KEY(userId)) === '1';
}

export function setMuted(userId: number, muted: boolean): void {
  if (muted) localStorage.setItem(MUTE_KEY(userId), '1');
  else localStorage.removeItem(MUTE_KEY(userId));
  window.dispatchEvent(new Event(PREFERENCES_CHANGED));
}

let audio: AudioContext | null = null;
/** Two short tones, synthesised: no sound file to load. */
function chime(): void {
  try {
    audio ??= new AudioContext();
    const now = audio.currentTime;
    for (const [i, freq] of [880, 1320].entries()) {
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.0001, now + i * 0.12);
      gain.gain.exponentialRampToValueAtTime(0.2, now + i * 0.12 + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, now + i * 0.12 + 0.11);
      osc.connect(gain).connect(audio.destination);
      osc.start(now + i * 0.12);
      osc.stop(now + i * 0.12 + 0.12);
    }
  } catch {
    /* no audio output: the notification alone */
  }
}

/** A contact's message arrived: tell the operator if they are looking elsewhere. */
export function notifyInbound(userId: number, title: string, body: string, open: () => void): void {
  if (!document.hidden || isMuted(userId)) return;
  chime();
  if (!notificationsSupported() || Notification.permission !== 'granted') return;
  const n = new Notification(title, { body: body.slice(0, 140), tag: title });
  n.onclick = () => {
    window.focus();
    open();
    n.close();
  };
}
