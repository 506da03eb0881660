import WebSocket from 'ws';
import { recorder } from './recorder.js';

export interface Frame {
  seq: number;
  event: string;
  data: { action: string } & Record<string, any>;
}

/** A client of a company's realtime namespace that keeps every frame and waits for the one a test needs. */
export async function openNamespace(baseUrl: string, companyId: number, token: string) {
  const ws = new WebSocket(`${baseUrl.replace('http', 'ws')}/${companyId}?token=${token}`);
  const received = recorder<Frame>('frame');
  const frames = received.items;
  ws.on('message', (raw) => received.push(JSON.parse(String(raw)) as Frame));
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  return {
    frames,
    /** Frames of one event name (`company-<id>-<entity>`). */
    of: (entity: string) => frames.filter((f) => f.event === `company-${companyId}-${entity}`),
    /** Resolves with the first frame (already seen or still to come) that matches. */
    waitFor: (match: (f: Frame) => boolean, ms = 60_000): Promise<Frame> => received.waitFor(match, ms),
    /** Sends a client message (`{"event","data"}` as text), as the console's `joinChatBox` / `joinChatBoxLeave`. */
    send: (message: unknown) => ws.send(typeof message === 'string' ? message : JSON.stringify(message)),
    close: () => ws.close(),
  };
}
