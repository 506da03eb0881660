import { TicketPresenter } from '../tickets/ticket-details.js';
import type { JobDefinition } from '../jobs/job.js';
import { DashboardCache } from '../dashboards/dashboard-cache.js';
import { ContactsReportPage, ExportContactsReport } from '../dashboards/contacts-report.js';
import { ListMoments, ListUsersMoments } from '../dashboards/moments.js';
import type { ContactsReport, DashboardFigures, TicketCycles } from '../dashboards/ports.js';
import { ClearDashboardCache, RefreshDashboard, RefreshFigures, RefreshStaleFigures } from '../dashboards/refresh-figures.js';
import { ShowDashboard } from '../dashboards/show-dashboard.js';
import { ExtendedMetrics, TicketsByDay, TicketsByUser, TopContacts } from '../dashboards/ticket-charts.js';
import type { SharedPorts } from './shared-ports.js';

/** The recurring job that keeps the figures fresh. */
export const REFRESH_DASHBOARDS_JOB = 'dashboards.refresh';

/** The dashboards' own ports (their tables), and how they cache and refresh. */
export interface DashboardPorts {
  readonly ticketCycles: TicketCycles;
  readonly dashboardFigures: DashboardFigures;
  readonly contactsReport: ContactsReport;
  /** Seconds a dashboard answer is reused (0: never cached). Default 120. */
  readonly dashboardCacheSeconds?: number;
  /** How often the job brings stale companies' figures up to date, in ms. Default 5 minutes. */
  readonly dashboardRefreshEveryMs?: number;
}

/**
 * Dashboards and reports: figures pre-aggregated per day, queue and operator from the attendance
 * cycles (refreshed by a job, or by an admin), answers cached per company, the attendance panel
 * and the contacts report.
 */
export function createDashboards(p: DashboardPorts & SharedPorts) {
  const { users, queues, settings, clock, cache } = p;
  const answers = new DashboardCache({ cache, ttlSeconds: p.dashboardCacheSeconds ?? 120 });
  const reading = { figures: p.dashboardFigures, cycles: p.ticketCycles, users, queues, settings, clock, answers };
  const refresh = new RefreshFigures({ cycles: p.ticketCycles, figures: p.dashboardFigures, settings, tx: p.tx, clock, answers });
  const refreshStale = new RefreshStaleFigures({ figures: p.dashboardFigures, refresh, clock });
  const presenter = new TicketPresenter({ contacts: p.contacts, connections: p.connections, users, realtime: p.realtime, tags: p.tags, queues });
  const moments = new ListMoments({ tickets: p.tickets, users, queues, settings, clock, presenter });
  const report = { report: p.contactsReport, users, tags: p.tags, settings, clock };
  return {
    showDashboard: new ShowDashboard(reading),
    ticketsByUser: new TicketsByUser(reading),
    ticketsByDay: new TicketsByDay(reading),
    extendedMetrics: new ExtendedMetrics(reading),
    topContacts: new TopContacts({ ...reading, contacts: p.contacts }),
    clearCache: new ClearDashboardCache({ answers }),
    refreshDashboard: new RefreshDashboard({ refresh, cache }),
    /** One company's figures brought up to date (`rebuild`: from scratch). */
    refreshFigures: refresh,
    refreshStaleFigures: refreshStale,
    listMoments: moments,
    listUsersMoments: new ListUsersMoments({ moments }),
    contactsReport: new ContactsReportPage(report),
    exportContactsReport: new ExportContactsReport(report),
    /** The stale companies' figures, every few minutes; each company commits on its own. */
    jobs: (): JobDefinition[] => [
      {
        name: REFRESH_DASHBOARDS_JOB,
        every: p.dashboardRefreshEveryMs ?? 5 * 60_000,
        atomic: false,
        leaseMs: 10 * 60_000,
        run: async () => {
          await refreshStale.execute();
        },
      },
    ],
  };
}
export type DashboardsApi = ReturnType<typeof createDashboards>;
