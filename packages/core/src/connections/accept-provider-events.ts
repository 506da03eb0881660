import type { Clock } from '../shared/ports.js';
import { inboundShard, SUBJECTS, type Broker } from '../outbox/broker.js';
import type { ChannelEvent, InboundMessageEvent, MessageStatusEvent, SessionStatusEvent } from './channel-messages.js';
import type { Connection } from './connection.js';
import type { Connections } from './ports.js';

type WithoutConnection<T> = Omit<T, 'companyId' | 'chatappId' | 'at'> & { at?: string };
export type ProviderEvent =
  | WithoutConnection<InboundMessageEvent>
  | WithoutConnection<MessageStatusEvent>
  | WithoutConnection<SessionStatusEvent>;

export type ConnectionRef = { readonly id: number } | { readonly externalId: string };

/**
 * Events that providers push to the backend over HTTP (the social-network webhook, an external
 * chat-application microservice): each is tied to its connection and put on the broker, where
 * the same handlers as the runtime's events apply it. The answer can go back at once; the event
 * id is derived from its content, so a provider retrying the same delivery changes nothing.
 */
export class AcceptProviderEvents {
  constructor(private readonly deps: { connections: Connections; broker: Broker; clock: Clock }) {}

  /** Returns how many events were accepted; events of unknown connections are skipped. */
  async execute(ref: ConnectionRef, events: readonly ProviderEvent[]): Promise<number> {
    const connection = 'id' in ref
      ? await this.deps.connections.findById(null, ref.id)
      : await this.deps.connections.findByExternalId(ref.externalId);
    if (!connection) return 0;
    for (const event of events) await this.publish(connection, event);
    return events.length;
  }

  private publish(connection: Connection, event: ProviderEvent) {
    const at = event.at ?? this.deps.clock.now().toISOString();
    const full = { ...event, companyId: connection.companyId, chatappId: connection.id, at } as ChannelEvent;
    switch (full.type) {
      case 'InboundMessage':
        return this.deps.broker.publish({ id: `inbound:${connection.id}:${full.providerMessageId}`, subject: SUBJECTS.inbound(inboundShard(connection.id, full.from)), payload: full });
      case 'MessageStatusChanged':
        return this.deps.broker.publish({ id: `status:${connection.id}:${full.providerMessageId}:${full.status}`, subject: SUBJECTS.messageStatus, payload: full });
      case 'SessionStatusChanged':
        return this.deps.broker.publish({ id: `session:${connection.id}:${at}:${full.status}`, subject: SUBJECTS.sessionStatus, payload: full });
      default:
        return undefined;
    }
  }
}
