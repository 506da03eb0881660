import type { RealtimeEvents } from '../realtime/ports.js';
import type { Clock } from '../shared/ports.js';
import type { ChannelEvent, MessageFailedEvent, MessageSentEvent, MessageStatusEvent, SessionStatusEvent } from './channel-messages.js';
import { toConnectionView } from './connection.js';
import { advanceDelivery, type Message } from './conversation.js';
import { toMessageView } from './message-view.js';
import type { Connections, Messages } from './ports.js';
import type { RouteInbound } from './route-inbound.js';

/**
 * The backend's side of the channel events: delivery progress, failures, session status and
 * inbound messages. Every branch is idempotent, so redelivered events are harmless.
 */
export class ApplyChannelEvent {
  constructor(private readonly deps: {
    messages: Messages; connections: Connections; routeInbound: RouteInbound; clock: Clock; realtime: RealtimeEvents;
    resumeSessions?: { execute(): Promise<number> };
  }) {}

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
    }
  }

  private async sent(e: MessageSentEvent) {
    const message = await this.deps.messages.findById(e.companyId, e.messageId);
    if (!message) return;
    const before = { status: message.status, providerMessageId: message.providerMessageId };
    message.providerMessageId ??= e.providerMessageId;
    message.status = advanceDelivery(message.status, 'sent');
    if (before.status !== message.status || before.providerMessageId !== message.providerMessageId) await this.save(message);
  }

  private async failed(e: MessageFailedEvent) {
    const message = await this.deps.messages.findById(e.companyId, e.messageId);
    if (!message) return;
    const next = advanceDelivery(message.status, 'failed');
    if (next === message.status) return;
    message.status = next;
    message.failureReason = e.reason;
    await this.save(message);
  }

  private async status(e: MessageStatusEvent) {
    const message = e.messageId
      ? await this.deps.messages.findById(e.companyId, e.messageId)
      : await this.deps.messages.findByProviderId(e.chatappId, e.providerMessageId);
    if (!message || message.companyId !== e.companyId) return;
    const next = advanceDelivery(message.status, e.status);
    if (next === message.status) return;
    message.status = next;
    await this.save(message);
  }

  private async save(message: Message) {
    message.updatedAt = this.deps.clock.now();
    await this.deps.messages.update(message);
    await this.deps.realtime.publish(message.companyId, { entity: 'appMessage', data: { action: 'update', message: toMessageView(message) } });
  }

  private async session(e: SessionStatusEvent) {
    const connection = await this.deps.connections.findById(e.companyId, e.chatappId);
    if (!connection) return;
    connection.status = e.status;
    connection.qrcode = e.status === 'qrcode' ? e.qrcode : null;
    connection.updatedAt = this.deps.clock.now();
    await this.deps.connections.update(connection);
    await this.deps.realtime.publish(connection.companyId, { entity: 'whatsappSession', data: { action: 'update', session: toConnectionView(connection) } });
  }
}
