import { z } from 'zod';

const minutes = (what: string) => z.number().meta({ description: `Mean ${what}, in minutes with two decimals (0 when none was measured)` });
const count = (what: string) => z.number().int().meta({ description: what });
const percent = (what: string) => z.number().meta({ description: `${what}, in percent with two decimals` });

const period = z
  .object({
    dateFrom: z.string().meta({ description: "First day (`YYYY-MM-DD`, on the company's clock)", example: '2026-03-01' }),
    dateTo: z.string().meta({ description: 'Last day, included', example: '2026-03-31' }),
    timeZone: z.string().meta({ description: "The company's time zone (setting `timezone`) the days are cut in", example: 'America/Sao_Paulo' }),
  })
  .meta({ id: 'DashboardPeriod', description: 'The days a figure covers' });

const refreshedAt = z.string().nullable().meta({ description: 'When the pre-aggregated figures were last brought up to date; null before the first refresh' });

export const dashboardCounters = z
  .object({
    tickets: count('Tickets (attendance cycles: a ticket created or reopened) started in the period'),
    avgSupportTime: minutes('handling time, from the first acceptance to the close'),
    avgWaitTime: minutes('wait of the contact, from the start to an operator taking the ticket'),
    avgFirstResponseTime: minutes('first response time, from the start to the first operator message'),
    avgResolutionTime: minutes('resolution time, from the start to the close'),
    supportFinished: count('Tickets of the period closed since'),
    supportHappening: count('Tickets of the period open now with an operator'),
    supportPending: count('Tickets of the period waiting now for an operator'),
    supportGroups: count('Group conversations among them'),
    leads: count('Contacts whose first conversation it was'),
    activeTickets: count('Started by us (an operator or a send opened them)'),
    passiveTickets: count('Started by the contact'),
    reopened: count('Closed tickets that came back'),
    transfers: count('Moves to another operator or queue'),
    unattendedClosed: count('Closed without an operator taking or answering them'),
    waitRating: count('Ratings asked and not yet given: always 0 here (a rating is given when the ticket closes)'),
    withoutRating: count('Closed without a rating'),
    withRating: count('Closed with a rating'),
    percRating: percent('Rated among the closed'),
    avgRating: z.number().meta({ description: 'Mean rating (1 to 5), two decimals' }),
    npsPromotersPerc: percent('Ratings of 5 among the rated'),
    npsPassivePerc: percent('Ratings of 4 among the rated'),
    npsDetractorsPerc: percent('Ratings of 1 to 3 among the rated'),
    npsScore: z.number().meta({ description: 'Promoters minus detractors, in points with two decimals' }),
  })
  .meta({ id: 'DashboardCounters', description: "The lineage dashboard's counters, with decimals and first response time" });

export const attendantSchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    online: z.boolean(),
    tickets: count('Tickets of the period they hold (or held when it closed)'),
    closed: count('Of those, closed'),
    avgWaitTime: minutes('wait of their tickets'),
    avgSupportTime: minutes('handling time'),
    avgFirstResponseTime: minutes('first response time of their tickets'),
    rating: z.number().meta({ description: 'Mean rating, two decimals (0 without ratings)' }),
    countRating: count('Ratings received'),
  })
  .meta({ id: 'DashboardAttendant', description: "One operator's figures" });

export const dashboardSchema = z
  .object({
    counters: dashboardCounters,
    attendants: z.array(attendantSchema).meta({ description: 'Every operator of the scope, the most tickets first' }),
    period,
    refreshedAt,
  })
  .meta({ id: 'Dashboard', description: 'The dashboard of a period' });

export const ticketsByUserSchema = z
  .object({
    data: z.array(
      z.object({
        userId: z.number().int(),
        nome: z.string().meta({ description: "The operator's name" }),
        quantidade: count('Tickets of the range they hold'),
      }),
    ),
  })
  .meta({ id: 'DashboardTicketsByUser', description: 'Tickets per operator, every operator listed, the most first' });

export const ticketsByDaySchema = z
  .object({
    count: count('Tickets of the range'),
    data: z
      .array(
        z.union([
          z.object({ horario: z.string().meta({ description: 'Hour of the day, `00` to `23`', example: '09' }), total: z.number().int() }),
          z.object({
            data: z.string().meta({ description: 'The day as `dd/mm/YYYY`', example: '01/03/2026' }),
            day: z.string().meta({ example: '2026-03-01' }),
            total: z.number().int(),
          }),
        ]),
      )
      .meta({ description: 'Per hour when the range is one day, else per day, every day in calendar order' }),
  })
  .meta({ id: 'DashboardTicketsByDay', description: 'Tickets started per day (or hour)' });

const metrics = z
  .object({
    tickets: z.number().int(),
    inbound: z.number().int(),
    outbound: z.number().int(),
    closed: z.number().int(),
    reopened: z.number().int(),
    transfers: z.number().int(),
    unattendedClosed: z.number().int(),
    leads: z.number().int(),
    groups: z.number().int(),
    resolutionRate: percent('Closed among the started'),
    avgWaitTime: minutes('wait'),
    avgFirstResponseTime: minutes('first response time'),
    avgSupportTime: minutes('handling time'),
    avgResolutionTime: minutes('resolution time'),
    ratings: z.object({
      count: z.number().int(),
      average: z.number(),
      promoters: z.number().int(),
      passives: z.number().int(),
      detractors: z.number().int(),
      nps: z.number().meta({ description: 'Promoters minus detractors, in points' }),
    }),
  })
  .meta({ id: 'DashboardMetrics', description: 'The figures of a range or of one bucket' });

export const extendedMetricsSchema = z
  .object({
    period,
    granularity: z.enum(['day', 'week', 'month']),
    totals: metrics,
    series: z.array(
      metrics.extend({ period: z.string().meta({ description: 'The bucket: the day, the Monday of the ISO week, or the first day of the month' }) }),
    ),
    refreshedAt,
  })
  .meta({ id: 'DashboardExtendedMetrics', description: 'Detailed figures of a range, in all and per bucket' });

export const topContactsSchema = z
  .array(
    z.object({
      contactId: z.number().int(),
      name: z.string(),
      number: z.string(),
      tickets: count('Tickets started in the range'),
      lastInteractionAt: z.string().meta({ description: 'When the latest of them started' }),
    }),
  )
  .meta({ id: 'DashboardTopContacts', description: 'The contacts with the most tickets, most first' });

export const clearCacheSchema = z.object({ cleared: z.literal(true) }).meta({ id: 'DashboardCacheCleared' });

export const refreshViewsSchema = z
  .object({
    refreshedAt: z.string().meta({ description: 'When the refresh ran' }),
    days: count('Days whose figures were computed'),
  })
  .meta({ id: 'DashboardRefresh', description: "The company's figures, rebuilt" });

export const contactsReportSchema = z
  .object({
    contacts: z.array(
      z.object({
        id: z.number().int(),
        name: z.string(),
        number: z.string(),
        email: z.string().meta({ description: 'Empty when none' }),
        createdAt: z.string(),
      }),
    ),
    count: count('Contacts the filters select in all'),
    hasMore: z.boolean().meta({ description: 'A next page exists (pages of 20)' }),
  })
  .meta({ id: 'ContactsReport', description: 'A page of the contacts report, oldest first' });
