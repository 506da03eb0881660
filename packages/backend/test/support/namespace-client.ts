import WebSocket from 'ws';

export interface Frame { seq: number; event: string; data: { action: string } & Record<string, any>; }

/** A client of a company's realtime namespace that keeps every frame and waits for the one a test needs. */
export async function openNamespace(baseUrl: string, companyId: number, token: string) {
  const ws = new WebSocket(`${baseUrl.replace('http', 'ws')}/${companyId}?token=${token}`);
  const frames: Frame[] = [];
  const waiters = new Set<() => void>();
  ws.on('message', (raw) => {
    frames.push(JSON.parse(String(raw)) as Frame);
    for (const w of [...waiters]) w();
  });
  await new Promise<void>((resolve, reject) => { ws.once('open', () => resolve()); ws.once('error', reject); });
  return {
    frames,
    /** Frames of one event name (`company-<id>-<entity>`). */
    of: (entity: string) => frames.filter((f) => f.event === `company-${companyId}-${entity}`),
    /** Resolves with the first frame (already seen or still to come) that matches. */
    waitFor(match: (f: Frame) => boolean, ms = 60_000): Promise<Frame> {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = frames.find(match);
          if (!found) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(found);
        };
        const timer = setTimeout(() => { waiters.delete(check); reject(new Error(`no matching frame in ${ms} ms (${frames.length} seen)`)); }, ms);
        waiters.add(check);
        check();
      });
    },
    close: () => ws.close(),
  };
}
