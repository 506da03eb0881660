import { PlanGuard } from '../tenancy/plan-guard.js';
import type { ChannelEvent } from '../connections/channel-messages.js';
import { TicketPresenter } from '../tickets/ticket-details.js';
import { messageContexts } from '../conversations/message-context.js';
import { companyTimeZone } from '../settings/company-time-zone.js';
import { HandleCampaignReply } from '../campaigns/campaign-replies.js';
import { ListCampaignRecipients, ShowCampaign } from '../campaigns/campaign-report.js';
import { CampaignViews } from '../campaigns/campaign-view.js';
import { CancelCampaign, PauseCampaign, RestartCampaign, ResumeCampaign, RunCampaign } from '../campaigns/control-campaigns.js';
import { DispatchConnection } from '../campaigns/dispatch-connection.js';
import { campaignJobs, DispatchDueConnections } from '../campaigns/jobs.js';
import { CreateCampaign } from '../campaigns/create-campaign.js';
import { DeleteCampaign } from '../campaigns/delete-campaign.js';
import { ListAllCampaigns } from '../campaigns/list-all-campaigns.js';
import { ListCampaigns } from '../campaigns/list-campaigns.js';
import { ListCampaignSettings } from '../campaigns/list-campaign-settings.js';
import { RemoveCampaignMedia } from '../campaigns/remove-campaign-media.js';
import { SaveCampaignSettings } from '../campaigns/save-campaign-settings.js';
import { SetCampaignMedia } from '../campaigns/set-campaign-media.js';
import { UpdateCampaign } from '../campaigns/update-campaign.js';
import type { RandomSource } from '../campaigns/pacing.js';
import type {
  CampaignAudience,
  CampaignPacing,
  CampaignRecipients,
  CampaignReferences,
  Campaigns,
  CampaignSettingsStore,
  Suppressions,
} from '../campaigns/ports.js';
import type { CampaignSettingRow } from '../campaigns/campaign-settings.js';
import { ApplyRecipientStatus } from '../campaigns/recipient-status.js';
import { StartCampaign, StartDueCampaigns } from '../campaigns/start-campaign.js';
import { CampaignAnnouncer } from '../campaigns/campaign-announcer.js';
import { CampaignLauncher } from '../campaigns/campaign-launcher.js';
import { ConnectionPacer } from '../campaigns/connection-pacer.js';
import { RecipientMaterialiser } from '../campaigns/materialise.js';
import { PacingWakeups } from '../campaigns/wakeups.js';
import { CampaignConversations, ConnectionsForCampaigns, OutboundCampaignSender } from './campaign-sender.js';
import { sendPath } from './messaging.js';
import type { SharedPorts } from './shared-ports.js';
import { ConversationAnnouncer } from '../tickets/conversation-announcer.js';

/** The campaign feature's own ports (its tables). */
export interface CampaignPorts {
  readonly campaigns: Campaigns;
  readonly campaignRecipients: CampaignRecipients;
  readonly campaignPacing: CampaignPacing;
  readonly campaignSuppressions: Suppressions;
  /** The stored settings rows; the time zone is the company's `timezone` setting. */
  readonly campaignSettingsRows: Pick<CampaignSettingsStore, 'rows' | 'save'>;
  readonly campaignAudience: CampaignAudience;
  readonly campaignReferences: CampaignReferences;
  /** Random delays and variants; `Math.random` unless a test seeds it. */
  readonly campaignRandom?: RandomSource;
}

/** How long an instance reuses a company's settings rows it read (a save on another instance applies within this). */
const SETTINGS_TTL_MS = 5_000;

/**
 * The settings rows with the company's time zone (the sending window is on its wall clock). Rows are
 * read at most every few seconds per company: every inbound text and every dispatch round needs them.
 */
function settingsStore(p: CampaignPorts & SharedPorts): CampaignSettingsStore {
  const recent = new Map<number, { at: number; rows: Promise<CampaignSettingRow[]> }>();
  return {
    rows(companyId) {
      const now = Date.now();
      const hit = recent.get(companyId);
      if (hit && now - hit.at < SETTINGS_TTL_MS) return hit.rows;
      const rows = p.campaignSettingsRows.rows(companyId);
      recent.set(companyId, { at: now, rows });
      rows.catch(() => recent.delete(companyId));
      if (recent.size > 10_000) recent.delete(recent.keys().next().value!);
      return rows;
    },
    async save(companyId, rows) {
      recent.delete(companyId);
      const stored = await p.campaignSettingsRows.save(companyId, rows);
      recent.delete(companyId);
      // A read between the save and its commit saw the old rows: they must not be reused.
      p.tx.afterCommit(() => recent.delete(companyId));
      return stored;
    },
    timeZone: (companyId) => companyTimeZone(p.settings, companyId),
  };
}

/**
 * Campaigns: their settings, the state machine's actions, the report, the dispatchers (one per
 * connection, run by the `campaigns.dispatch` job) and the hooks the channel's events call.
 */
export function createCampaigns(p: CampaignPorts & SharedPorts) {
  const { campaigns, campaignRecipients: recipients, campaignPacing: pacing, campaignSuppressions: suppressions, campaignAudience: audience } = p;
  const { blobs, realtime, tx, clock, ids } = p;
  const random = p.campaignRandom ?? { next: () => Math.random() };
  const plan = new PlanGuard({ companies: p.companies, plans: p.plans });
  const settings = settingsStore(p);
  const connections = new ConnectionsForCampaigns(p.connections);
  const views = new CampaignViews(p.campaignReferences);
  const wakeups = new PacingWakeups(pacing);
  const { outbound } = sendPath(p);
  const presenter = new TicketPresenter({ contacts: p.contacts, connections: p.connections, users: p.users, realtime, tags: p.tags, queues: p.queues });
  const contexts = messageContexts({ tickets: p.tickets, contacts: p.contacts, queues: p.queues, messages: p.messages });
  const sender = new OutboundCampaignSender({
    connections: p.connections,
    conversations: new CampaignConversations({ contacts: p.contacts, tickets: p.tickets, ids, tracking: p.ticketTracking }),
    outbound,
    blobs,
    tx,
    clock,
    announcer: new ConversationAnnouncer({ presenter, realtime, contexts }),
  });
  const announcer = new CampaignAnnouncer({ campaigns, recipients, views, realtime });
  const launcher = new CampaignLauncher({
    campaigns,
    recipients,
    materialiser: new RecipientMaterialiser({ audience, suppressions, settings, random }),
    connections,
    transaction: tx,
    clock,
    announcer,
    wakeups,
  });
  const launch = { campaigns, plan, launcher };
  const writes = { campaigns, references: p.campaignReferences, settings, connections, plan, announcer, clock };
  const pacer = new ConnectionPacer({ pacing, settings, connections, random });
  const dispatch = new DispatchConnection({ campaigns, recipients, pacer, sender, transaction: tx, clock, announcer });
  const startDue = new StartDueCampaigns({ campaigns, clock, launcher });
  const dispatchDue = new DispatchDueConnections({ pacing, dispatch, clock });
  const handleReply = new HandleCampaignReply({ recipients, suppressions, settings, transaction: tx, clock, wakeups });
  const applyRecipientStatus = new ApplyRecipientStatus({ recipients, pacing, settings, clock });
  /** The channel's events as campaigns see them: inbound texts may be answers, message events move recipients on. */
  const onChannelEvent = async (e: ChannelEvent): Promise<void> => {
    switch (e.type) {
      case 'InboundMessage':
        if (!e.isGroup && e.body.trim()) await handleReply.execute({ companyId: e.companyId, connectionId: e.chatappId, number: e.from, text: e.body });
        return;
      case 'SessionMessageFailed':
      case 'SocialMessageFailed':
        await applyRecipientStatus.execute({ messageId: e.messageId, status: 'failed', reason: e.reason });
        return;
      case 'MessageStatusChanged': {
        const messageId = e.messageId ?? (await p.messages.findByProviderId(e.chatappId, e.providerMessageId))?.id;
        if (messageId && (e.status === 'delivered' || e.status === 'read' || e.status === 'played' || e.status === 'failed')) {
          await applyRecipientStatus.execute({ messageId, status: e.status });
        }
        return;
      }
      default:
    }
  };
  return {
    listCampaigns: new ListCampaigns({ campaigns, plan, views }),
    listAllCampaigns: new ListAllCampaigns({ campaigns, plan, views }),
    showCampaign: new ShowCampaign({ campaigns, recipients, plan, views }),
    listCampaignRecipients: new ListCampaignRecipients({ campaigns, recipients, plan }),
    createCampaign: new CreateCampaign(writes),
    updateCampaign: new UpdateCampaign(writes),
    deleteCampaign: new DeleteCampaign({ campaigns, plan, blobs, announcer }),
    setCampaignMedia: new SetCampaignMedia({ campaigns, plan, blobs, ids, clock, announcer }),
    removeCampaignMedia: new RemoveCampaignMedia({ campaigns, plan, blobs, ids, clock, announcer }),
    startCampaign: new StartCampaign(launch),
    pauseCampaign: new PauseCampaign({ campaigns, plan, clock, announcer }),
    resumeCampaign: new ResumeCampaign(launch),
    cancelCampaign: new CancelCampaign({ campaigns, plan, clock, announcer }),
    restartCampaign: new RestartCampaign(launch),
    /** The lineage's restart route: start, resume or restart, as the stored status allows. */
    runCampaign: new RunCampaign(launch),
    listCampaignSettings: new ListCampaignSettings({ settings, plan }),
    saveCampaignSettings: new SaveCampaignSettings({ settings, pacing, plan, tx, clock, realtime }),
    /** Inbound texts: stop words suppress, yes words confirm. */
    handleReply,
    /** Delivery progress of campaign messages. */
    applyRecipientStatus,
    /** Both, from the channel's events (the backend's campaign consumers call it with each inbound and message event). */
    onChannelEvent: { execute: onChannelEvent },
    startDueCampaigns: startDue,
    dispatchDueConnections: dispatchDue,
    /** The recurring jobs: due campaigns start, due dispatchers run. */
    jobs: () => campaignJobs({ startDue, dispatchDue }),
  };
}
export type CampaignsApi = ReturnType<typeof createCampaigns>;
