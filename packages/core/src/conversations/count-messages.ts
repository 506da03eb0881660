import type { Users } from '../identity/ports.js';
import type { Queues } from '../queues/ports.js';
import type { Settings } from '../settings/ports.js';
import { companyTimeZone } from '../settings/company-time-zone.js';
import type { Actor } from '../shared/actor.js';
import { ValidationError } from '../shared/errors.js';
import { figureScope } from '../dashboards/dashboard-scope.js';
import { addDays, dayStartIn, parseDay } from '../dashboards/days.js';
import type { Messages } from '../messages/ports.js';

export interface CountMessagesInput {
  readonly actor: Actor;
  /** Ours (true) or the contacts' (false); absent: both. */
  readonly fromMe?: boolean;
  /** Days (`YYYY-MM-DD`) on the company's clock, both included; either may be left open. */
  readonly dateStart?: string;
  readonly dateEnd?: string;
}

/** The lineage's answer, a query's rows as its dashboard reads them (`count[0].count`). */
export interface MessageCount {
  readonly count: [{ readonly count: number }];
}

/** A day as sent (an ISO date-time is cut to its date; empty is absent), or 422 `ERR_INVALID_DATE`. */
function dayOf(text: string | undefined): string | undefined {
  if (text === undefined || text.trim() === '') return undefined;
  const day = parseDay(text.trim().slice(0, 10));
  if (!day) throw new ValidationError('ERR_INVALID_DATE');
  return day;
}

/**
 * `GET /messages-allMe`, the dashboard's message counters: the company's messages sent or received,
 * in a range of days in the company's time zone or all along. Scoped as the dashboards are: admins
 * and operators shown the dashboard count the whole company; any other operator the messages of
 * the tickets assigned to them.
 */
export class CountMessages {
  constructor(private readonly deps: { messages: Messages; users: Users; queues: Queues; settings: Settings }) {}

  async execute(input: CountMessagesInput): Promise<MessageCount> {
    const { companyId } = input.actor;
    const scope = await figureScope(this.deps, input.actor, {});
    const start = dayOf(input.dateStart);
    const end = dayOf(input.dateEnd);
    if (start && end && start > end) throw new ValidationError('ERR_INVALID_DATE_RANGE');
    const zone = start || end ? await companyTimeZone(this.deps.settings, companyId) : null;
    const count = await this.deps.messages.count({
      companyId,
      ...(input.fromMe !== undefined ? { fromMe: input.fromMe } : {}),
      ...(start ? { from: dayStartIn(start, zone!) } : {}),
      ...(end ? { to: dayStartIn(addDays(end, 1), zone!) } : {}),
      ...(scope.ownOnly ? { ticketUserId: input.actor.userId } : {}),
    });
    return { count: [{ count }] };
  }
}
