import type { Contacts } from '../contacts/ports.js';
import type { Message } from '../messages/message.js';
import type { MessageContact, MessageContext, MessageContexts, MessageTicketRef } from '../messages/message-view.js';
import type { MessageContextReads, Messages } from '../messages/ports.js';
import type { Queues } from '../queues/ports.js';
import type { Tickets } from '../tickets/ports.js';

/** `MessageContextReads` from the repositories: the tickets one by one, then their queues and the contacts. */
export function repositoryContextReads(deps: {
  tickets: Pick<Tickets, 'findById'>;
  contacts: Pick<Contacts, 'findByIds'>;
  queues: Pick<Queues, 'findByIds'>;
}): MessageContextReads {
  return {
    async ticketsAndContacts(companyId, ticketIds, contactIds) {
      const tickets: MessageTicketRef[] = [];
      for (const id of new Set(ticketIds)) {
        const t = await deps.tickets.findById(companyId, id);
        if (t) tickets.push({ id: t.id, uuid: t.uuid, status: t.status, userId: t.userId, queueId: t.queueId, chatappId: t.connectionId, queue: null });
      }
      const queueIds = [...new Set(tickets.flatMap((t) => (t.queueId === null ? [] : [t.queueId])))];
      const queueOf = new Map(
        (queueIds.length ? await deps.queues.findByIds(companyId, queueIds) : []).map((q) => [q.id, { id: q.id, name: q.name, color: q.color }] as const),
      );
      for (const t of tickets) t.queue = t.queueId === null ? null : (queueOf.get(t.queueId) ?? null);
      const ids = [...new Set(contactIds)];
      const contacts = ids.length
        ? (await deps.contacts.findByIds(companyId, ids)).map((c) => ({ id: c.id, name: c.name, number: c.number, urlPicture: c.profilePicUrl }))
        : [];
      return { tickets, contacts };
    },
  };
}

/**
 * Reads what message views embed: each message's ticket (with its queue), the conversation's
 * contact and the quoted message, each distinct one once. `reads` answers tickets and contacts
 * together (a database's single statement); without it the repositories are asked.
 */
export function messageContexts(deps: {
  tickets: Pick<Tickets, 'findById'>;
  contacts: Pick<Contacts, 'findByIds'>;
  queues: Pick<Queues, 'findByIds'>;
  messages: Pick<Messages, 'findById'>;
  reads?: MessageContextReads;
}): MessageContexts {
  const reads = deps.reads ?? repositoryContextReads(deps);
  return async (companyId, messages, known) => {
    const ticketOf = new Map<number, MessageTicketRef>(known ? [[known.ticket.id, { ...known.ticket }]] : []);
    const contactOf = new Map<number, MessageContact>(known?.contact ? [[known.contactId, known.contact]] : []);
    const ticketIds = [...new Set(messages.map((m) => m.ticketId))].filter((id) => !ticketOf.has(id));
    const contactIds = [...new Set(messages.map((m) => m.contactId))].filter((id) => !contactOf.has(id));
    if (ticketIds.length || contactIds.length) {
      const rows = await reads.ticketsAndContacts(companyId, ticketIds, contactIds);
      for (const t of rows.tickets) ticketOf.set(t.id, t);
      for (const c of rows.contacts) contactOf.set(c.id, c);
    }
    const quotedOf = new Map<string, Message>();
    for (const id of new Set(messages.flatMap((m) => (m.quotedMessageId ? [m.quotedMessageId] : [])))) {
      const q = await deps.messages.findById(companyId, id);
      if (q) quotedOf.set(id, q);
    }
    return messages.map(
      (m): MessageContext => ({
        ticket: ticketOf.get(m.ticketId) ?? null,
        contact: contactOf.get(m.contactId) ?? null,
        quoted: m.quotedMessageId ? (quotedOf.get(m.quotedMessageId) ?? null) : null,
      }),
    );
  };
}
