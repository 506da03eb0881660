import type { RealtimeEvents } from '../realtime/ports.js';
import type { MessageUpdateEvent } from './message-events.js';
import type { Message } from './message.js';

/** What a message carries of the contact of its conversation (the contacts' view names). */
export interface MessageContact {
  id: number;
  name: string;
  number: string;
  urlPicture: string | null;
}

/** What a message carries of its ticket: enough for the client to find the conversation it belongs to. */
export interface MessageTicketRef {
  id: number;
  uuid: string;
  status: string;
  userId: number | null;
  queueId: number | null;
  chatappId: number;
  queue: { id: number; name: string; color: string } | null;
}

/** The message a reply quotes, as the reply shows it. */
export interface QuotedMessageView {
  id: string;
  body: string;
  fromMe: boolean;
  mediaUrl: string | null;
  mediaType: string;
  isDeleted: boolean;
  createdAt: string;
  contact: MessageContact | null;
}

export interface MessageView extends Omit<Message, 'createdAt' | 'updatedAt' | 'editedAt' | 'connectionId' | 'kind'> {
  /** The connection the message went through (the naming rule's name). */
  chatappId: number;
  /** The lineage's delivery number: 0 pending, 1 sent, 2 delivered, 3 read, 4 played, -1 failed. */
  ack: number;
  /** Where its file is (`media.url`); null for a text, and for a contact's file not yet stored (`media.status`). */
  mediaUrl: string | null;
  /**
   * `conversation` for a text; for a file the first part of its type (`image`, `audio`, `video`, `application`...);
   * `locationMessage` or `contactMessage` for a location or contact cards the contact shared (in `body`).
   */
  mediaType: string;
  /** Seen by the operators: our own messages always, the contact's once the conversation was opened. */
  read: boolean;
  quotedMsg: QuotedMessageView | null;
  contact: MessageContact | null;
  ticket: MessageTicketRef | null;
  createdAt: string;
  updatedAt: string;
  editedAt: string | null;
}

/** What a message's view embeds besides the message itself. */
export interface MessageContext {
  readonly ticket: MessageTicketRef | null;
  readonly contact: MessageContact | null;
  readonly quoted: Message | null;
}

/** A conversation the caller has already read: its ticket, and its contact (`contactId`), are not read again. */
export interface KnownConversation {
  readonly ticket: MessageTicketRef;
  readonly contactId: number;
  readonly contact: MessageContact | null;
}

/**
 * Reads the context of some messages (their tickets, contacts and quoted messages) in a few
 * queries, but for what `known` already holds; implemented where tickets and contacts are known
 * (`conversations/message-context.ts`).
 */
export type MessageContexts = (companyId: number, messages: readonly Message[], known?: KnownConversation) => Promise<MessageContext[]>;

const ACK = { pending: 0, sent: 1, delivered: 2, read: 3, played: 4, failed: -1 } as const;

/** `conversation` for a text, else the file type's first part (`image/png` → `image`); what a contact shared by its kind. */
export function mediaTypeOf(m: Pick<Message, 'media' | 'kind'>): string {
  // What a contact shared, in the lineage's words (its body holds it: `shared-content.ts`).
  if (m.kind === 'location') return 'locationMessage';
  if (m.kind === 'contact') return 'contactMessage';
  if (!m.media) return 'conversation';
  const major = m.media.contentType.split('/')[0]?.trim().toLowerCase();
  return major || 'application';
}

export function toMessageView(m: Message, context?: MessageContext | null): MessageView {
  const { connectionId, kind: _kind, ...rest } = m;
  const quoted = context?.quoted ?? null;
  return {
    ...rest,
    chatappId: connectionId,
    ack: ACK[m.status],
    mediaUrl: m.media?.url || null,
    mediaType: mediaTypeOf(m),
    read: m.fromMe,
    quotedMsg: quoted
      ? {
          id: quoted.id,
          body: quoted.body,
          fromMe: quoted.fromMe,
          mediaUrl: quoted.media?.url || null,
          mediaType: mediaTypeOf(quoted),
          isDeleted: quoted.isDeleted,
          createdAt: quoted.createdAt.toISOString(),
          contact: context?.contact ?? null,
        }
      : null,
    contact: context?.contact ?? null,
    ticket: context?.ticket ?? null,
    createdAt: m.createdAt.toISOString(),
    updatedAt: m.updatedAt.toISOString(),
    editedAt: m.editedAt ? m.editedAt.toISOString() : null,
  };
}

/** The views of some messages with their context (read in a few queries), or bare without a reader. */
export async function toMessageViews(
  contexts: MessageContexts | undefined,
  companyId: number,
  messages: readonly Message[],
  known?: KnownConversation,
): Promise<MessageView[]> {
  if (!contexts || messages.length === 0) return messages.map((m) => toMessageView(m));
  const found = await contexts(companyId, messages, known);
  return messages.map((m, i) => toMessageView(m, found[i]));
}

/** Tells the company's operators that a message changed (`appMessage` update); returns the view sent. */
export async function publishMessageUpdate(realtime: RealtimeEvents<MessageUpdateEvent>, message: Message, contexts?: MessageContexts): Promise<MessageView> {
  const [view] = await toMessageViews(contexts, message.companyId, [message]);
  await realtime.publish(message.companyId, { entity: 'appMessage', data: { action: 'update', message: view! } });
  return view!;
}
