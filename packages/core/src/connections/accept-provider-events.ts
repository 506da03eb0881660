import type { Clock } from '../shared/ports.js';
import { inboundShard, SUBJECTS, type BrokerEnvelope } from '../outbox/broker.js';
import type { RecordEvents } from '../outbox/record-events.js';
import type { ChannelEvent, InboundMessageEvent, MessageStatusEvent, SessionStatusEvent } from './channel-messages.js';
import type { Connection } from './connection.js';
import type { Connections } from './ports.js';
import { cleanSharedContent } from './shared-content.js';

type WithoutConnection<T> = Omit<T, 'companyId' | 'chatappId' | 'at'> & { at?: string };
export type ProviderEvent = WithoutConnection<InboundMessageEvent> | WithoutConnection<MessageStatusEvent> | WithoutConnection<SessionStatusEvent>;

export type ConnectionRef = { readonly id: number } | { readonly externalId: string };

/** What a provider delivered for one of its accounts (a page, a number, a connection). */
export interface ProviderDelivery {
  readonly ref: ConnectionRef;
  readonly events: readonly ProviderEvent[];
}

/**
 * Events that providers push to the backend over HTTP (the social-network and business-API
 * webhook, an external chat-application microservice): each is tied to its connection and recorded
 * in the outbox, all of one request in one statement (committed by itself, or with the transaction
 * around the caller), before the request is answered (a provider does not deliver again what was
 * answered 200). The relay then puts them on the broker, where the
 * same handlers as the runtime's events apply them. The event id is derived from its content, so
 * a provider delivering the same event again changes nothing.
 */
export class AcceptProviderEvents {
  constructor(private readonly deps: { connections: Connections; record: RecordEvents; clock: Clock }) {}

  /** Returns how many events were accepted; events of unknown connections are skipped. */
  async execute(deliveries: readonly ProviderDelivery[]): Promise<number> {
    const envelopes: BrokerEnvelope[] = [];
    for (const { ref, events } of deliveries) {
      const connection = 'id' in ref ? await this.deps.connections.findById(null, ref.id) : await this.deps.connections.findByExternalId(ref.externalId);
      if (!connection) continue;
      for (const event of events) {
        const envelope = this.envelope(connection, event);
        if (envelope) envelopes.push(envelope);
      }
    }
    await this.deps.record.execute(envelopes);
    return envelopes.length;
  }

  private envelope(connection: Connection, event: ProviderEvent): BrokerEnvelope | null {
    const at = event.at ?? this.deps.clock.now().toISOString();
    const full = { ...event, companyId: connection.companyId, chatappId: connection.id, at } as ChannelEvent;
    switch (full.type) {
      case 'InboundMessage':
        // A shared location or contact cards are checked here (coordinates in range, sizes capped); what fails is dropped.
        return {
          id: `inbound:${connection.id}:${full.providerMessageId}`,
          subject: SUBJECTS.inbound(inboundShard(connection.id, full.from)),
          payload: cleanSharedContent(full),
        };
      case 'MessageStatusChanged':
        return { id: `status:${connection.id}:${full.providerMessageId}:${full.status}`, subject: SUBJECTS.messageStatus, payload: full };
      case 'SessionStatusChanged':
        return { id: `session:${connection.id}:${at}:${full.status}`, subject: SUBJECTS.sessionStatus, payload: full };
      default:
        return null;
    }
  }
}
