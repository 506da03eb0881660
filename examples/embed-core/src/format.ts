import type { MessageView } from '@servicedesk/core';
import type { EmbedCoreDemoResult } from './embed.js';

/** Who wrote a message, as an operator reads it. */
function author(m: MessageView, operators: ReadonlyMap<number, string>): string {
  if (!m.fromMe) return 'contact';
  return m.userId === null ? 'bot' : (operators.get(m.userId) ?? `user #${m.userId}`);
}

/** The demo's outcome as plain text: the ticket, its contact and the conversation. */
export function formatDemo(r: EmbedCoreDemoResult): string {
  const { ticket } = r;
  const operators = new Map(ticket.user ? [[ticket.user.id, ticket.user.name]] : []);
  const width = Math.max(...r.messages.map((m) => author(m, operators).length));
  return [
    `Company    #${r.company.id} ${r.company.name}`,
    `Connection #${r.connection.id} ${r.connection.name} (${r.connection.status})`,
    `Tickets    ${r.ticketCount}`,
    `Ticket     #${ticket.id} ${ticket.status}, contact ${ticket.contact?.name} (${ticket.contact?.number}), operator ${ticket.user?.name ?? 'none'}`,
    `Messages   ${r.messages.length}, oldest first:`,
    ...r.messages.map((m) => `  ${m.createdAt.slice(11, 19)}  ${author(m, operators).padEnd(width)}  ${m.status.padEnd(9)}  ${m.body}`),
    `Reply      accepted as ${r.accepted.status} with ${r.accepted.outboxSubjects.length} send commands in the outbox`,
    `Relay      ${r.relayed} outbox entries published; the sandbox sent ${r.sandboxSent.length} messages`,
  ].join('\n');
}
