import type { CorePorts } from '../application.js';
import type { CompanyRegistry } from '../cnpj/lookup-cnpj.js';
import { ServiceUnavailableError } from '../shared/errors.js';
import type { SecretDigester } from '../shared/ports.js';
import { InMemoryCache } from '../in-process/cache.js';
import { InMemoryHelps, InMemoryInvoices, InMemoryPartners, InMemoryPlatformActivity } from './company-api.js';
import { dropCompanyUsers, InMemoryPasswordResets, InMemoryRefreshSessions, InMemoryUsers } from './identity.js';
import { InProcessBroker } from '../in-process/broker.js';
import { DETACHED_CHANNEL_QUERIES } from '../connections/detached-channel-queries.js';
import { InMemoryIdempotencyKeys } from './idempotency-keys.js';
import { InMemoryConnections, InMemoryContacts, InMemoryMessages, InMemoryOutbox, InMemoryTickets } from './messaging.js';
import { InMemorySettings } from './settings.js';
import { InMemorySocialAccounts } from './social-accounts.js';
import { InMemoryTicketLogs } from './ticket-logs.js';
import { InMemoryTags } from './tags.js';
import { InlineBackgroundJobs } from './background-jobs.js';
import { InMemoryJobStore } from '../jobs/in-memory-job-store.js';
import { jobPorts } from '../jobs/jobs.js';
import type { JobDefinition } from '../jobs/job.js';
import { InMemoryJobQueueHealth, InMemoryQueueIntegrations, InMemoryQueueOptions, InMemoryQueues, RecordingConversationIntegrations } from './queues.js';
import { FixedClock, InMemoryBlobStorage, InsecureTestPasswordHasher, RecordingRealtime, SequentialIds, SerialTransaction } from './support.js';
import { InMemoryCompanies, InMemoryPlans } from './tenancy.js';
import { InMemoryTokens } from './tokens.js';
import { InMemoryContactListImports, InMemoryContactListItems, InMemoryContactLists } from './contact-lists.js';
import { CampaignsReadingLists, ContactListCampaignAudience, InMemoryCampaignReferenceLookups } from './campaigns.js';
import { InMemoryCampaignPacing } from '../campaigns/in-memory-campaign-pacing.js';
import { InMemoryCampaignRecipients } from '../campaigns/in-memory-campaign-recipients.js';
import { InMemoryCampaigns } from '../campaigns/in-memory-campaigns.js';
import { InMemorySuppressions } from '../campaigns/in-memory-suppressions.js';
import { InMemoryCampaignSettings } from '../campaigns/in-memory-campaign-sources.js';
import { InMemoryChatMessages, InMemoryChats } from './chats.js';
import { InMemoryBizchatNumbers, InMemoryBizchatTemplates, InMemoryTemplateDirectory } from './bizchat.js';
import { InMemoryAnnouncementAudience, InMemoryAnnouncements } from './announcements.js';
import { InMemoryContactsReport, InMemoryDashboardFigures, InMemoryTicketCycles } from './dashboards.js';
import { InMemoryScheduleDeliveries, InMemoryScheduleOccurrences, InMemorySchedules } from '../schedules/in-memory-schedules.js';
import { InMemorySpeechToText, InMemoryTranscriptionCredentials, InMemoryTranscriptionJobs, InsecureTestCipher } from './transcription.js';
import { InMemoryProxies, InMemoryProxyAssignments, InMemoryProxyChecker } from './proxies.js';
import { InMemoryLanguageModel, InMemoryPromptAnswers, InMemoryPrompts } from './prompts.js';
import { InMemoryFileLists } from './files.js';
import { InMemoryCompanyTemplates } from './company-templates.js';
import { InMemoryWalletAssignments } from './contact-sellers.js';
import { InMemoryFlowHttp, InMemoryFlowRuns, InMemoryFlows } from './flows.js';
import { inMemoryCatalogPorts } from './catalog.js';
import { InMemoryOrderLogs, InMemoryOrders, InMemoryOrderSettings } from './orders.js';
import {
  InMemoryBillingLedger,
  InMemoryBillingWebhooks,
  InMemoryCharges,
  InMemoryPaymentEvents,
  InMemoryPaymentGateway,
  InMemorySuspensions,
} from './billing.js';
import { InMemoryBlobLocations, InMemoryObjstoreConfigs, InMemoryObjstoreProbe } from './objstore.js';

/** A NON-secret digest for tests and embedding: the production adapter is a keyed HMAC. */
export class InsecureTestDigester implements SecretDigester {
  digest(secret: string) {
    return `digest:${secret}`;
  }
  matches(secret: string, digest: string) {
    return this.digest(secret) === digest;
  }
}

/** No registry offline: every lookup says so, clearly. */
export const OFFLINE_COMPANY_REGISTRY: CompanyRegistry = {
  async find() {
    throw new ServiceUnavailableError('ERR_CNPJ_REGISTRY_UNAVAILABLE');
  },
};

/**
 * Every port on in-memory adapters: the core runs with no database, broker or network, for
 * use-case tests and for applications that embed the core.
 */
export function createInMemoryPorts() {
  const users = new InMemoryUsers();
  const companies = new InMemoryCompanies();
  const settings = new InMemorySettings();
  companies.onRemove.push(
    (id) => dropCompanyUsers(users, id),
    (id) => settings.dropCompany(id),
  );
  const clock = new FixedClock();
  const contacts = new InMemoryContacts();
  const tags = new InMemoryTags();
  contacts.tagIdsOf = (contactId) => tags.contactTagIds(contactId);
  const tickets = new InMemoryTickets(contacts, tags);
  const outbox = new InMemoryOutbox();
  const queueOptions = new InMemoryQueueOptions(tickets);
  const connections = new InMemoryConnections();
  const messages = new InMemoryMessages(tickets);
  const bizchatNumbers = new InMemoryBizchatNumbers(connections, messages);
  const queues = new InMemoryQueues({ tickets, options: queueOptions, users, connections });
  users.queueMemberships = (companyId, userId) => queues.queueIdsOfUser(companyId, userId);
  /** The handlers `jobQueue` accepts: a test adds the definitions it runs. */
  const jobDefinitions: JobDefinition<any>[] = [];
  const contactListItems = new InMemoryContactListItems();
  const contactListImports = new InMemoryContactListImports();
  const campaigns = new InMemoryCampaigns();
  const chatMessages = new InMemoryChatMessages(users);
  const announcements = new InMemoryAnnouncements(companies);
  companies.onRemove.push((id) => announcements.dropCompany(id));
  const invoices = new InMemoryInvoices();
  const contactLists = new InMemoryContactLists(contactListItems, contactListImports);
  const scheduleOccurrences = new InMemoryScheduleOccurrences();
  const scheduleDeliveries = new InMemoryScheduleDeliveries();
  const ticketCycles = new InMemoryTicketCycles();
  const ports = {
    users,
    companies,
    settings,
    clock,
    refreshSessions: new InMemoryRefreshSessions(),
    passwordResets: new InMemoryPasswordResets(),
    plans: new InMemoryPlans(),
    tokens: new InMemoryTokens(),
    hasher: new InsecureTestPasswordHasher(),
    cache: new InMemoryCache(clock),
    blobs: new InMemoryBlobStorage(),
    realtime: new RecordingRealtime(),
    tx: new SerialTransaction(),
    ids: new SequentialIds(),
    companyRegistry: OFFLINE_COMPANY_REGISTRY,
    helps: new InMemoryHelps(),
    partners: new InMemoryPartners(),
    invoices,
    platformActivity: new InMemoryPlatformActivity(),
    connections,
    contacts,
    tickets,
    messages,
    outbox,
    broker: new InProcessBroker(),
    idempotencyKeys: new InMemoryIdempotencyKeys(),
    digester: new InsecureTestDigester(),
    socialAccounts: new InMemorySocialAccounts(),
    channelQueries: DETACHED_CHANNEL_QUERIES,
    ticketLogs: new InMemoryTicketLogs(),
    ticketTracking: ticketCycles,
    ticketCycles,
    dashboardFigures: new InMemoryDashboardFigures(ticketCycles),
    contactsReport: new InMemoryContactsReport(contacts),
    tags,
    jobs: new InlineBackgroundJobs(),
    queues,
    queueOptions,
    queueIntegrations: new InMemoryQueueIntegrations(queues),
    conversationIntegrations: new RecordingConversationIntegrations(),
    jobHealth: new InMemoryJobQueueHealth(outbox),
    jobDefinitions,
    contactLists,
    contactListItems,
    contactListImports,
    contactListUsage: new CampaignsReadingLists(campaigns),
    campaigns,
    campaignRecipients: new InMemoryCampaignRecipients(campaigns),
    campaignPacing: new InMemoryCampaignPacing(),
    campaignSuppressions: new InMemorySuppressions(),
    campaignSettingsRows: new InMemoryCampaignSettings(),
    campaignAudience: new ContactListCampaignAudience(contactListItems),
    campaignReferences: new InMemoryCampaignReferenceLookups({
      connections,
      users,
      queues,
      tags,
      contactListName: async (companyId, id) => (await contactLists.findById(companyId, id))?.name ?? null,
    }),
    chats: new InMemoryChats(users, chatMessages),
    chatMessages,
    announcements,
    announcementAudience: new InMemoryAnnouncementAudience(companies, users),
    schedules: new InMemorySchedules(scheduleOccurrences, scheduleDeliveries, async (companyId, id) => (await contacts.findById(companyId, id))?.name ?? null),
    scheduleOccurrences,
    scheduleDeliveries,
    transcriptionCredentials: new InMemoryTranscriptionCredentials(),
    transcriptionJobs: new InMemoryTranscriptionJobs(),
    speechToText: new InMemorySpeechToText(),
    secretCipher: new InsecureTestCipher(),
    ...inMemoryProxyPorts(),
    prompts: new InMemoryPrompts({ connections, queues }),
    fileLists: new InMemoryFileLists(),
    companyTemplates: new InMemoryCompanyTemplates(),
    bizchatTemplates: new InMemoryBizchatTemplates(),
    templateDirectory: new InMemoryTemplateDirectory(),
    bizchatNumbers,
    serviceWindows: bizchatNumbers,
    walletAssignments: new InMemoryWalletAssignments(contacts),
    flows: new InMemoryFlows(),
    flowRuns: new InMemoryFlowRuns(),
    flowHttp: new InMemoryFlowHttp(),
    ...inMemoryCatalogPorts(),
    ...inMemoryOrderPorts(contacts),
    languageModel: new InMemoryLanguageModel(),
    promptAnswers: new InMemoryPromptAnswers(),
    ...inMemoryObjstorePorts(),
    ...inMemoryBillingPorts(invoices),
    ...jobPorts(new InMemoryJobStore(clock), () => jobDefinitions),
  } satisfies CorePorts & { jobDefinitions: JobDefinition<any>[] };
  return ports;
}

/** Billing in memory: its ledger reads the invoices' table; a gateway that tests drive. */
function inMemoryBillingPorts(invoices: InMemoryInvoices) {
  return {
    charges: new InMemoryCharges(),
    paymentEvents: new InMemoryPaymentEvents(),
    companySuspensions: new InMemorySuspensions(),
    billingLedger: new InMemoryBillingLedger(invoices),
    billingWebhooks: new InMemoryBillingWebhooks(),
    paymentGateway: new InMemoryPaymentGateway(),
  };
}

/** The proxy pools in memory: removing a proxy drops its assignments, as the SQL foreign key does. */
function inMemoryProxyPorts() {
  const proxyAssignments = new InMemoryProxyAssignments();
  return { proxies: new InMemoryProxies(proxyAssignments), proxyAssignments, proxyChecker: new InMemoryProxyChecker() };
}

/** The object stores in memory: a config holding blobs cannot be removed, as in SQL. */
function inMemoryObjstorePorts() {
  const blobLocations = new InMemoryBlobLocations();
  return { objstoreConfigs: new InMemoryObjstoreConfigs(blobLocations), blobLocations, objstoreProbe: new InMemoryObjstoreProbe() };
}

/** The orders in memory: removing an order drops its logs, as the SQL foreign key does; search reads the contacts. */
function inMemoryOrderPorts(contacts: InMemoryContacts) {
  const orderLogs = new InMemoryOrderLogs();
  return { orders: new InMemoryOrders({ logs: orderLogs, contacts }), orderLogs, orderSettings: new InMemoryOrderSettings() };
}
