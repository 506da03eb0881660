import type { Users } from '../identity/ports.js';
import type { Queues } from '../queues/ports.js';
import type { Clock } from '../shared/ports.js';
import type { Tags } from '../tags/ports.js';
import type { Ticket } from '../tickets/ticket.js';

/** What a run does to its ticket: tags, a transfer to a queue or user, the close. The ticket is changed in place; its caller saves it. */
export class FlowTicketMoves {
  constructor(
    private readonly deps: {
      readonly tags: Pick<Tags, 'findByIds' | 'addTicketTag' | 'removeTicketTags'>;
      readonly queues: Pick<Queues, 'findById'>;
      readonly users: Pick<Users, 'findById'>;
      readonly clock: Clock;
    },
  ) {}

  /** The company's tags among those named are added and removed; others are left out. */
  async setTags(ticket: Ticket, add: readonly number[], remove: readonly number[]): Promise<void> {
    const { tags } = this.deps;
    const known = new Set((await tags.findByIds(ticket.companyId, [...add, ...remove])).map((t) => t.id));
    for (const id of add.filter((i) => known.has(i))) await tags.addTicketTag(ticket.companyId, ticket.id, id);
    const removed = remove.filter((i) => known.has(i));
    if (removed.length) await tags.removeTicketTags(ticket.companyId, ticket.id, removed);
  }

  /** To the company's queue and/or user named (others are left out); the bot goes off. */
  async transfer(ticket: Ticket, queueId: number | null, userId: number | null): Promise<void> {
    const queue = queueId === null ? null : await this.deps.queues.findById(ticket.companyId, queueId);
    const user = userId === null ? null : await this.deps.users.findById(ticket.companyId, userId);
    if (queue) Object.assign(ticket, { queueId: queue.id, queueOptionId: null });
    if (user?.companyId === ticket.companyId) Object.assign(ticket, { status: 'open', userId: user.id });
    ticket.botActive = false;
  }

  close(ticket: Ticket): void {
    Object.assign(ticket, { status: 'closed', closedAt: this.deps.clock.now(), botActive: false });
  }
}
