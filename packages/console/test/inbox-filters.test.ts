import { expect } from 'chai';
import { FILTERS_KEY, isInboxPath, NO_FILTERS, requestSearch, savedFilters, searchRequested, seesAllTickets } from '../src/screens/inbox-filters.js';

/** The browser tab's sessionStorage, in memory. */
class MemoryStorage {
  private readonly items = new Map<string, string>();
  getItem(key: string) {
    return this.items.get(key) ?? null;
  }
  setItem(key: string, value: string) {
    this.items.set(key, String(value));
  }
  removeItem(key: string) {
    this.items.delete(key);
  }
}

describe("console: the inbox's filters", () => {
  const globals = globalThis as { sessionStorage?: unknown };
  let before: unknown;
  beforeEach(() => {
    before = globals.sessionStorage;
    globals.sessionStorage = new MemoryStorage();
  });
  afterEach(() => {
    globals.sessionStorage = before;
  });

  it('reads back what the user chose, per user, and nothing for another user', () => {
    const chosen = { status: 'pending', searchParam: 'ana', queueId: 2, tagId: 7, userId: 5, chatappId: 3, onlyMine: false };
    sessionStorage.setItem(FILTERS_KEY(1), JSON.stringify(chosen));
    expect(savedFilters(1)).to.deep.equal(chosen);
    expect(savedFilters(2)).to.deep.equal(NO_FILTERS);
  });

  it('drops what it cannot use: an unknown tab, ids that are not positive integers, text that is not JSON', () => {
    sessionStorage.setItem(FILTERS_KEY(1), JSON.stringify({ status: 'archived', queueId: -1, tagId: '7', userId: 1.5, chatappId: 0, onlyMine: 'yes' }));
    expect(savedFilters(1)).to.deep.equal(NO_FILTERS);
    sessionStorage.setItem(FILTERS_KEY(1), '{not json');
    expect(savedFilters(1)).to.deep.equal(NO_FILTERS);
  });

  it('a search asked for from another screen opens the search tab, keeping the other filters, and is answered once', () => {
    sessionStorage.setItem(FILTERS_KEY(1), JSON.stringify({ ...NO_FILTERS, tagId: 7 }));
    requestSearch(1);
    expect(savedFilters(1)).to.deep.include({ status: 'search', tagId: 7 });
    expect(searchRequested()).to.equal(true);
    expect(searchRequested()).to.equal(false);
  });

  it('offers every ticket (and the person filter) to admins, super users and allTicket users only', () => {
    expect(seesAllTickets({ profile: 'admin' })).to.equal(true);
    expect(seesAllTickets({ profile: 'user', super: true })).to.equal(true);
    expect(seesAllTickets({ profile: 'user', allTicket: 'enable' })).to.equal(true);
    expect(seesAllTickets({ profile: 'user', allTicket: 'disable' })).to.equal(false);
    expect(seesAllTickets(undefined)).to.equal(false);
  });

  it("knows the inbox's paths, with or without the console's base", () => {
    expect(['/app/tickets', '/app/tickets/12', '/tickets', '/tickets/'].map(isInboxPath)).to.deep.equal([true, true, true, true]);
    expect(['/app/connections', '/app/ticketsx', '/app/tags/tickets'].map(isInboxPath)).to.deep.equal([false, false, false]);
  });
});
