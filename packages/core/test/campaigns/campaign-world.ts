import { campaignDefaults, type Campaign } from '../../src/campaigns/campaign.js';
import type { CampaignEvents } from '../../src/campaigns/campaign-events.js';
import { DispatchConnection } from '../../src/campaigns/dispatch-connection.js';
import { HandleCampaignReply } from '../../src/campaigns/campaign-replies.js';
import {
  InMemoryCampaignAudience,
  InMemoryCampaignReferences,
  InMemoryCampaignConnections,
  InMemoryCampaignSettings,
  RecordingCampaignSender,
} from '../../src/campaigns/in-memory-campaign-sources.js';
import { InMemoryCampaignPacing } from '../../src/campaigns/in-memory-campaign-pacing.js';
import { InMemoryCampaignRecipients } from '../../src/campaigns/in-memory-campaign-recipients.js';
import { InMemoryCampaigns } from '../../src/campaigns/in-memory-campaigns.js';
import { InMemorySuppressions } from '../../src/campaigns/in-memory-suppressions.js';
import type { RandomSource } from '../../src/campaigns/pacing.js';
import type { CampaignSender } from '../../src/campaigns/ports.js';
import { ApplyRecipientStatus } from '../../src/campaigns/recipient-status.js';
import { StartCampaign, StartDueCampaigns, type LaunchDeps } from '../../src/campaigns/start-campaign.js';
import { CampaignAnnouncer } from '../../src/campaigns/campaign-announcer.js';
import { CampaignLauncher } from '../../src/campaigns/campaign-launcher.js';
import { ConnectionPacer } from '../../src/campaigns/connection-pacer.js';
import { RecipientMaterialiser } from '../../src/campaigns/materialise.js';
import { CancelCampaign, PauseCampaign, RestartCampaign, ResumeCampaign } from '../../src/campaigns/control-campaigns.js';
import { ListCampaignRecipients, ShowCampaign } from '../../src/campaigns/campaign-report.js';
import { PacingWakeups } from '../../src/campaigns/wakeups.js';
import { CampaignViews } from '../../src/campaigns/campaign-view.js';
import type { Actor } from '../../src/shared/actor.js';

export const code = (p: Promise<unknown>) =>
  p.then(
    () => 'resolved',
    (e: { code?: string }) => e.code,
  );

export class FakeClock {
  constructor(public t: number) {}
  now() {
    return new Date(this.t);
  }
  set(at: Date | number) {
    this.t = typeof at === 'number' ? at : at.getTime();
  }
  advance(ms: number) {
    this.t += ms;
  }
}

/** mulberry32: a seeded, deterministic random source. */
export function seeded(seed: number): RandomSource {
  let a = seed >>> 0;
  return {
    next() {
      a = (a + 0x6d2b79f5) >>> 0;
      let t = a;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    },
  };
}

export const ACME = 1;
export const OTHER = 2;
export const CONNECTION = 10;
export const admin: Actor = { userId: 1, companyId: ACME, profile: 'admin' };
export const operator: Actor = { userId: 2, companyId: ACME, profile: 'user' };
export const otherAdmin: Actor = { userId: 3, companyId: OTHER, profile: 'admin' };

/** Every campaign port on in-memory adapters, the use cases over them, and a fake clock. */
export function campaignWorld(start = Date.parse('2024-06-03T12:00:00Z'), seed = 7) {
  const clock = new FakeClock(start);
  const campaigns = new InMemoryCampaigns();
  const recipients = new InMemoryCampaignRecipients(campaigns);
  const pacing = new InMemoryCampaignPacing();
  const suppressions = new InMemorySuppressions();
  const audience = new InMemoryCampaignAudience();
  const settings = new InMemoryCampaignSettings();
  const connections = new InMemoryCampaignConnections();
  const sender = new RecordingCampaignSender(clock);
  const events: Array<{ companyId: number; event: CampaignEvents }> = [];
  const realtime = {
    publish: async (companyId: number, event: CampaignEvents) => {
      events.push({ companyId, event });
    },
  };
  const transaction = { run: <T>(work: () => Promise<T>) => work(), afterCommit: (cb: () => void) => cb(), runApart: <T>(work: () => Promise<T>) => work() };
  const wakeups = new PacingWakeups(pacing);
  const references = new InMemoryCampaignReferences();
  references.set(ACME, 'connection', CONNECTION, 'Main number');
  references.set(ACME, 'contactList', 1, 'Customers');
  const views = new CampaignViews(references);
  const plan = {
    disabled: new Set<number>(),
    async assertFeature(companyId: number) {
      if (plan.disabled.has(companyId)) throw Object.assign(new Error('plan'), { code: 'ERR_PLAN_FEATURE_DISABLED' });
    },
  };
  const random = seeded(seed);
  const announcer = new CampaignAnnouncer({ campaigns, recipients, views, realtime });
  const materialiser = new RecipientMaterialiser({ audience, suppressions, settings, random });
  const launcher = new CampaignLauncher({ campaigns, recipients, materialiser, connections, transaction, clock, announcer, wakeups });
  const launch: LaunchDeps = { campaigns, plan, launcher };
  connections.rows.set(CONNECTION, { id: CONNECTION, companyId: ACME, kind: 'chatapp', connected: true });
  // Always open, no caps, 1–2 s: the tests that need a window or caps set their own.
  settings.rowsOf.set(ACME, [
    { key: 'messageInterval', value: '1' },
    { key: 'messageIntervalMax', value: '2' },
    { key: 'longerIntervalAfter', value: '0' },
    { key: 'startHour', value: '00:00' },
    { key: 'endHour', value: '24:00' },
    { key: 'sabado', value: 'true' },
    { key: 'domingo', value: 'true' },
    { key: 'capHourly', value: '0' },
    { key: 'capDaily', value: '0' },
  ]);
  const dispatcher = (r: RandomSource = random, send: CampaignSender = sender) =>
    new DispatchConnection({
      campaigns,
      recipients,
      pacer: new ConnectionPacer({ pacing, settings, connections, random: r }),
      sender: send,
      transaction,
      clock,
      // Its own: the progress frames are paced per dispatcher.
      announcer: new CampaignAnnouncer({ campaigns, recipients, views, realtime }),
    });
  const app = {
    start: new StartCampaign(launch),
    startDue: new StartDueCampaigns({ campaigns, clock, launcher }),
    pause: new PauseCampaign({ campaigns, plan, clock, announcer }),
    cancel: new CancelCampaign({ campaigns, plan, clock, announcer }),
    resume: new ResumeCampaign(launch),
    restart: new RestartCampaign(launch),
    reply: new HandleCampaignReply({ recipients, suppressions, settings, transaction, clock, wakeups }),
    status: new ApplyRecipientStatus({ recipients, pacing, settings, clock }),
    progress: new ShowCampaign({ campaigns, recipients, plan, views }),
    report: new ListCampaignRecipients({ campaigns, recipients, plan }),
  };
  const setSettings = (values: Record<string, string>) => {
    const rows = (settings.rowsOf.get(ACME) ?? []).filter((r) => !(r.key in values));
    settings.rowsOf.set(ACME, [...rows, ...Object.entries(values).map(([key, value]) => ({ key, value }))]);
  };
  const addList = (
    listId: number,
    items: Array<{ number: string; name?: string; validity?: 'unknown' | 'valid' | 'invalid' | 'error'; variables?: Record<string, string> }>,
    companyId = ACME,
  ) => {
    audience.lists.set(
      `${companyId}:${listId}`,
      items.map((it, i) => ({
        id: listId * 100_000 + i + 1,
        name: it.name ?? `Contact ${i + 1}`,
        number: it.number,
        email: '',
        validity: it.validity ?? 'valid',
        variables: it.variables ?? {},
      })),
    );
  };
  const addCampaign = (fields: Partial<Campaign> = {}) =>
    campaigns.add({
      ...campaignDefaults(ACME, 'Launch', clock.now()),
      message1: 'Hi {nome}',
      contactListId: 1,
      chatappId: CONNECTION,
      ...fields,
    });
  return {
    clock,
    campaigns,
    recipients,
    pacing,
    suppressions,
    audience,
    settings,
    connections,
    sender,
    events,
    realtime,
    references,
    views,
    transaction,
    wakeups,
    plan,
    random,
    announcer,
    launch,
    dispatcher,
    app,
    setSettings,
    addList,
    addCampaign,
  };
}

export type CampaignWorld = ReturnType<typeof campaignWorld>;

/** `count` distinct Brazilian mobiles. */
export function numbers(count: number): string[] {
  return Array.from({ length: count }, (_, i) => `55119${String(80_000_000 + i).padStart(8, '0')}`);
}
