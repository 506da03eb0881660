import type { RealtimeEvents } from '../realtime/ports.js';
import type { MessageUpdateEvent } from '../messages/message-events.js';
import type { SessionEvent } from '../connections/connection-events.js';
import type { Clock } from '../shared/ports.js';
import type {
  ChannelEvent,
  ContactPresenceEvent,
  MessageFailedEvent,
  MessageSentEvent,
  MessageStatusEvent,
  SessionStatusEvent,
} from '../connections/channel-messages.js';
import type { Contacts } from '../contacts/ports.js';
import type { Tickets } from '../tickets/ports.js';
import type { ContactTypingEvent } from '../tickets/ticket-events.js';
import { toConnectionView } from '../connections/connection.js';
import type { DeliveryStatus } from '../connections/delivery-status.js';
import { toMessageViews, type MessageContexts } from '../messages/message-view.js';
import type { Message } from '../messages/message.js';
import { groupCommit } from '../shared/group-commit.js';
import type { Connections } from '../connections/ports.js';
import type { DeliveryChange, Messages } from '../messages/ports.js';
import type { RouteInbound } from './route-inbound.js';

/**
 * The backend's side of the channel events: delivery progress, failures, session status and
 * inbound messages. Every branch is idempotent, so redelivered events are harmless.
 */
export class ApplyChannelEvent {
  /** Delivery changes reported at once (a consumer handles several side by side) go to the store together. */
  private readonly advanceTogether: (change: DeliveryChange) => Promise<void>;

  constructor(
    private readonly deps: {
      messages: Messages;
      connections: Connections;
      routeInbound: RouteInbound;
      clock: Clock;
      realtime: RealtimeEvents<MessageUpdateEvent | SessionEvent | ContactTypingEvent>;
      contexts?: MessageContexts;
      resumeSessions?: { execute(): Promise<number> };
      /** Where a contact's typing finds its conversation; without them it is dropped. */
      contacts?: Pick<Contacts, 'findByNumber'>;
      tickets?: Pick<Tickets, 'findActive'>;
    },
  ) {
    this.advanceTogether = groupCommit((changes) => this.advanceBatch(changes));
  }

  async execute(event: ChannelEvent): Promise<void> {
    switch (event.type) {
      case 'SessionMessageSent':
      case 'SocialMessageSent':
        return this.sent(event);
      case 'SessionMessageFailed':
      case 'SocialMessageFailed':
        return this.failed(event);
      case 'MessageStatusChanged':
        return this.status(event);
      case 'InboundMessage':
        await this.deps.routeInbound.execute(event);
        return;
      case 'SessionStatusChanged':
        return this.session(event);
      case 'RuntimeOnline':
        await this.deps.resumeSessions?.execute();
        return;
      case 'ContactPresence':
        return this.presence(event);
    }
  }

  /**
   * The contact's typing, for the operators of its open or pending ticket on that connection only:
   * nothing is stored, and without such a ticket (a contact nobody talks with now) it is dropped.
   */
  private async presence(e: ContactPresenceEvent) {
    const { contacts, tickets } = this.deps;
    if (!contacts || !tickets) return;
    const contact = await contacts.findByNumber(e.companyId, e.from);
    if (!contact) return;
    const ticket = await tickets.findActive(e.companyId, contact.id, e.chatappId);
    if (!ticket || (ticket.status !== 'open' && ticket.status !== 'pending')) return;
    await this.deps.realtime.publish(e.companyId, {
      entity: 'contactTyping',
      data: { action: 'update', ticketId: ticket.id, contactId: contact.id, state: e.state },
      scope: { id: ticket.id, queueId: ticket.queueId, userId: ticket.userId, status: ticket.status },
    });
  }

  private async sent(e: MessageSentEvent) {
    await this.advance(e.companyId, { id: e.messageId }, 'sent', { providerMessageId: e.providerMessageId });
  }

  private async failed(e: MessageFailedEvent) {
    await this.advance(e.companyId, { id: e.messageId }, 'failed', { failureReason: e.reason });
  }

  private async status(e: MessageStatusEvent) {
    const target = e.messageId ? { id: e.messageId } : { connectionId: e.chatappId, providerMessageId: e.providerMessageId };
    await this.advance(e.companyId, target, e.status, e.status === 'failed' && e.reason ? { failureReason: e.reason } : {});
  }

  /**
   * One atomic forward-only step in the store: reports may arrive in any order and in parallel,
   * and only a real change reaches the namespace. Reports handled at the same time share the
   * statement and the read of their views' context.
   */
  private advance(
    companyId: number,
    target: DeliveryChange['target'],
    status: DeliveryStatus,
    extra: { providerMessageId?: string; failureReason?: string } = {},
  ) {
    return this.advanceTogether({ companyId, target, status, ...extra, at: this.deps.clock.now() });
  }

  /** The batch's changes in one call to the store, then each change's frame, in the order of the changes. */
  private async advanceBatch(changes: readonly DeliveryChange[]): Promise<void[]> {
    const changed = (await this.deps.messages.advanceStatuses(changes)).filter((m): m is Message => m !== null);
    const byCompany = new Map<number, Message[]>();
    for (const m of changed) byCompany.set(m.companyId, [...(byCompany.get(m.companyId) ?? []), m]);
    for (const [companyId, messages] of byCompany) {
      const views = await toMessageViews(this.deps.contexts, companyId, messages);
      for (const view of views) await this.deps.realtime.publish(companyId, { entity: 'appMessage', data: { action: 'update', message: view } });
    }
    return changes.map(() => undefined);
  }

  private async session(e: SessionStatusEvent) {
    const connection = await this.deps.connections.findById(e.companyId, e.chatappId);
    if (!connection) return;
    connection.status = e.status;
    connection.qrcode = e.status === 'qrcode' ? e.qrcode : null;
    connection.pairingCode = e.status === 'qrcode' ? (e.pairingCode ?? null) : null;
    connection.updatedAt = this.deps.clock.now();
    await this.deps.connections.update(connection);
    await this.deps.realtime.publish(connection.companyId, { entity: 'chatappSession', data: { action: 'update', session: toConnectionView(connection) } });
  }
}
