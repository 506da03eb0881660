import type { RealtimeEvents } from '../realtime/ports.js';
import type { SessionEvent } from '../connections/connection-events.js';
import type { Clock } from '../shared/ports.js';
import type { ChannelEvent, MessageFailedEvent, MessageSentEvent, MessageStatusEvent, SessionStatusEvent } from '../connections/channel-messages.js';
import { toConnectionView } from '../connections/connection.js';
import type { DeliveryStatus } from '../connections/delivery-status.js';
import type { Message } from '../messages/message.js';
import { groupCommit } from '../shared/group-commit.js';
import type { Connections } from '../connections/ports.js';
import type { DeliveryChange, Messages } from '../messages/ports.js';
import type { RouteInbound } from './route-inbound.js';
import type { MessageUpdates } from './message-updates.js';
import type { ContactTyping } from './contact-typing.js';

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
      /** Where a session's status is told. */
      realtime: RealtimeEvents<SessionEvent>;
      /** Tells the operators of messages whose delivery moved on. */
      updates: MessageUpdates;
      resumeSessions?: { execute(): Promise<number> };
      /** Tells a contact's typing to its conversation's operators; without it, typing is dropped. */
      typing?: ContactTyping;
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
        await this.deps.typing?.tell(event);
        return;
    }
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
    for (const [companyId, messages] of byCompany) await this.deps.updates.allUpdated(companyId, messages);
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
