import { QueryClient } from '@tanstack/react-query';
import { createContext, useContext, useSyncExternalStore } from 'react';
import { authedFetch, createApi, type Api, type Schema } from './api/client.js';
import type { AppConfig } from './app-config.js';
import { RealtimeConnection, type ConnectionState } from './realtime/connection.js';
import { applyFrame, reloadEverything } from './realtime/apply-frame.js';
import { ReplyQueue, type SendOutcome } from './replies/reply-queue.js';
import { sendOutcomeOf } from './replies/send-outcome.js';
import { UploadCancelled, uploadTransport } from './replies/upload.js';
import { Session, type SessionDeps, type SessionState } from './session/session.js';
import { notifyInbound } from './ui/notifications.js';
import { sharedPreview } from './screens/shared-preview.js';

/** Everything the screens share, made once per page load. */
export interface Services {
  readonly config: AppConfig;
  readonly session: Session;
  readonly api: Api;
  readonly queryClient: QueryClient;
  readonly replies: ReplyQueue;
  /** The company namespace of the signed-in user (null when signed out). */
  realtime: RealtimeConnection | null;
  readonly realtimeListeners: Set<() => void>;
  /** Opens a conversation (set by the router once it exists: a notification's click). */
  openTicket?: (ticketId: number) => void;
}

export function createServices(config: AppConfig): Services {
  const base = config.backendUrl;
  const channel = typeof BroadcastChannel === 'function' ? new BroadcastChannel('servicedesk-session') : undefined;
  const session = new Session({
    async refresh() {
      const res = await fetch(`${base}/auth/refresh_token`, { method: 'POST', credentials: 'include' });
      if (res.status === 401 || res.status === 403) return null;
      if (!res.ok) throw new Error(`refresh answered ${res.status}`);
      return (await res.json()) as SessionState;
    },
    async logout(token) {
      await fetch(`${base}/auth/logout`, { method: 'DELETE', credentials: 'include', headers: { authorization: `Bearer ${token}` } });
    },
    ...(channel ? { channel: channel as unknown as NonNullable<SessionDeps['channel']> } : {}),
  });
  const api = createApi(base, session);
  const queryClient = new QueryClient({
    defaultOptions: { queries: { staleTime: 30_000, refetchOnWindowFocus: false, retry: 1 } },
  });
  const replies = new ReplyQueue({
    newId: () => crypto.randomUUID(),
    now: () => Date.now(),
    async send(reply, control): Promise<SendOutcome> {
      const withFiles = reply.files.length > 0;
      const form = new FormData();
      if (withFiles) {
        form.set('body', reply.body);
        if (reply.quotedMsgId) form.set('quotedMsgId', reply.quotedMsgId);
        if (reply.isPrivate) form.set('isPrivate', 'true');
        for (const file of reply.files) form.append('medias', file, file.name);
      }
      const res = await api
        .POST('/messages/{ticketId}', {
          params: { path: { ticketId: reply.ticketId }, header: { 'Idempotency-Key': reply.idempotencyKey } },
          body: (withFiles ? form : { body: reply.body, quotedMsgId: reply.quotedMsgId, isPrivate: reply.isPrivate }) as never,
          // Files go over XMLHttpRequest: its upload reports progress and can stop before the server has the request.
          ...(withFiles ? { bodySerializer: (b: unknown) => b as FormData, fetch: authedFetch(session, uploadTransport(control)) } : {}),
        })
        .catch((err: unknown) => {
          if (err instanceof UploadCancelled) return null;
          throw err;
        });
      if (!res) return { kind: 'cancelled' };
      return sendOutcomeOf(res.response.status, (res.error as { error?: string } | undefined)?.error);
    },
  });
  const services: Services = { config, session, api, queryClient, replies, realtime: null, realtimeListeners: new Set() };
  session.subscribe((state) => {
    if (!state) {
      services.realtime?.stop();
      services.realtime = null;
      queryClient.clear();
      notify(services);
      return;
    }
    if (services.realtime) return;
    const url = `${base.replace(/^http/, 'ws')}/${state.user.companyId}`;
    const realtime = new RealtimeConnection({
      url,
      token: () => session.current?.token ?? null,
      renew: async () => (await session.refresh())?.token ?? null,
      openSocket: (u) => new WebSocket(u) as unknown as ReturnType<ConstructorParameters<typeof RealtimeConnection>[0]['openSocket']>,
    });
    realtime.listen({
      frame: (frame) => {
        applyFrame(queryClient, frame);
        const message = frame.event.endsWith('-appMessage') && frame.data.action === 'create' ? (frame.data.message as Schema<'Message'>) : null;
        if (message && !message.fromMe && !message.isPrivate) {
          notifyInbound(state.user.id, message.contact?.name ?? '', sharedPreview(message), () => services.openTicket?.(message.ticketId));
        }
      },
      reload: () => reloadEverything(queryClient),
      state: (s) => {
        replies.setOnline(s === 'live');
        notify(services);
      },
    });
    services.realtime = realtime;
    realtime.start();
    notify(services);
  });
  window.addEventListener('offline', () => services.realtime?.drop());
  return services;
}

function notify(services: Services) {
  for (const listener of services.realtimeListeners) listener();
}

export const ServicesContext = createContext<Services | null>(null);

export function useServices(): Services {
  const services = useContext(ServicesContext);
  if (!services) throw new Error('useServices outside the ServicesContext');
  return services;
}

export function useSession(): SessionState | null {
  const { session } = useServices();
  return useSyncExternalStore(
    (change) => session.subscribe(change),
    () => session.current,
  );
}

export function useRealtimeState(): ConnectionState {
  const services = useServices();
  return useSyncExternalStore(
    (change) => {
      services.realtimeListeners.add(change);
      return () => services.realtimeListeners.delete(change);
    },
    () => services.realtime?.state ?? 'stopped',
  );
}
