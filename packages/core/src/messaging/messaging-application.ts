import type { Users } from '../identity/ports.js';
import type { RealtimeEvents } from '../realtime/ports.js';
import type { BlobStorage, Cache, Clock, IdGenerator, SecretDigester, Transaction } from '../shared/ports.js';
import { PlanGuard } from '../tenancy/plan-guard.js';
import type { Companies, Plans } from '../tenancy/ports.js';
import { AcceptProviderEvents } from './accept-provider-events.js';
import { ApplyChannelEvent } from './apply-channel-event.js';
import { CheckNumber, type ChannelQueries } from './check-number.js';
import { AuthenticateConnection } from './authenticate-connection.js';
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
import { ControlSession, RestartAllSessions } from './session-control.js';

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
}

/** The messaging use cases, built from their ports. */
export function createMessaging(p: MessagingPorts & SharedPorts) {
  const { connections, contacts, tickets, messages, outbox, broker, digester, users, companies, plans, blobs, cache, realtime, tx, clock, ids } = p;
  const outbound = new OutboundMessages({ messages, outbox, clock, ids });
  const routeInbound = new RouteInbound({ connections, contacts, tickets, messages, outbound, tx, clock, ids, realtime });
  const relayOutbox = new RelayOutbox({ outbox, broker, clock });
  const sessions = new SessionCommands({ connections, outbox, clock, ids, relay: relayOutbox });
  return {
    outbound,
    routeInbound,
    authenticateConnection: new AuthenticateConnection({ connections, digester }),
    sendApiMessage: new SendApiMessage({ contacts, tickets, users, outbound, blobs, cache, tx, clock, ids, realtime }),
    applyChannelEvent: new ApplyChannelEvent({ messages, connections, routeInbound, clock, realtime }),
    relayOutbox,
    checkNumber: new CheckNumber({ queries: p.channelQueries }),
    acceptProviderEvents: new AcceptProviderEvents({ connections, broker, clock }),
    listConnections: new ListConnections({ connections }),
    listAllConnections: new ListAllConnections({ connections, companies }),
    showConnection: new ShowConnection({ connections }),
    createConnection: new CreateConnection({ connections, planGuard: new PlanGuard({ companies, plans }), digester, sessions, tx, clock, realtime }),
    updateConnection: new UpdateConnection({ connections, digester, sessions, tx, clock, realtime }),
    deleteConnection: new DeleteConnection({ connections, sessions, blobs, tx, realtime }),
    controlSession: new ControlSession({ connections, sessions, tx, realtime }),
    restartAllSessions: new RestartAllSessions({ connections, sessions, tx, realtime }),
    setGreetingMedia: new SetGreetingMedia({ connections, blobs, ids, clock, realtime }),
    removeGreetingMedia: new RemoveGreetingMedia({ connections, blobs, clock, realtime }),
    closeImportedTickets: new CloseImportedTickets({ connections, tickets, tx, clock, realtime }),
  };
}
