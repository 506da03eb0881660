import { assertSuper, type Actor } from '../shared/actor.js';
import { ValidationError } from '../shared/errors.js';
import { hasMore, pageFromNumber } from '../shared/paging.js';
import type { PlatformActivity, PlatformContact } from './ports.js';
import { cleanDay } from './values.js';

export interface PlatformContactView extends Omit<PlatformContact, 'createdAt'> {
  readonly createdAt: string;
}

const DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?$/i;

/**
 * A range bound from a day (`2026-03-01`: the whole day, in UTC) or a datetime (a missing zone
 * means UTC, so that the answer never depends on the server's time zone).
 */
export function rangeBound(value: string, end: 'from' | 'to'): Date {
  const text = value.trim();
  if (DATETIME.test(text)) {
    cleanDay(text, 'ERR_INVALID_DATE');
    const at = new Date(/(Z|[+-]\d{2}:?\d{2})$/i.test(text) ? text : `${text}Z`);
    if (Number.isNaN(at.getTime())) throw new ValidationError('ERR_INVALID_DATE');
    return at;
  }
  if (text.length !== 10) throw new ValidationError('ERR_INVALID_DATE');
  const day = cleanDay(text, 'ERR_INVALID_DATE');
  return new Date(`${day}T${end === 'from' ? '00:00:00.000' : '23:59:59.999'}Z`);
}

/** Contacts of every company (or one), searchable: the integration API's contact export. */
export class ListPlatformContacts {
  constructor(private readonly deps: { activity: PlatformActivity }) {}

  async execute(input: { actor: Actor; companyId?: number; searchParam?: string; pageNumber?: number }) {
    assertSuper(input.actor);
    const page = pageFromNumber(input.pageNumber);
    const result = await this.deps.activity.listContacts({ companyId: input.companyId, search: input.searchParam, page });
    const contacts: PlatformContactView[] = result.rows.map((c) => ({ ...c, createdAt: c.createdAt.toISOString() }));
    return { contacts, count: result.count, hasMore: hasMore(page, result.count) };
  }
}

export class CountPlatformContacts {
  constructor(private readonly deps: { activity: PlatformActivity }) {}

  async execute(input: { actor: Actor; companyId?: number }): Promise<{ count: number }> {
    assertSuper(input.actor);
    return { count: await this.deps.activity.countContacts(input.companyId) };
  }
}

/** Messages sent or received in a period, for usage reports and billing. */
export class CountMessagesInRange {
  constructor(private readonly deps: { activity: PlatformActivity }) {}

  async execute(input: { actor: Actor; companyId?: number; dateFrom: string; dateTo: string }) {
    assertSuper(input.actor);
    const from = rangeBound(input.dateFrom, 'from');
    const to = rangeBound(input.dateTo, 'to');
    if (from.getTime() > to.getTime()) throw new ValidationError('ERR_INVALID_DATE_RANGE');
    const count = await this.deps.activity.countMessages({ companyId: input.companyId, from, to });
    return { count, dateFrom: from.toISOString(), dateTo: to.toISOString() };
  }
}
