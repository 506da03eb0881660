import type { Contacts } from '../contacts/ports.js';
import type { Message } from '../messages/message.js';
import type { MessageContact, MessageContext, MessageContexts, MessageTicketRef } from '../messages/message-view.js';
import type { Messages } from '../messages/ports.js';
import type { Queues } from '../queues/ports.js';
import type { Tickets } from '../tickets/ports.js';

/**
 * Reads what message views embed: each message's ticket (with its queue), the conversation's
 * contact and the quoted message, each distinct one once.
 */
export function messageContexts(deps: { tickets: Pick<Tickets, 'findById'>; contacts: Pick<Contacts, 'findByIds'>; queues: Pick<Queues, 'findByIds'>; messages: Pick<Messages, 'findById'> }): MessageContexts {
  return async (companyId, messages, known) => {
    const ticketOf = new Map<number, MessageTicketRef>(known ? [[known.ticket.id, { ...known.ticket }]] : []);
    for (const id of new Set(messages.map((m) => m.ticketId))) {
      if (ticketOf.has(id)) continue;
      const t = await deps.tickets.findById(companyId, id);
      if (t) ticketOf.set(id, { id: t.id, uuid: t.uuid, status: t.status, userId: t.userId, queueId: t.queueId, chatappId: t.connectionId, queue: null });
    }
    const read = [...ticketOf.values()].filter((t) => t.id !== known?.ticket.id);
    const queueIds = [...new Set(read.flatMap((t) => (t.queueId === null ? [] : [t.queueId])))];
    const queueOf = new Map((queueIds.length ? await deps.queues.findByIds(companyId, queueIds) : []).map((q) => [q.id, { id: q.id, name: q.name, color: q.color }] as const));
    for (const t of read) t.queue = t.queueId === null ? null : queueOf.get(t.queueId) ?? null;
    const contactOf = new Map<number, MessageContact>(known?.contact ? [[known.contactId, known.contact]] : []);
    const contactIds = [...new Set(messages.map((m) => m.contactId))].filter((id) => !contactOf.has(id));
    if (contactIds.length) {
      for (const c of await deps.contacts.findByIds(companyId, contactIds)) contactOf.set(c.id, { id: c.id, name: c.name, number: c.number, urlPicture: c.profilePicUrl });
    }
    const quotedOf = new Map<string, Message>();
    for (const id of new Set(messages.flatMap((m) => (m.quotedMessageId ? [m.quotedMessageId] : [])))) {
      const q = await deps.messages.findById(companyId, id);
      if (q) quotedOf.set(id, q);
    }
    return messages.map((m): MessageContext => ({
      ticket: ticketOf.get(m.ticketId) ?? null,
      contact: contactOf.get(m.contactId) ?? null,
      quoted: m.quotedMessageId ? quotedOf.get(m.quotedMessageId) ?? null : null,
    }));
  };
}
