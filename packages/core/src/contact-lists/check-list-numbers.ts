import type { ChannelQueries } from '../connections/check-number.js';
import type { Connection } from '../connections/connection.js';
import type { Connections } from '../connections/ports.js';
import type { RealtimeEvents } from '../realtime/ports.js';
import { DomainError } from '../shared/errors.js';
import type { Clock, Transaction } from '../shared/ports.js';
import type { ContactListEvent, ContactListItemEvent } from './contact-list-events.js';
import { toItemView, type ContactListPresenter } from './contact-list-view.js';
import type { ContactListItem } from './contact-list.js';
import type { ContactListItems, ContactLists, NumberCheckOutcome } from './ports.js';

/** The recurring job that checks the numbers of the lists. */
export const CHECK_NUMBERS_JOB = 'contact-lists.check-numbers';

/**
 * How fast numbers are checked: a burst of lookups is itself a ban signal, so each run checks at
 * most `perCompany` numbers of each of at most `companies` companies, and a check that could not
 * run (`error`) is tried again only `retryErrorsAfterMs` later.
 */
export interface CheckPace {
  readonly perCompany: number;
  readonly companies: number;
  readonly retryErrorsAfterMs: number;
}

export const DEFAULT_CHECK_PACE: CheckPace = { perCompany: 20, companies: 10, retryErrorsAfterMs: 30 * 60_000 };

/** The connection that answers for a company: its default chat-application connection when connected, else the first connected one. */
function checkingConnection(connections: readonly Connection[]): Connection | null {
  const live = connections.filter((c) => c.kind === 'chatapp' && c.status === 'CONNECTED');
  return live.find((c) => c.isDefault) ?? live[0] ?? null;
}

/** The user part of a provider id (`5511988887777@s.whatsapp.net`, `…:12@…`), when it is a phone number. */
function providerNumber(id: string | null): string | null {
  const user = id?.split('@')[0]?.split(':')[0] ?? '';
  return /^\d{8,15}$/.test(user) ? user : null;
}

/**
 * One pass of the number check: for each company with unchecked items (or items whose check
 * failed a while ago), asks its connection about a few numbers. Found: `valid`, keeping the
 * provider's form of the number when it differs (the ninth digit); not found: `invalid`; a check
 * that could not run (no connected session, a timeout…): `error` with its code, for this item and
 * the rest of the company's batch, never `invalid`. Each company's outcomes are written in one
 * transaction, then published: a `ContactListItem` `reload` per list with the items written, and
 * the list's `update` with its new counts.
 */
export class CheckListNumbers {
  constructor(
    private readonly deps: {
      lists: ContactLists;
      items: ContactListItems;
      connections: Connections;
      queries: ChannelQueries;
      presenter: ContactListPresenter;
      tx: Transaction;
      clock: Clock;
      realtime: RealtimeEvents<ContactListEvent | ContactListItemEvent>;
    },
  ) {}

  /** Answers how many numbers it looked at. */
  async execute(pace: CheckPace = DEFAULT_CHECK_PACE): Promise<number> {
    const errorBefore = new Date(this.deps.clock.now().getTime() - pace.retryErrorsAfterMs);
    let looked = 0;
    for (const companyId of await this.deps.items.companiesToCheck(errorBefore, pace.companies)) {
      looked += await this.checkCompany(companyId, errorBefore, pace.perCompany);
    }
    return looked;
  }

  private async checkCompany(companyId: number, errorBefore: Date, limit: number): Promise<number> {
    const { items, connections, queries, tx, clock } = this.deps;
    const batch = await items.toCheck(companyId, errorBefore, limit);
    if (!batch.length) return 0;
    const connection = checkingConnection(await connections.list(companyId));
    let cannotRun: string | null = connection ? null : 'ERR_SESSION_NOT_CONNECTED';
    const outcomes: NumberCheckOutcome[] = [];
    for (const item of batch) {
      const base = { id: item.id, checked: item.number, number: item.number };
      if (cannotRun) {
        outcomes.push({ ...base, validity: 'error', validationError: cannotRun });
        continue;
      }
      try {
        const answer = await queries.checkNumber(connection!, item.number);
        outcomes.push(
          answer.exists
            ? { ...base, validity: 'valid', number: providerNumber(answer.id) ?? item.number, validationError: null }
            : { ...base, validity: 'invalid', validationError: null },
        );
      } catch (err) {
        // The session cannot answer now: the rest of the batch would fail the same way.
        cannotRun = err instanceof DomainError ? err.code : 'ERR_NUMBER_CHECK_FAILED';
        outcomes.push({ ...base, validity: 'error', validationError: cannotRun });
      }
    }
    const saved = await tx.run(() => items.saveChecks(companyId, outcomes, clock.now()));
    await this.announce(companyId, saved);
    return batch.length;
  }

  private async announce(companyId: number, saved: readonly ContactListItem[]) {
    const { lists, presenter, realtime } = this.deps;
    const byList = new Map<number, ContactListItem[]>();
    for (const item of saved) byList.set(item.contactListId, [...(byList.get(item.contactListId) ?? []), item]);
    for (const [contactListId, changed] of byList) {
      await realtime.publish(companyId, { entity: 'ContactListItem', data: { action: 'reload', contactListId, records: changed.map(toItemView) } });
      const list = await lists.findById(companyId, contactListId);
      if (list) await realtime.publish(companyId, { entity: 'ContactList', data: { action: 'update', record: await presenter.view(companyId, list) } });
    }
  }
}
