import { io, type Socket } from 'socket.io-client';

export interface Emitted { event: string; data: Record<string, any> }

/** A socket.io client as the lineage's frontend opens it (polling, then websocket), keeping every event. */
export function openSocketIo(baseUrl: string, companyId: number, token: string, via: 'auth' | 'query' = 'auth') {
  const socket: Socket = io(`${baseUrl}/${companyId}`, {
    ...(via === 'auth' ? { auth: { token } } : { query: { token } }), reconnection: false, forceNew: true,
  });
  const events: Emitted[] = [];
  const waiters = new Set<() => void>();
  socket.onAny((event: string, data: Record<string, any>) => {
    events.push({ event, data });
    for (const w of [...waiters]) w();
  });
  const connected = new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', (err: Error & { data?: { status: number } }) => { socket.close(); reject(err); });
  });
  return {
    socket, events, connected,
    waitFor(match: (e: Emitted) => boolean, ms = 10_000): Promise<Emitted> {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = events.find(match);
          if (!found) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(found);
        };
        const timer = setTimeout(() => { waiters.delete(check); reject(new Error(`no matching event in ${ms} ms (${events.length} seen)`)); }, ms);
        waiters.add(check);
        check();
      });
    },
    close: () => { socket.close(); },
  };
}

