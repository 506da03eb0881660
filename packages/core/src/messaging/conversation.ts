export type TicketStatus = 'pending' | 'open' | 'closed';

export interface Contact {
  id: number;
  companyId: number;
  name: string;
  /** Digits only (country + area + number), or a group id. */
  number: string;
  email: string | null;
  isGroup: boolean;
  profilePicUrl: string | null;
  createdAt: Date;
  updatedAt: Date;
  /** Its messages are still stored, but they open no ticket and reach no operator. */
  blocked: boolean;
  /** Whether the contact may send audio messages (the lineage's `acceptAudioMessage`). */
  acceptAudio: boolean;
  /** Chatbots and queue menus leave this contact alone. */
  disableBot: boolean;
  /** The operator who owns the contact (the lineage's "wallet"), a user of the same company. */
  walletUserId: number | null;
  /** The platform user this contact is (an employee writing from their own number); one contact per user. */
  linkedUserId: number | null;
  /** Free key/value notes kept on the contact, in the order the operator gave them. */
  extraInfo: ContactExtraInfo[];
}

export interface ContactExtraInfo { name: string; value: string; }

/** The contact fields that have defaults: a new contact may leave them out. */
export type ContactSettings = Pick<Contact, 'blocked' | 'acceptAudio' | 'disableBot' | 'walletUserId' | 'linkedUserId' | 'extraInfo'>;

/** A contact to create: everything but the id, the settings optional (see `contactDefaults`). */
export type NewContact = Omit<Contact, 'id' | keyof ContactSettings> & Partial<ContactSettings>;

/** Not blocked, accepts audio, bot enabled, no owner, no linked user, no notes. */
export function contactDefaults(): ContactSettings {
  return { blocked: false, acceptAudio: true, disableBot: false, walletUserId: null, linkedUserId: null, extraInfo: [] };
}

/** The new contact with every default filled in. */
export function withContactDefaults(contact: NewContact): Omit<Contact, 'id'> {
  const d = contactDefaults();
  return {
    ...contact,
    blocked: contact.blocked ?? d.blocked,
    acceptAudio: contact.acceptAudio ?? d.acceptAudio,
    disableBot: contact.disableBot ?? d.disableBot,
    walletUserId: contact.walletUserId ?? d.walletUserId,
    linkedUserId: contact.linkedUserId ?? d.linkedUserId,
    extraInfo: contact.extraInfo ?? d.extraInfo,
  };
}

export interface Ticket {
  id: number;
  uuid: string;
  companyId: number;
  contactId: number;
  connectionId: number;
  status: TicketStatus;
  userId: number | null;
  queueId: number | null;
  unreadMessages: number;
  lastMessage: string;
  isGroup: boolean;
  /** Set once the greeting went out, so duplicates of the first message never greet twice. */
  greetedAt: Date | null;
  closedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
  /** The menu node whose options the contact is answering (null: the queue's first menu, or the queue menu). */
  queueOptionId: number | null;
  /** Invalid replies to the current menu so far (see `QueueRouter`). */
  botAttempts: number;
  /** The bot is waiting for the contact's reply; false once it handed over (or never started). */
  botActive: boolean;
}

/** The routing engine's state on a ticket; a new ticket may leave it out (see `withTicketDefaults`). */
export type TicketBotState = Pick<Ticket, 'queueOptionId' | 'botAttempts' | 'botActive'>;

/** A ticket to create: everything but the id, the bot state optional. */
export type NewTicket = Omit<Ticket, 'id' | keyof TicketBotState> & Partial<TicketBotState>;

/** No menu node, no attempts, no bot waiting. */
export function withTicketDefaults(ticket: NewTicket): Omit<Ticket, 'id'> {
  return { ...ticket, queueOptionId: ticket.queueOptionId ?? null, botAttempts: ticket.botAttempts ?? 0, botActive: ticket.botActive ?? false };
}

/** Delivery moves only forward along this order; `failed` is terminal and carries a reason. */
export const DELIVERY_ORDER = ['pending', 'sent', 'delivered', 'read', 'played'] as const;
export type DeliveryStatus = (typeof DELIVERY_ORDER)[number] | 'failed';

/** The status after `next` arrives: never backwards, whatever order the provider reports in. */
export function advanceDelivery(current: DeliveryStatus, next: DeliveryStatus): DeliveryStatus {
  if (current === 'failed') return current;
  if (next === 'failed') return current === 'pending' ? 'failed' : current;
  return DELIVERY_ORDER.indexOf(next) > DELIVERY_ORDER.indexOf(current) ? next : current;
}

export interface MessageMedia {
  readonly key: string;
  readonly url: string;
  readonly contentType: string;
  readonly filename: string;
  readonly size: number;
}

export interface Message {
  /** Our id (uuid): the idempotency key of the send and of every broker message about it. */
  id: string;
  companyId: number;
  ticketId: number;
  contactId: number;
  connectionId: number;
  /** The provider's id, unique per connection: inbound duplicates collide on it. */
  providerMessageId: string | null;
  fromMe: boolean;
  body: string;
  media: MessageMedia | null;
  status: DeliveryStatus;
  failureReason: string | null;
  quotedMessageId: string | null;
  isPrivate: boolean;
  userId: number | null;
  createdAt: Date;
  updatedAt: Date;
  /** Revoked by an operator: kept (operators still see it) but gone for the contact. */
  isDeleted: boolean;
  /** The body was changed after sending; `editedAt` says when. */
  isEdited: boolean;
  editedAt: Date | null;
}

/** Digits only, 8 to 15 of them (E.164 without the plus). */
export function isValidNumber(number: string): boolean {
  return /^\d{8,15}$/.test(number);
}
