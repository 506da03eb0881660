import type { RealtimeEvents } from '../realtime/ports.js';
import type { MessageUpdateEvent } from './message-events.js';
import type { Message } from './message.js';

export interface MessageView extends Omit<Message, 'createdAt' | 'updatedAt' | 'editedAt'> {
  /** The lineage's delivery number: 0 pending, 1 sent, 2 delivered, 3 read, 4 played, -1 failed. */
  ack: number;
  createdAt: string;
  updatedAt: string;
  editedAt: string | null;
}

const ACK = { pending: 0, sent: 1, delivered: 2, read: 3, played: 4, failed: -1 } as const;

export function toMessageView(m: Message): MessageView {
  return {
    ...m, ack: ACK[m.status], createdAt: m.createdAt.toISOString(), updatedAt: m.updatedAt.toISOString(),
    editedAt: m.editedAt ? m.editedAt.toISOString() : null,
  };
}

/** Tells the company's operators that a message changed (`appMessage` update); returns the view sent. */
export async function publishMessageUpdate(realtime: RealtimeEvents<MessageUpdateEvent>, message: Message): Promise<MessageView> {
  const view = toMessageView(message);
  await realtime.publish(message.companyId, { entity: 'appMessage', data: { action: 'update', message: view } });
  return view;
}
