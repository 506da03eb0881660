import WebSocket from 'ws';
import { now } from './stats.js';

/** A realtime frame as the backend sends it: `{seq, event, data}`. */
export interface Frame {
  seq: number;
  event: string;
  data: Record<string, any>;
}

/**
 * One operator's connection to a company namespace that indexes the frames a scenario waits
 * for. `keysOf` names the keys a frame satisfies (for example the provider id of an inbound
 * message, or `delivered:<id>` once a message's ack reaches 2); `wait(key)` resolves with the
 * arrival time of the first frame with that key, even when it came before the wait.
 */
export class NamespaceObserver {
  private readonly seen = new Map<string, number>();
  private readonly waiters = new Map<string, Array<(t: number) => void>>();
  frames = 0;

  private constructor(
    private readonly ws: WebSocket,
    private readonly keysOf: (frame: Frame) => string[],
    private readonly filter: (raw: string) => boolean,
  ) {
    ws.on('message', (raw) => {
      const t = now();
      this.frames++;
      const text = String(raw);
      if (!this.filter(text)) return;
      let frame: Frame;
      try {
        frame = JSON.parse(text) as Frame;
      } catch {
        return;
      }
      for (const key of this.keysOf(frame)) {
        if (this.seen.has(key)) continue;
        this.seen.set(key, t);
        const list = this.waiters.get(key);
        if (list) {
          this.waiters.delete(key);
          for (const w of list) w(t);
        }
      }
    });
  }

  static async open(url: string, keysOf: (frame: Frame) => string[], filter: (raw: string) => boolean = () => true): Promise<NamespaceObserver> {
    const ws = new WebSocket(url, { perMessageDeflate: false });
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
      ws.once('unexpected-response', (_req, res) => reject(new Error(`namespace refused: ${res.statusCode}`)));
    });
    return new NamespaceObserver(ws, keysOf, filter);
  }

  /** Arrival time of the first frame with `key` (performance.now()), or null after `ms`. */
  wait(key: string, ms: number): Promise<number | null> {
    const t = this.seen.get(key);
    if (t !== undefined) return Promise.resolve(t);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        const list = this.waiters.get(key);
        if (list) {
          const rest = list.filter((w) => w !== done);
          if (rest.length) this.waiters.set(key, rest);
          else this.waiters.delete(key);
        }
        resolve(null);
      }, ms);
      const done = (at: number) => {
        clearTimeout(timer);
        resolve(at);
      };
      const list = this.waiters.get(key);
      if (list) list.push(done);
      else this.waiters.set(key, [done]);
    });
  }

  has(key: string): boolean {
    return this.seen.has(key);
  }
  arrival(key: string): number | undefined {
    return this.seen.get(key);
  }

  /** Forgets what was seen (between phases). */
  reset(): void {
    this.seen.clear();
  }

  close(): void {
    this.ws.close();
  }
}

/** Keys of the message frames the bench waits for: inbound provider ids, and sends as `sent` and `delivered`. */
export function messageKeys(frame: Frame): string[] {
  if (!frame.event.endsWith('-appMessage')) return [];
  const m = frame.data.message as { id?: string; providerMessageId?: string | null; ack?: number; fromMe?: boolean } | undefined;
  if (!m) return [];
  const keys: string[] = [];
  if (frame.data.action === 'create' && m.providerMessageId && !m.fromMe) keys.push(`in:${m.providerMessageId}`);
  if (m.id && m.ack === 1) keys.push(`sent:${m.id}`);
  if (m.id && typeof m.ack === 'number' && m.ack >= 2) keys.push(`delivered:${m.id}`);
  if (m.id && m.ack === -1) keys.push(`failed:${m.id}`);
  return keys;
}

/** Only message frames are parsed. */
export const messageFrames = (raw: string) => raw.includes('-appMessage"');
