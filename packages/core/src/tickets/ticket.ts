export type TicketStatus = 'pending' | 'open' | 'closed';

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
