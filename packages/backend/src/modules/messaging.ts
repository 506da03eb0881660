import {
  connectionRoutes,
  GraphMediaFetcher,
  GraphSocialAccounts,
  messageApiRoutes,
  messageRoutes,
  ticketRoutes,
  UrlMediaFetcher,
  webhookRoutes,
} from '@servicedesk/adapters-http';
import { BaileysMediaFetcher } from '@servicedesk/channel-runtime';
import {
  createMessaging,
  DEFAULT_INBOUND_MEDIA_SETTINGS,
  inboundMediaFetchers,
  INBOUND_SHARDS,
  SUBJECTS,
  type BrokerEnvelope,
  type ChannelEvent,
  type MessagingApi,
} from '@servicedesk/core';
import { feature, type Feature, type Consumer } from './feature.js';
import { PERSISTENCE_FEATURES, tablesOf } from '@servicedesk/adapters-persistence/features';

/** Delivery reports handled at once per backend instance. */
const MESSAGE_EVENT_CONCURRENCY = 8;
/** After the send deadline, how long a send may still be on its way out before the backend fails it. */
const SEND_DEADLINE_MARGIN_MS = 30_000;

/** Connections and their sessions, tickets, conversations (messages in and out) and the outbox. */
export const messaging: Feature<object, MessagingApi> = feature({
  name: 'messaging',
  ...tablesOf(PERSISTENCE_FEATURES.messaging),
  ports: ({ config, infra }) => ({
    ...PERSISTENCE_FEATURES.messaging.repositories(infra.db.orm),
    socialAccounts: new GraphSocialAccounts({ baseUrl: config.graphApiUrl }),
    // Contacts' files are fetched here, by a job per message, whichever process runs the channel:
    // WhatsApp Web's decrypted with Baileys (loaded on first use), the Cloud API's through the Graph
    // API with the connection's token, Messenger's (and the sandbox's) by URL.
    inboundMediaFetcher: inboundMediaFetchers({
      whatsapp: new BaileysMediaFetcher(),
      cloudapi: new GraphMediaFetcher({ baseUrl: config.graphApiUrl, allowPrivate: config.allowPrivateUrls }),
      url: new UrlMediaFetcher({ allowPrivate: config.allowPrivateUrls }),
    }),
    inboundMediaSettings: { ...DEFAULT_INBOUND_MEDIA_SETTINGS, ...config.inboundMedia },
  }),
  api: (ports) => createMessaging(ports),
  routes: (app, { config }) => [
    ...webhookRoutes(app, config.webhooks),
    ...messageApiRoutes(app, { allowPrivateUrls: config.allowPrivateUrls }),
    ...connectionRoutes(app),
    ...ticketRoutes(app),
    ...messageRoutes(app),
  ],
  // Delivery progress side by side (each change is one forward-only update, so order does not
  // matter); session status, runtime announcements and contacts' typing in order; inbound messages
  // in parallel shards, each conversation always in the same shard (so in order).
  consumers: (app) => {
    const handle = async (envelope: BrokerEnvelope) => {
      await app.conversations.applyChannelEvent.execute(envelope.payload as ChannelEvent);
    };
    const consumers: Consumer[] = [
      { durable: 'backend-message-events', subject: 'evt.message.>', handle, options: { concurrency: MESSAGE_EVENT_CONCURRENCY } },
      { durable: 'backend-session-events', subject: 'evt.session.>', handle },
      { durable: 'backend-runtime-events', subject: 'evt.runtime.>', handle },
      // A contact's typing: in order (a `paused` stays after its `composing`), given up at the first
      // failure (it is stale by the time a retry would come).
      { durable: 'backend-presence-events', subject: 'evt.presence.>', handle, options: { maxDeliver: 1 } },
    ];
    for (let shard = 0; shard < INBOUND_SHARDS; shard++) consumers.push({ durable: `backend-inbound-${shard}`, subject: SUBJECTS.inbound(shard), handle });
    return consumers;
  },
  jobs: (app, { config, log }) => [
    // A contact's file into blob storage, one job per message (see FetchInboundMedia).
    ...app.conversations.inboundMediaJobs(),
    // The safety net of the relay (sends are also relayed right after they commit). It publishes to
    // the broker and joins a relay already running, so it runs outside the job's transaction.
    {
      name: 'outbox.relay',
      every: config.outboxRelayIntervalMs,
      atomic: false,
      run: async () => {
        await app.outbox.relayOutbox.execute();
      },
    },
    // The message API's Idempotency-Keys answer their first result for 24 hours.
    {
      name: 'idempotency.expire-keys',
      every: 3600_000,
      run: async () => {
        await app.conversations.expireIdempotencyKeys.execute();
      },
    },
    // Sends no channel runtime took before the deadline (plus a margin for one in flight) are failed.
    {
      name: 'messages.expire-stale-sends',
      every: Math.min(10_000, config.sendDeadlineMs),
      run: async () => {
        const failed = await app.conversations.expireStaleSends.execute(config.sendDeadlineMs + SEND_DEADLINE_MARGIN_MS);
        if (failed) log.warn({ failed }, 'sends failed: no channel runtime took them before the deadline');
      },
    },
  ],
});
