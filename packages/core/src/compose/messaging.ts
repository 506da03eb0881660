import type { SecretDigester } from '../shared/ports.js';
import { PlanGuard } from '../tenancy/plan-guard.js';
import { AcceptProviderEvents } from '../connections/accept-provider-events.js';
import { ApplyChannelEvent } from '../conversations/apply-channel-event.js';
import { CheckNumber, type ChannelQueries } from '../connections/check-number.js';
import { AuthenticateConnection } from '../connections/authenticate-connection.js';
import { memoizeConnectionLookups } from '../connections/connection-lookups.js';
import { ExpireStaleSends } from '../messages/expire-stale-sends.js';
import type { Broker } from '../outbox/broker.js';
import { DeleteConnection, UpdateConnection } from '../connections/change-connection.js';
import { CloseImportedTickets } from '../tickets/close-imported-tickets.js';
import { RemoveGreetingMedia, SetGreetingMedia } from '../connections/connection-media.js';
import { ConnectionCredentials } from '../connections/connection-credentials.js';
import { ConnectionMenu } from '../connections/connection-menu.js';
import { CreateConnection } from '../connections/create-connection.js';
import { OutboundMessages } from '../messages/outbound.js';
import type { Connections, SocialAccounts } from '../connections/ports.js';
import type { Contacts } from '../contacts/ports.js';
import type { Messages } from '../messages/ports.js';
import type { Outbox } from '../outbox/ports.js';
import type { Tickets, TicketLogs } from '../tickets/ports.js';
import type { TicketTracking } from '../tickets/ticket-tracking.js';
import { ListAllConnections, ListConnections, ShowConnection } from '../connections/read-connections.js';
import { RelayOutbox } from '../outbox/relay-outbox.js';
import { ExpireIdempotencyKeys, type IdempotencyKeys } from '../conversations/idempotency-keys.js';
import { relayAfterCommit } from '../outbox/relay-after-commit.js';
import { RecordEvents } from '../outbox/record-events.js';
import { RouteInbound } from '../conversations/route-inbound.js';
import { SendApiMessage } from '../conversations/send-api-message.js';
import { SessionCommands } from '../connections/session-commands.js';
import { ResumeSessions } from '../connections/resume-sessions.js';
import { ControlSession, RestartAllSessions } from '../connections/session-control.js';
import { EditMessage, RevokeMessage } from '../conversations/change-message.js';
import { CloseAllTickets, IgnoreTicket, RecordLgpdResponse } from '../tickets/close-tickets.js';
import { CreateTicket } from '../tickets/create-ticket.js';
import { DeleteTicket } from '../tickets/delete-ticket.js';
import { ForwardMessage } from '../conversations/forward-message.js';
import { ListTicketMedia, ListTicketMessages } from '../conversations/list-messages.js';
import { CountMessages } from '../conversations/count-messages.js';
import { CountTickets, ListTickets } from '../tickets/list-tickets.js';
import { SendCatalog } from '../conversations/send-catalog.js';
import { SendTicketMessage } from '../conversations/send-ticket-message.js';
import { ListTicketLogs, ShowTicket, ShowTicketByUuid } from '../tickets/show-ticket.js';
import { TicketPresenter } from '../tickets/ticket-details.js';
import { TicketFarewell } from '../tickets/ticket-farewell.js';
import { TicketJournal } from '../tickets/ticket-journal.js';
import { TicketParties } from '../tickets/ticket-parties.js';
import { TicketReport } from '../tickets/ticket-report.js';
import { TicketTargets } from '../tickets/ticket-targets.js';
import { UpdateTicket } from '../tickets/update-ticket.js';
import type { Tags } from '../tags/ports.js';
import type { MessageContexts } from '../messages/message-view.js';
import type { QueueOptions, Queues } from '../queues/ports.js';
import { QueueRouter } from '../conversations/queue-router.js';
import { flowRunner, hasFlowRuntime } from './flow-runtime.js';
import { messageContexts } from '../conversations/message-context.js';
import { sessionProxyLookup } from '../proxies/session-proxy.js';
import type { InboundMediaFetcher } from '../connections/inbound-media.js';
import type { Jobs } from '../jobs/jobs.js';
import {
  DEFAULT_INBOUND_MEDIA_SETTINGS,
  enqueueInboundMedia,
  FetchInboundMedia,
  inboundMediaJobs,
  type InboundMediaSettings,
} from '../conversations/fetch-inbound-media.js';
import type { SharedPorts } from './shared-ports.js';
import { ConversationAnnouncer } from '../tickets/conversation-announcer.js';
import { IdempotentSends } from '../conversations/idempotent-sends.js';
import { SendingRules } from '../conversations/sending-rules.js';
import type { RoutingReads } from '../conversations/routing-reads.js';
import { MessageUpdates } from '../conversations/message-updates.js';
import { ContactTyping } from '../conversations/contact-typing.js';
import { ConversationLookup } from '../conversations/conversation-lookup.js';
import { OperatorReplies } from '../conversations/operator-replies.js';
import { MediaStore } from '../conversations/media-store.js';
import { ApiConversations } from '../conversations/api-conversations.js';
import { RoutingSettings } from '../conversations/routing-settings.js';
import { RoutingCommands } from '../conversations/routing-commands.js';
import { InboundConversations } from '../conversations/inbound-conversations.js';
import { InboundMessageStore } from '../conversations/inbound-message-store.js';

/** The ports of the messaging spine. */
export interface MessagingPorts {
  readonly connections: Connections;
  readonly contacts: Contacts;
  readonly tickets: Tickets;
  readonly messages: Messages;
  readonly outbox: Outbox;
  readonly broker: Broker;
  readonly digester: SecretDigester;
  readonly channelQueries: ChannelQueries;
  readonly ticketLogs: TicketLogs;
  /** Attendance cycles, written with every ticket change (the dashboards' figures come from them). */
  readonly ticketTracking: TicketTracking;
  readonly tags: Tags;
  readonly queues: Queues;
  readonly queueOptions: QueueOptions;
  /** The message API's Idempotency-Keys, stored with the sends they answer for. */
  readonly idempotencyKeys: IdempotencyKeys;
  /** Who a page access token belongs to (Meta's Graph API): social pages are accepted only from their holders. */
  readonly socialAccounts: SocialAccounts;
  /**
   * `false`: the outbox is relayed only when asked (`app.outbox.relayOutbox.execute()`, and the
   * `outbox.relay` job), for demos and tests that show each step. By default, as soon as each
   * transaction that wrote to it commits, in a unit of work of its own (`Transaction.runApart`).
   */
  readonly relayAfterCommit?: boolean;
  /**
   * Brings contacts' files from their providers (by a job per message, `messages.fetch-inbound-media`).
   * Without it, or without `jobQueue`, a contact's file is kept as failed (`ERR_MEDIA_NOT_SUPPORTED`) beside its caption.
   */
  readonly inboundMediaFetcher?: InboundMediaFetcher;
  readonly inboundMediaSettings?: InboundMediaSettings;
  readonly jobQueue?: Jobs;
  /**
   * The inbound routing's reads of a company's settings, queues and flows kept per process while
   * nothing they read changed (see `RoutingReads`); the same instance must watch the realtime
   * events every feature publishes. Without it, every message reads them in its transaction.
   */
  readonly routingReads?: RoutingReads;
}

/** The stores the inbound routing reads, through `routingReads` when there is one. */
function routingStores(p: MessagingPorts & SharedPorts) {
  const memo = p.routingReads;
  if (!memo) return { queues: p.queues, settings: p.settings, flows: undefined };
  const queues = overriding(p.queues, 'ofConnections', (companyId, ids) =>
    memo.read(companyId, `queues-of:${[...ids].sort((a, b) => a - b).join(',')}`, () => p.queues.ofConnections(companyId, ids)),
  );
  const settings = overriding(p.settings, 'get', (companyId, key) =>
    companyId === null ? p.settings.get(companyId, key) : memo.read(companyId, `setting:${key}`, () => p.settings.get(companyId, key)),
  );
  const flows = hasFlowRuntime(p)
    ? overriding(p.flows, 'triggered', (companyId) => memo.read(companyId, 'flows-triggered', () => p.flows.triggered(companyId)))
    : undefined;
  return { queues, settings, flows };
}

/** The store with one method answered by `method` instead; everything else is the store's own. */
function overriding<T extends object, K extends keyof T>(store: T, name: K, method: T[K]): T {
  return new Proxy(store, { get: (target, key) => (key === name ? method : Reflect.get(target, key, target)) });
}

/** One relay per outbox: every feature that sends relays through it, so that runs never overlap. */
const relays = new WeakMap<Outbox, RelayOutbox>();
function relayOf(p: Pick<MessagingPorts & SharedPorts, 'outbox' | 'broker' | 'tx' | 'clock' | 'relayAfterCommit'>): RelayOutbox {
  let relay = relays.get(p.outbox);
  if (!relay) {
    relay = new RelayOutbox({ outbox: p.outbox, broker: p.broker, clock: p.clock, tx: p.tx, byHand: p.relayAfterCommit === false });
    relays.set(p.outbox, relay);
  }
  return relay;
}

/**
 * The one send path: `OutboundMessages` over an outbox whose entries are relayed as soon as the
 * transaction that wrote them commits (and by the relay job otherwise). Every feature that sends
 * builds it from here, and all of them relay through the outbox's one relay.
 */
export function sendPath(p: Pick<MessagingPorts & SharedPorts, 'outbox' | 'broker' | 'messages' | 'tx' | 'clock' | 'ids' | 'relayAfterCommit'>) {
  const relayOutbox = relayOf(p);
  const outbox = relayAfterCommit(p.outbox, p.tx, relayOutbox.request);
  return { relayOutbox, outbox, outbound: new OutboundMessages({ messages: p.messages, outbox, clock: p.clock, ids: p.ids }) };
}

/**
 * The messaging use cases, in four slices: `connections` (channels and their sessions), `tickets`,
 * `conversations` (messages in and out; `outbound` is the one send path) and `outbox` (its relay).
 */
export function createMessaging(p: MessagingPorts & SharedPorts) {
  const { contacts, tickets, messages, digester, users, companies, plans, blobs, cache, realtime, tx, clock, ids } = p;
  const { relayOutbox, outbox, outbound } = sendPath(p);
  const recordEvents = new RecordEvents({ outbox, clock });
  const { connections, tokenLookup, recentLookup } = memoizeConnectionLookups(p.connections, clock);
  const { queues, settings } = p;
  const routing = routingStores(p);
  // With the flows feature's ports, published flows take their place in the routing (see QueueRouter).
  const flows = hasFlowRuntime(p) ? { flows: flowRunner({ ...p, ...(routing.flows ? { flows: routing.flows } : {}) }, { outbound, outbox }) } : {};
  const router = new QueueRouter({
    queues: routing.queues,
    options: p.queueOptions,
    settings: new RoutingSettings({ settings: routing.settings, companies, clock }),
    users,
    outbound,
    commands: new RoutingCommands({ outbox, ids, clock }),
    clock,
    ...flows,
  });
  const presenter = new TicketPresenter({ contacts, connections, users, realtime, tags: p.tags, queues });
  const contexts = messageContexts({ tickets, contacts, queues, messages, ...(p.messageContextReads ? { reads: p.messageContextReads } : {}) });
  const announcer = new ConversationAnnouncer({ presenter, realtime, contexts });
  const idempotent = new IdempotentSends({ cache, idempotencyKeys: p.idempotencyKeys });
  const rules = new SendingRules({ suspensions: p.companySuspensions, windows: p.serviceWindows });
  const updates = new MessageUpdates({ realtime, contexts });
  const mediaSettings = p.inboundMediaSettings ?? DEFAULT_INBOUND_MEDIA_SETTINGS;
  const { jobQueue, inboundMediaFetcher: fetcher } = p;
  const fetchInboundMedia =
    fetcher && jobQueue ? new FetchInboundMedia({ messages, connections: p.connections, fetcher, blobs, ids, clock, updates, settings: mediaSettings }) : null;
  const routeInbound = new RouteInbound({
    connections: { ...connections, findById: recentLookup.findById },
    tx,
    clock,
    conversations: new InboundConversations({ contacts, tickets, ids, tracking: p.ticketTracking }),
    store: new InboundMessageStore({
      messages,
      tickets,
      ids,
      ...(fetchInboundMedia && jobQueue ? { inboundMedia: { enqueue: (m, media, at) => enqueueInboundMedia(jobQueue, m, media, at) } } : {}),
    }),
    router,
    announcer,
    ...(p.routingReads ? { routing: p.routingReads } : {}),
  });
  const proxyOf =
    p.proxies && p.proxyAssignments && p.secretCipher
      ? sessionProxyLookup({ proxies: p.proxies, assignments: p.proxyAssignments, cipher: p.secretCipher })
      : undefined;
  const sessions = new SessionCommands({ connections, outbox, clock, ids, ...(proxyOf ? { proxyOf } : {}) });
  const resumeSessions = new ResumeSessions({ companies, connections, sessions, tx });
  const credentials = new ConnectionCredentials({ connections, digester, socialAccounts: p.socialAccounts });
  const menu = new ConnectionMenu({ queues, prompts: p.prompts });
  const ticketsAndMessages = createTicketsAndMessages({ ...p, connections, outbox }, outbound, presenter, contexts, { announcer, idempotent, rules, updates });
  return {
    connections: {
      authenticateConnection: new AuthenticateConnection({ connections: tokenLookup, digester }),
      checkNumber: new CheckNumber({ queries: p.channelQueries }),
      acceptProviderEvents: new AcceptProviderEvents({ connections, record: recordEvents, clock }),
      listConnections: new ListConnections({ connections, queues }),
      listAllConnections: new ListAllConnections({ connections, companies }),
      showConnection: new ShowConnection({ connections, queues }),
      createConnection: new CreateConnection({
        connections,
        planGuard: new PlanGuard({ companies, plans }),
        credentials,
        sessions,
        tx,
        clock,
        realtime,
        menu,
      }),
      updateConnection: new UpdateConnection({ connections, credentials, sessions, tx, clock, realtime, menu }),
      deleteConnection: new DeleteConnection({ connections, sessions, blobs, tx, realtime }),
      controlSession: new ControlSession({ connections, sessions, tx, realtime }),
      restartAllSessions: new RestartAllSessions({ connections, sessions, tx, realtime, cache }),
      resumeSessions,
      setGreetingMedia: new SetGreetingMedia({ connections, blobs, ids, clock, realtime }),
      removeGreetingMedia: new RemoveGreetingMedia({ connections, blobs, clock, realtime }),
    },
    tickets: {
      ...ticketsAndMessages.tickets,
      closeImportedTickets: new CloseImportedTickets({ connections, tickets, tracking: p.ticketTracking, tx, clock, realtime }),
    },
    conversations: {
      /** The one way to send a message: campaigns, schedules, bots and flows all use it. */
      outbound,
      routeInbound,
      sendApiMessage: apiSend(p, outbound, { announcer, idempotent, rules }),
      expireIdempotencyKeys: new ExpireIdempotencyKeys({ idempotencyKeys: p.idempotencyKeys, clock }),
      applyChannelEvent: new ApplyChannelEvent({
        messages,
        connections,
        routeInbound,
        clock,
        realtime,
        updates,
        resumeSessions,
        typing: new ContactTyping({ contacts, tickets, realtime }),
      }),
      expireStaleSends: new ExpireStaleSends({ messages, clock, realtime, contexts }),
      /** Contacts' files into blob storage; null without a fetcher and a job queue. */
      fetchInboundMedia,
      /** The job definitions of `fetchInboundMedia` (none without it). */
      inboundMediaJobs: () => (fetchInboundMedia ? inboundMediaJobs(fetchInboundMedia, mediaSettings) : []),
      ...ticketsAndMessages.messages,
    },
    /** `recordEvents`: what a channel runtime in this process takes from providers, kept before it is acknowledged. */
    outbox: { relayOutbox, recordEvents },
  };
}

/** The operators' ticket and message use cases (the "Tickets and messages" routes). */
function createTicketsAndMessages(
  p: MessagingPorts & SharedPorts,
  outbound: OutboundMessages,
  presenter: TicketPresenter,
  contexts: MessageContexts,
  { announcer, idempotent, rules, updates }: { announcer: ConversationAnnouncer; idempotent: IdempotentSends; rules: SendingRules; updates: MessageUpdates },
) {
  const { connections, contacts, tickets, messages, outbox, ticketLogs, users, realtime, tx, clock, ids } = p;
  const journal = new TicketJournal({ tickets, ticketLogs, tracking: p.ticketTracking, clock });
  const ticketTargets = new TicketTargets({ users, queues: p.queues });
  const closing = { tickets, users, journal, presenter, tx, clock, realtime };
  const { conversations, replies, sendTicketMessage } = operatorSend(p, outbound, journal, { announcer, idempotent, rules });
  const changing = { messages, conversations, outbox, tx, clock, ids, updates };
  return {
    tickets: {
      listTickets: new ListTickets({ tickets, users, presenter }),
      countTickets: new CountTickets({ tickets, users }),
      showTicket: new ShowTicket({ tickets, users, presenter }),
      showTicketByUuid: new ShowTicketByUuid({ tickets, users, presenter }),
      listTicketLogs: new ListTicketLogs({ tickets, users, ticketLogs }),
      ticketReport: new TicketReport({ tickets, messages, presenter }),
      createTicket: new CreateTicket({
        tickets,
        parties: new TicketParties({ contacts, connections }),
        targets: ticketTargets,
        journal,
        presenter,
        tx,
        clock,
        ids,
      }),
      updateTicket: new UpdateTicket({
        tickets,
        users,
        targets: ticketTargets,
        farewell: new TicketFarewell({ connections, contacts, outbound }),
        journal,
        announcer,
        tx,
        clock,
      }),
      deleteTicket: new DeleteTicket({ tickets, messages, journal, tx, realtime }),
      closeAllTickets: new CloseAllTickets(closing),
      ignoreTicket: new IgnoreTicket(closing),
      recordLgpdResponse: new RecordLgpdResponse(closing),
    },
    messages: {
      listTicketMessages: new ListTicketMessages({ tickets, messages, users, announcer, tx }),
      countMessages: new CountMessages({ messages, users, queues: p.queues, settings: p.settings }),
      listTicketMedia: new ListTicketMedia({ tickets, messages, users, contexts }),
      sendTicketMessage,
      sendCatalog: new SendCatalog({ send: sendTicketMessage, products: p.products ?? null, categories: p.categories ?? null }),
      editMessage: new EditMessage(changing),
      revokeMessage: new RevokeMessage(changing),
      forwardMessage: new ForwardMessage({ conversations, replies, announcer, tx, clock, rules }),
    },
  };
}

/**
 * The operators' send (also the bizchat template's to a ticket): the conversation's lookups and
 * the operator's replies it writes with, shared with the forward.
 */
export function operatorSend(
  p: Pick<MessagingPorts & SharedPorts, 'tickets' | 'users' | 'contacts' | 'connections' | 'messages' | 'blobs' | 'tx' | 'clock' | 'ids'>,
  outbound: OutboundMessages,
  journal: TicketJournal,
  { announcer, idempotent, rules }: { announcer: ConversationAnnouncer; idempotent: IdempotentSends; rules: SendingRules },
) {
  const { tickets, users, contacts, connections, messages, blobs, tx, clock, ids } = p;
  const conversations = new ConversationLookup({ tickets, users, contacts, connections, messages });
  const replies = new OperatorReplies({ tickets, messages, outbound, journal, clock, ids });
  const media = new MediaStore({ blobs, ids });
  const sendTicketMessage = new SendTicketMessage({ conversations, replies, announcer, media, tx, clock, rules, idempotent });
  return { conversations, replies, sendTicketMessage };
}

/** The message API's send (also the bizchat template's to a number). */
export function apiSend(
  p: Pick<MessagingPorts & SharedPorts, 'contacts' | 'tickets' | 'users' | 'queues' | 'ticketTracking' | 'blobs' | 'tx' | 'clock' | 'ids'>,
  outbound: OutboundMessages,
  { announcer, idempotent, rules }: { announcer: ConversationAnnouncer; idempotent: IdempotentSends; rules: SendingRules },
): SendApiMessage {
  const { contacts, tickets, users, queues, blobs, tx, clock, ids } = p;
  const conversations = new ApiConversations({ contacts, tickets, users, queues, ids, tracking: p.ticketTracking });
  return new SendApiMessage({ conversations, outbound, media: new MediaStore({ blobs, ids }), tx, clock, idempotent, announcer, rules });
}

export type MessagingApi = ReturnType<typeof createMessaging>;
