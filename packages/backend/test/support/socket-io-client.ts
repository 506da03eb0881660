import { io, type Socket } from 'socket.io-client';
import { recorder } from './recorder.js';

export interface Emitted {
  event: string;
  data: Record<string, any>;
}

/** A socket.io client as the lineage's frontend opens it (polling, then websocket), keeping every event. */
export function openSocketIo(baseUrl: string, companyId: number, token: string, via: 'auth' | 'query' = 'auth') {
  const socket: Socket = io(`${baseUrl}/${companyId}`, {
    ...(via === 'auth' ? { auth: { token } } : { query: { token } }),
    reconnection: false,
    forceNew: true,
  });
  const received = recorder<Emitted>('event');
  const events = received.items;
  socket.onAny((event: string, data: Record<string, any>) => received.push({ event, data }));
  const connected = new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', (err: Error & { data?: { status: number } }) => {
      socket.close();
      reject(err);
    });
  });
  return {
    socket,
    events,
    connected,
    waitFor: (match: (e: Emitted) => boolean, ms = 10_000): Promise<Emitted> => received.waitFor(match, ms),
    close: () => {
      socket.close();
    },
  };
}
