import type { Users } from '../identity/ports.js';
import type { Actor } from '../shared/actor.js';
import type { TicketLogs, Tickets } from './ports.js';
import { visibleTicket, visibleTicketByUuid } from './ticket-access.js';
import type { TicketDetails, TicketPresenter } from './ticket-details.js';
import type { TicketLogType } from './ticket-log.js';

/** One ticket with its contact, connection and operator. */
export class ShowTicket {
  constructor(private readonly deps: { tickets: Tickets; users: Users; presenter: TicketPresenter }) {}

  async execute(input: { readonly actor: Actor; readonly ticketId: number }): Promise<TicketDetails> {
    return this.deps.presenter.one(await visibleTicket(this.deps, input.actor, input.ticketId));
  }
}

/** One ticket by its public uuid (links shared between operators). */
export class ShowTicketByUuid {
  constructor(private readonly deps: { tickets: Tickets; users: Users; presenter: TicketPresenter }) {}

  async execute(input: { readonly actor: Actor; readonly uuid: string }): Promise<TicketDetails> {
    return this.deps.presenter.one(await visibleTicketByUuid(this.deps, input.actor, input.uuid));
  }
}

/**
 * The history's entry types under the lineage client's names: an acceptance is `open`, a transfer
 * `transfered`, a close `closed`; the others keep ours.
 */
export type TicketLogViewType = Exclude<TicketLogType, 'accept' | 'transfer' | 'close'> | 'open' | 'transfered' | 'closed';

const WIRE_TYPE: Record<TicketLogType, TicketLogViewType> = {
  create: 'create',
  accept: 'open',
  transfer: 'transfered',
  pending: 'pending',
  close: 'closed',
  reopen: 'reopen',
  ignore: 'ignore',
  lgpd: 'lgpd',
  delete: 'delete',
};

export interface TicketLogView {
  readonly id: number;
  readonly ticketId: number;
  readonly type: TicketLogViewType;
  readonly payload: Record<string, unknown>;
  readonly userId: number | null;
  readonly user: { id: number; name: string } | null;
  readonly createdAt: string;
}

/** A ticket's history, oldest first, with the name of whoever made each change. */
export class ListTicketLogs {
  constructor(private readonly deps: { tickets: Tickets; users: Users; ticketLogs: TicketLogs }) {}

  async execute(input: { readonly actor: Actor; readonly ticketId: number }): Promise<TicketLogView[]> {
    const ticket = await visibleTicket(this.deps, input.actor, input.ticketId);
    const logs = await this.deps.ticketLogs.listByTicket(ticket.companyId, ticket.id);
    const names = new Map<number, string | null>();
    for (const id of new Set(logs.flatMap((l) => (l.userId === null ? [] : [l.userId])))) {
      names.set(id, (await this.deps.users.findById(ticket.companyId, id))?.name ?? null);
    }
    return logs.map((l) => {
      const name = l.userId === null ? null : (names.get(l.userId) ?? null);
      return {
        id: l.id,
        ticketId: l.ticketId,
        type: WIRE_TYPE[l.type],
        payload: l.payload,
        userId: l.userId,
        user: l.userId !== null && name !== null ? { id: l.userId, name } : null,
        createdAt: l.createdAt.toISOString(),
      };
    });
  }
}
