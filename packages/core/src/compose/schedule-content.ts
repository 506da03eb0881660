import type { Connection } from '../connections/connection.js';
import type { Contact } from '../contacts/contact.js';
import type { Users } from '../identity/ports.js';
import type { Queues } from '../queues/ports.js';
import { renderMessage } from '../schedules/message-variables.js';
import type { ScheduleSend } from '../schedules/ports.js';
import type { ScheduleMediaStore } from '../schedules/schedule-media.js';
import type { Companies } from '../tenancy/ports.js';
import type { Ticket } from '../tickets/ticket.js';

/**
 * What a schedule's message carries: its text with the `{{…}}` variables filled in (on the
 * company's clock) and, when signed, `*<name>:*` on its first line; its attachment by public URL.
 */
export class ScheduleContent {
  constructor(
    private readonly deps: {
      users: Users;
      queues: Queues;
      companies: Companies;
      media: ScheduleMediaStore;
      timeZone: (companyId: number) => Promise<string>;
    },
  ) {}

  async of(s: ScheduleSend, on: { contact: Contact; ticket: Ticket; connection: Connection }, now: Date) {
    const { users, queues, companies, media } = this.deps;
    const { contact, ticket, connection } = on;
    const user = s.userId !== null ? await users.findById(s.companyId, s.userId) : null;
    const queue = ticket.queueId !== null ? await queues.findById(s.companyId, ticket.queueId) : null;
    const text = renderMessage(s.body, {
      contactName: contact.name,
      userName: user?.name ?? '',
      ticketId: ticket.id,
      queueName: queue?.name ?? '',
      connectionName: connection.name,
      companyName: (await companies.findById(s.companyId))?.name ?? '',
      at: now,
      timeZone: await this.deps.timeZone(s.companyId),
    });
    const body = s.sign && user ? `*${user.name}:*\n${text}` : text;
    return { body, media: s.media ? media.outgoing(s.media) : null };
  }
}
