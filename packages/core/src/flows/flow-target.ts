import type { Connection } from '../connections/connection.js';
import type { Connections } from '../connections/ports.js';
import type { Contact } from '../contacts/contact.js';
import type { Contacts } from '../contacts/ports.js';
import type { Message } from '../messages/message.js';
import type { Messages } from '../messages/ports.js';
import type { Tickets } from '../tickets/ports.js';
import type { Ticket } from '../tickets/ticket.js';
import type { FlowRun } from './flow-runs.js';

/** Where a run talks: the ticket is changed in place, and saved by whoever opened the transaction. */
export interface FlowTarget {
  readonly connection: Connection;
  readonly contact: Contact;
  readonly ticket: Ticket;
  /** The inbound message being routed (an integration hand-over carries it). */
  readonly message?: Message;
}

/** A run talks only to a waiting ticket nobody took: an operator taking, transferring or closing it cancels the run. */
export const runMayTalk = (t: Pick<Ticket, 'status' | 'userId'>) => t.status === 'pending' && t.userId === null;

/** Where a stored run talks, read again when a job feeds it: its ticket, contact, connection and last inbound message. */
export class FlowTargets {
  constructor(
    private readonly deps: {
      readonly tickets: Pick<Tickets, 'findById'>;
      readonly contacts: Pick<Contacts, 'findById'>;
      readonly connections: Pick<Connections, 'findById'>;
      readonly messages: Pick<Messages, 'findById'>;
    },
  ) {}

  /** Null when the ticket, its contact or connection is gone, or the ticket was taken: the run may no longer talk. */
  async of(run: FlowRun): Promise<FlowTarget | null> {
    const { tickets, contacts, connections, messages } = this.deps;
    const ticket = await tickets.findById(run.companyId, run.ticketId);
    const contact = ticket && (await contacts.findById(run.companyId, ticket.contactId));
    const connection = ticket && (await connections.findById(run.companyId, ticket.connectionId));
    if (!ticket || !contact || !connection || !runMayTalk(ticket)) return null;
    const message = run.lastMessageId ? await messages.findById(run.companyId, run.lastMessageId) : null;
    return { connection, contact, ticket, ...(message ? { message } : {}) };
  }
}
