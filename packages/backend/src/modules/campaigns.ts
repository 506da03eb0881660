import { campaignRoutes } from '@servicedesk/adapters-http';
import { createCampaigns, INBOUND_SHARDS, SUBJECTS, type CampaignsApi, type ChannelEvent } from '@servicedesk/core';
import { feature, type Consumer, type Feature } from './feature.js';
import { PERSISTENCE_FEATURES, tablesOf } from '@servicedesk/adapters-persistence/features';

/**
 * Campaigns and their settings: the state machine's routes, the dispatchers (one per connection,
 * paced against stored state, run by the `campaigns.dispatch` job on whichever instance claims it)
 * and the consumers through which the channel's events reach them (replies, delivery progress).
 */
export const campaigns: Feature<object, { campaigns: CampaignsApi }> = feature({
  name: 'campaigns',
  ...tablesOf(PERSISTENCE_FEATURES.campaigns),
  ports: ({ infra }) => PERSISTENCE_FEATURES.campaigns.repositories(infra.db.orm),
  api: (ports) => ({ campaigns: createCampaigns(ports) }),
  routes: (app) => campaignRoutes(app),
  // Their own durables on the channel's subjects: the messaging consumers are not slowed or coupled,
  // and each event reaches campaigns exactly as it reaches conversations (at least once; both
  // handlers are idempotent).
  consumers: (app) => {
    const handle = async (envelope: { payload: unknown }) => {
      await app.campaigns.onChannelEvent.execute(envelope.payload as ChannelEvent);
    };
    const consumers: Consumer[] = [{ durable: 'campaigns-message-events', subject: 'evt.message.>', handle, options: { concurrency: 4 } }];
    for (let shard = 0; shard < INBOUND_SHARDS; shard++) consumers.push({ durable: `campaigns-inbound-${shard}`, subject: SUBJECTS.inbound(shard), handle });
    return consumers;
  },
  jobs: (app) => app.campaigns.jobs(),
});
