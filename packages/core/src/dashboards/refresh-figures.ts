import { assertAdmin, type Actor } from '../shared/actor.js';
import { TooManyRequestsError } from '../shared/errors.js';
import type { Cache, Clock, Transaction } from '../shared/ports.js';
import type { Settings } from '../settings/ports.js';
import type { DashboardCache } from './dashboard-cache.js';
import { companyTimeZone } from '../settings/company-time-zone.js';
import { figuresOf } from './day-figures.js';
import { addDays, dayCount, dayStartIn, eachDay, localDay } from './days.js';
import type { DashboardFigures, TicketCycles } from './ports.js';

/** Cycles read at once while computing: a month of days. */
const CHUNK_DAYS = 31;
/**
 * A change committed just before a refresh may carry an earlier `updatedAt` than the refresh's
 * moment (its transaction was still open): the next refresh reads again from this much earlier.
 */
const WATERMARK_MARGIN_MS = 60_000;
/** Figures are rebuilt from scratch at least this often (a deleted ticket then leaves them). */
export const REBUILD_EVERY_MS = 24 * 3600_000;
/** An admin's refresh at most this often per company. */
const MANUAL_REFRESH_SECONDS = 30;

export interface RefreshOutcome {
  readonly refreshedAt: Date;
  /** Days whose figures were computed again. */
  readonly days: number;
  readonly rebuilt: boolean;
}

/** Consecutive days in runs of at most `max`. */
function runs(days: readonly string[], max: number): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (const day of days) {
    const last = out[out.length - 1];
    if (last && addDays(last[1], 1) === day && dayCount(last[0], day) <= max) last[1] = day;
    else out.push([day, day]);
  }
  return out;
}

interface Deps {
  cycles: TicketCycles;
  figures: DashboardFigures;
  settings: Settings;
  tx: Transaction;
  clock: Clock;
  answers: DashboardCache;
}

/**
 * Brings a company's pre-aggregated figures up to date: the days whose cycles changed since the
 * last refresh are computed again from the cycles, in the company's zone. Everything is rebuilt
 * when asked, on the first refresh, when the zone changed, and once a day. One refresh of a
 * company at a time (its state row is locked); the cached answers are dropped after a change.
 */
export class RefreshFigures {
  constructor(private readonly deps: Deps) {}

  async execute(companyId: number, options: { readonly rebuild?: boolean } = {}): Promise<RefreshOutcome> {
    const { cycles, figures, tx, clock } = this.deps;
    const zone = await companyTimeZone(this.deps.settings, companyId);
    const outcome = await tx.run(async () => {
      const state = await figures.lockState(companyId);
      const now = clock.now();
      const rebuilt = Boolean(options.rebuild) || !state || state.timeZone !== zone || now.getTime() - state.rebuiltAt.getTime() >= REBUILD_EVERY_MS;
      let days: string[];
      if (rebuilt) {
        await figures.clear(companyId);
        const first = await cycles.firstStart(companyId);
        days = first ? eachDay(localDay(first, zone), localDay(now, zone)) : [];
      } else {
        const starts = await cycles.startsChangedSince(companyId, state.watermark);
        days = [...new Set(starts.map((at) => localDay(at, zone)))].sort();
      }
      for (const [fromDay, toDay] of runs(days, CHUNK_DAYS)) {
        const started = await cycles.startedBetween(companyId, dayStartIn(fromDay, zone), dayStartIn(addDays(toDay, 1), zone));
        await figures.replace(companyId, fromDay, toDay, figuresOf(companyId, started, zone));
      }
      await figures.saveState({
        companyId,
        timeZone: zone,
        watermark: new Date(now.getTime() - WATERMARK_MARGIN_MS),
        refreshedAt: now,
        rebuiltAt: rebuilt ? now : state!.rebuiltAt,
      });
      return { refreshedAt: now, days: days.length, rebuilt };
    });
    if (outcome.days > 0 || outcome.rebuilt) await this.deps.answers.clear(companyId).catch(() => undefined);
    return outcome;
  }
}

/**
 * `POST /dashboard/refresh-views`: an admin rebuilds the company's figures now (at most every 30
 * seconds; the job keeps them fresh anyway).
 */
export class RefreshDashboard {
  constructor(private readonly deps: { refresh: RefreshFigures; cache: Cache }) {}

  async execute(actor: Actor): Promise<{ refreshedAt: Date; days: number }> {
    assertAdmin(actor);
    const lock = `dash:${actor.companyId}:manual-refresh`;
    if (!(await this.deps.cache.setIfAbsent(lock, '1', MANUAL_REFRESH_SECONDS))) {
      throw new TooManyRequestsError('ERR_DASHBOARD_REFRESH_TOO_SOON', (await this.deps.cache.ttl(lock)) ?? MANUAL_REFRESH_SECONDS);
    }
    const { refreshedAt, days } = await this.deps.refresh.execute(actor.companyId, { rebuild: true });
    return { refreshedAt, days };
  }
}

/** `POST /dashboard/clear-cache`: an admin drops the company's cached dashboard answers. */
export class ClearDashboardCache {
  constructor(private readonly deps: { answers: DashboardCache }) {}

  async execute(actor: Actor): Promise<{ cleared: true }> {
    assertAdmin(actor);
    await this.deps.answers.clear(actor.companyId);
    return { cleared: true };
  }
}

/**
 * The recurring job's work: every company whose cycles changed since its last refresh (or due for
 * its daily rebuild), each in its own transaction, a batch per run. A company that fails does not
 * stop the others; the first failure is thrown at the end so the runner reports it.
 */
export class RefreshStaleFigures {
  constructor(private readonly deps: { figures: DashboardFigures; refresh: RefreshFigures; clock: Clock }) {}

  async execute(limit = 100): Promise<{ companies: number }> {
    const companies = await this.deps.figures.staleCompanies(limit, new Date(this.deps.clock.now().getTime() - REBUILD_EVERY_MS));
    let failure: unknown;
    for (const companyId of companies) {
      try {
        await this.deps.refresh.execute(companyId);
      } catch (err) {
        failure ??= err;
      }
    }
    if (failure) throw failure;
    return { companies: companies.length };
  }
}
