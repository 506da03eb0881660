import type { MessageUpdateEvent } from '../messages/message-events.js';
import { publishMessageUpdate, toMessageViews, type MessageContexts, type MessageView } from '../messages/message-view.js';
import type { Message } from '../messages/message.js';
import type { RealtimeEvents } from '../realtime/ports.js';

/**
 * Tells the operators that stored messages changed (an `appMessage` `update` each, as the views
 * show them): the realtime events and the message contexts, in place of the two in each use case.
 */
export class MessageUpdates {
  constructor(private readonly deps: { realtime: RealtimeEvents<MessageUpdateEvent>; contexts?: MessageContexts }) {}

  /** The message's `update` frame; answers its view. */
  updated(message: Message): Promise<MessageView> {
    return publishMessageUpdate(this.deps.realtime, message, this.deps.contexts);
  }

  /** The messages' views, nothing published (a change that changed nothing answers these). */
  views(companyId: number, messages: readonly Message[]): Promise<MessageView[]> {
    return toMessageViews(this.deps.contexts, companyId, messages);
  }

  /** Several messages of one company changed at once: their context read once, then a frame each, in order. */
  async allUpdated(companyId: number, messages: readonly Message[]): Promise<void> {
    const views = await this.views(companyId, messages);
    for (const view of views) await this.deps.realtime.publish(companyId, { entity: 'appMessage', data: { action: 'update', message: view } });
  }
}
