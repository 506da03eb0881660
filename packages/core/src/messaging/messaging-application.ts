import type { Users } from '../identity/ports.js';
import type { RealtimeEvents } from '../realtime/ports.js';
import type { BlobStorage, Cache, Clock, IdGenerator, SecretDigester, Transaction } from '../shared/ports.js';
import { PlanGuard } from '../tenancy/plan-guard.js';
import type { Companies, Plans } from '../tenancy/ports.js';
import { AcceptProviderEvents } from './accept-provider-events.js';
import { ApplyChannelEvent } from './apply-channel-event.js';
import { CheckNumber, type ChannelQueries } from './check-number.js';
import { AuthenticateConnection } from './authenticate-connection.js';
import { memoizeConnectionLookups } from './connection-lookups.js';
import { ExpireStaleSends } from './expire-stale-sends.js';
import type { Broker } from './broker.js';
import { DeleteConnection, UpdateConnection } from './change-connection.js';
import { CloseImportedTickets } from './close-imported-tickets.js';
import { RemoveGreetingMedia, SetGreetingMedia } from './connection-media.js';
import { CreateConnection } from './create-connection.js';
import { OutboundMessages } from './outbound.js';
import type { Connections, Contacts, Messages, Outbox, Tickets } from './ports.js';
import { ListAllConnections, ListConnections, ShowConnection } from './read-connections.js';
import { RelayOutbox } from './relay-outbox.js';
import { RouteInbound } from './route-inbound.js';
import { SendApiMessage } from './send-api-message.js';
import { SessionCommands } from './session-commands.js';
import { ResumeSessions } from './resume-sessions.js';
import { ControlSession, RestartAllSessions } from './session-control.js';
import { EditMessage, RevokeMessage } from './change-message.js';
import { CloseAllTickets, IgnoreTicket, RecordLgpdResponse } from './close-tickets.js';
import { CreateTicket } from './create-ticket.js';
import { DeleteTicket } from './delete-ticket.js';
import { ForwardMessage } from './forward-message.js';
import { ListMyMessages, ListTicketMedia, ListTicketMessages } from './list-messages.js';
import { CountTickets, ListTickets } from './list-tickets.js';
import type { TicketLogs } from './ports.js';
import { SendCatalog } from './send-catalog.js';
import { SendTicketMessage } from './send-ticket-message.js';
import { ListTicketLogs, ShowTicket, ShowTicketByUuid } from './show-ticket.js';
import { TicketPresenter } from './ticket-details.js';
import { TicketJournal } from './ticket-journal.js';
import { TicketReport } from './ticket-report.js';
import { UpdateTicket } from './update-ticket.js';
import type { Tags } from '../tags/ports.js';
import type { QueueOptions, Queues } from '../queues/ports.js';
import { QueueRouter } from '../queues/queue-router.js';
import type { Settings } from '../settings/ports.js';

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
  readonly tags: Tags;
  readonly queues: Queues;
  readonly queueOptions: QueueOptions;
}

interface SharedPorts {
  readonly users: Users;
  readonly companies: Companies;
  readonly plans: Plans;
  readonly blobs: BlobStorage;
  readonly cache: Cache;
  readonly realtime: RealtimeEvents;
  readonly tx: Transaction;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  readonly settings: Settings;
}

/** The messaging use cases, built from their ports. */
export function createMessaging(p: MessagingPorts & SharedPorts) {
  const { contacts, tickets, messages, outbox, broker, digester, users, companies, plans, blobs, cache, realtime, tx, clock, ids } = p;
  const { connections, tokenLookup, recentLookup } = memoizeConnectionLookups(p.connections, clock);
  const outbound = new OutboundMessages({ messages, outbox, clock, ids });
  const { queues, settings } = p;
  const router = new QueueRouter({ queues, options: p.queueOptions, settings, companies, users, outbound, outbox, clock, ids });
  const routeInbound = new RouteInbound({ connections: { ...connections, findById: recentLookup.findById }, contacts, tickets, messages, tx, clock, ids, realtime, router });
  const relayOutbox = new RelayOutbox({ outbox, broker, clock });
  const sessions = new SessionCommands({ connections, outbox, clock, ids, relay: relayOutbox });
  const resumeSessions = new ResumeSessions({ companies, connections, sessions, tx });
  return {
    outbound,
    routeInbound,
    authenticateConnection: new AuthenticateConnection({ connections: tokenLookup, digester }),
    sendApiMessage: new SendApiMessage({ contacts, tickets, users, outbound, blobs, cache, tx, clock, ids, realtime, queues }),
    applyChannelEvent: new ApplyChannelEvent({ messages, connections, routeInbound, clock, realtime, resumeSessions }),
    relayOutbox,
    expireStaleSends: new ExpireStaleSends({ messages, clock, realtime }),
    checkNumber: new CheckNumber({ queries: p.channelQueries }),
    acceptProviderEvents: new AcceptProviderEvents({ connections, broker, clock }),
    listConnections: new ListConnections({ connections, queues }),
    listAllConnections: new ListAllConnections({ connections, companies }),
    showConnection: new ShowConnection({ connections, queues }),
    createConnection: new CreateConnection({ connections, planGuard: new PlanGuard({ companies, plans }), digester, sessions, tx, clock, realtime, queues }),
    updateConnection: new UpdateConnection({ connections, digester, sessions, tx, clock, realtime, queues }),
    deleteConnection: new DeleteConnection({ connections, sessions, blobs, tx, realtime }),
    controlSession: new ControlSession({ connections, sessions, tx, realtime }),
    restartAllSessions: new RestartAllSessions({ connections, sessions, tx, realtime }),
    resumeSessions,
    setGreetingMedia: new SetGreetingMedia({ connections, blobs, ids, clock, realtime }),
    removeGreetingMedia: new RemoveGreetingMedia({ connections, blobs, clock, realtime }),
    closeImportedTickets: new CloseImportedTickets({ connections, tickets, tx, clock, realtime }),
    ...createTicketsAndMessages({ ...p, connections }, outbound),
  };
}

/** The operators' ticket and message use cases (the "Tickets and messages" routes). */
function createTicketsAndMessages(p: MessagingPorts & SharedPorts, outbound: OutboundMessages) {
  const { connections, contacts, tickets, messages, outbox, ticketLogs, users, blobs, realtime, tx, clock, ids } = p;
  const presenter = new TicketPresenter({ contacts, connections, users, realtime, tags: p.tags });
  const journal = new TicketJournal({ tickets, ticketLogs, clock });
  const closing = { tickets, users, journal, presenter, tx, clock, realtime };
  const sendTicketMessage = new SendTicketMessage({
    tickets, messages, contacts, connections, users, outbound, journal, presenter, blobs, tx, clock, ids, realtime,
  });
  const changing = { tickets, messages, contacts, connections, users, outbox, tx, clock, ids, realtime };
  return {
    listTickets: new ListTickets({ tickets, users, presenter }),
    countTickets: new CountTickets({ tickets, users }),
    showTicket: new ShowTicket({ tickets, users, presenter }),
    showTicketByUuid: new ShowTicketByUuid({ tickets, users, presenter }),
    listTicketLogs: new ListTicketLogs({ tickets, users, ticketLogs }),
    ticketReport: new TicketReport({ tickets, messages, presenter }),
    createTicket: new CreateTicket({ tickets, contacts, connections, users, journal, presenter, tx, clock, ids, queues: p.queues }),
    updateTicket: new UpdateTicket({ tickets, contacts, connections, users, outbound, journal, presenter, tx, clock, realtime, queues: p.queues }),
    deleteTicket: new DeleteTicket({ tickets, messages, journal, tx, realtime }),
    closeAllTickets: new CloseAllTickets(closing),
    ignoreTicket: new IgnoreTicket(closing),
    recordLgpdResponse: new RecordLgpdResponse(closing),
    listTicketMessages: new ListTicketMessages({ tickets, messages, users, presenter, tx }),
    listMyMessages: new ListMyMessages({ messages }),
    listTicketMedia: new ListTicketMedia({ tickets, messages, users }),
    sendTicketMessage,
    sendCatalog: new SendCatalog({ send: sendTicketMessage }),
    editMessage: new EditMessage(changing),
    revokeMessage: new RevokeMessage(changing),
    forwardMessage: new ForwardMessage({ tickets, messages, contacts, connections, users, outbound, journal, presenter, tx, clock, ids, realtime }),
  };
}
