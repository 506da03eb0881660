import type { Users } from '../identity/ports.js';
import type { RealtimeEvents } from '../realtime/ports.js';
import type { BlobStorage, Cache, Clock, IdGenerator, SecretDigester, Transaction } from '../shared/ports.js';
import { ApplyChannelEvent } from './apply-channel-event.js';
import { AuthenticateConnection } from './authenticate-connection.js';
import type { Broker } from './broker.js';
import { OutboundMessages } from './outbound.js';
import type { Connections, Contacts, Messages, Outbox, Tickets } from './ports.js';
import { RelayOutbox } from './relay-outbox.js';
import { RouteInbound } from './route-inbound.js';
import { SendApiMessage } from './send-api-message.js';

/** The ports of the messaging spine. */
export interface MessagingPorts {
  readonly connections: Connections;
  readonly contacts: Contacts;
  readonly tickets: Tickets;
  readonly messages: Messages;
  readonly outbox: Outbox;
  readonly broker: Broker;
  readonly digester: SecretDigester;
}

interface SharedPorts {
  readonly users: Users;
  readonly blobs: BlobStorage;
  readonly cache: Cache;
  readonly realtime: RealtimeEvents;
  readonly tx: Transaction;
  readonly clock: Clock;
  readonly ids: IdGenerator;
}

/** The messaging use cases, built from their ports. */
export function createMessaging(p: MessagingPorts & SharedPorts) {
  const { connections, contacts, tickets, messages, outbox, broker, digester, users, blobs, cache, realtime, tx, clock, ids } = p;
  const outbound = new OutboundMessages({ messages, outbox, clock, ids });
  const routeInbound = new RouteInbound({ connections, contacts, tickets, messages, outbound, tx, clock, ids, realtime });
  return {
    outbound,
    routeInbound,
    authenticateConnection: new AuthenticateConnection({ connections, digester }),
    sendApiMessage: new SendApiMessage({ contacts, tickets, users, outbound, blobs, cache, tx, clock, ids, realtime }),
    applyChannelEvent: new ApplyChannelEvent({ messages, connections, routeInbound, clock, realtime }),
    relayOutbox: new RelayOutbox({ outbox, broker, clock }),
  };
}
