import { Readable } from 'node:stream';
import type { Application } from '@servicedesk/core';
import type { Context } from 'koa';
import { z } from 'zod';
import { route, type RouteError } from '../http/route.js';
import { formBoolean, id } from '../http/schemas.js';
import { ticketDetails } from '../tickets/ticket-schemas.js';
import { listOf } from '../tickets/ticket-routes.js';
import {
  clearCacheSchema,
  contactsReportSchema,
  dashboardSchema,
  extendedMetricsSchema,
  refreshViewsSchema,
  ticketsByDaySchema,
  ticketsByUserSchema,
  topContactsSchema,
} from './dashboard-schemas.js';

type DashboardsApp = Pick<Application, 'dashboards'>;

const TAG = 'Dashboard, statistics, schedules, transcription';
const idList = z.preprocess(listOf, z.array(id).max(100));
const day = z.string().trim().max(40).meta({ description: "`YYYY-MM-DD`, a day on the company's clock" });
const textList = z.preprocess(listOf, z.array(z.string().trim().max(10)).max(100));

/** `queueIds` and `userIds` as the clients send them: JSON (`[1,2]`), commas, repeated, or axios' `queueIds[]`. */
const filters = {
  queueIds: idList.optional().meta({ description: "Only these queues' tickets" }),
  'queueIds[]': idList.optional().meta({ description: 'The same as `queueIds`, as axios writes an array (`queueIds[]=1&queueIds[]=2`); both are joined' }),
  userIds: idList.optional().meta({ description: "Only these operators' tickets" }),
  'userIds[]': idList.optional().meta({ description: 'The same as `userIds`, as axios writes an array (`userIds[]=7&userIds[]=9`); both are joined' }),
};
type Filters = { queueIds?: number[]; 'queueIds[]'?: number[]; userIds?: number[]; 'userIds[]'?: number[] };
const merged = (a?: number[], b?: number[]) => (a || b ? [...(a ?? []), ...(b ?? [])] : undefined);
function filterOf(q: Filters) {
  const queueIds = merged(q.queueIds, q['queueIds[]']);
  const userIds = merged(q.userIds, q['userIds[]']);
  return { ...(queueIds ? { queueIds } : {}), ...(userIds ? { userIds } : {}) };
}

const range = {
  days: z.coerce.number().int().min(1).max(731).optional().meta({ description: 'The last N days, today included (when no date is given)' }),
  date_from: day.optional().meta({ description: 'First day (included); alone: up to today' }),
  date_to: day.optional().meta({ description: 'Last day (included)' }),
};
const rangeOf = (q: { days?: number; date_from?: string; date_to?: string }) => ({
  ...(q.days !== undefined ? { days: q.days } : {}),
  ...(q.date_from ? { dateFrom: q.date_from } : {}),
  ...(q.date_to ? { dateTo: q.date_to } : {}),
});

/** `Cache-Control: no-cache` asks for the figures computed again rather than the cached copy. */
const fresh = (ctx: Context) => /\bno-cache\b/i.test(ctx.get('cache-control'));

const RANGE_ERRORS: RouteError[] = [
  { status: 422, codes: ['ERR_INVALID_DATE', 'ERR_INVALID_DATE_RANGE', 'ERR_DATE_RANGE_TOO_LONG'] },
  { status: 404, codes: ['ERR_QUEUE_NOT_FOUND', 'ERR_NO_USER_FOUND'], description: "A queue or operator of the filter is not the company's" },
  { status: 403, codes: ['ERR_NO_PERMISSION'], description: 'An operator without the dashboard naming someone else' },
];
const ACCESS =
  'Admins read the whole company; an operator whose `showDashboard` an admin enabled reads it too; any other operator reads ' +
  "only their own figures. Figures come from tables pre-aggregated per day (on the company's clock, setting `timezone`), queue and " +
  'operator, kept fresh by a job every few minutes; answers are cached per company (`Cache-Control: no-cache` computes them again, ' +
  '`POST /dashboard/clear-cache` drops them).';
const CYCLES = 'A ticket counts once per attendance cycle (created, or reopened after a close), on the day the cycle started.';

/**
 * The dashboards (`/dashboard*`), the attendance panel (`/dashboard/moments`, `/usersMoments`)
 * and the contacts report (`/contacts-report`, JSON pages or streamed CSV).
 */
export function dashboardRoutes(app: DashboardsApp) {
  const tag = TAG;
  const d = app.dashboards;
  const chartQuery = z.object({
    initialDate: day.optional().meta({ description: 'First day (included)' }),
    finalDate: day.optional().meta({ description: 'Last day (included)' }),
    companyId: z.string().max(20).optional().meta({ description: "Sent by the lineage client; ignored (the company is the caller's)" }),
    ...filters,
  });
  const chartRange = (q: { initialDate?: string; finalDate?: string }) => ({
    ...(q.initialDate ? { dateFrom: q.initialDate } : {}),
    ...(q.finalDate ? { dateTo: q.finalDate } : {}),
  });
  const momentsQuery = z.object({
    status: z.enum(['open', 'pending']).optional().meta({ description: 'Only the open or only the pending tickets; absent: both', example: 'pending' }),
    showAll: formBoolean
      .optional()
      .meta({ description: 'Every ticket the caller may reach (admins and `allTicket` users), not only the pending ones and their own' }),
    ...filters,
    queuesIds: idList.optional().meta({ description: "The lineage's spelling of `queueIds`" }),
    userId: id.optional().meta({ description: "Only this operator's tickets" }),
    dateStart: day.optional().meta({ description: 'Created on or after this day' }),
    dateEnd: day.optional().meta({ description: 'Created on or before this day' }),
  });
  const momentsInput = (q: z.output<typeof momentsQuery>) => {
    const queueIds = merged(filterOf(q).queueIds, q.queuesIds);
    return {
      ...(q.status ? { status: q.status } : {}),
      ...(q.showAll !== undefined ? { showAll: q.showAll } : {}),
      ...(queueIds ? { queueIds } : {}),
      ...(q.userId !== undefined ? { userId: q.userId } : {}),
      ...(q.dateStart ? { dateStart: q.dateStart } : {}),
      ...(q.dateEnd ? { dateEnd: q.dateEnd } : {}),
    };
  };
  const MOMENTS =
    'The open and pending tickets of now (at most 1,000, newest activity first) with their contact, connection (`chatapp`), queue ' +
    "and operator, as the ticket list's visibility rules allow: admins and `allTicket` users every ticket with `showAll`, other operators " +
    'the pending tickets of their queues (or of none) and their own.';
  const reportQuery = z.object({
    startDate: day.optional().meta({ description: 'Created on or after this day' }),
    endDate: day.optional().meta({ description: 'Created on or before this day' }),
    tags: idList.optional().meta({ description: 'Carrying one of these tags' }),
    'tags[]': idList.optional().meta({ description: 'The same as `tags`, as axios writes an array; both are joined' }),
    ddds: textList.optional().meta({ description: 'Brazilian states (`SP`) or area codes (`11`)' }),
    'ddds[]': textList.optional().meta({ description: 'The same as `ddds`, as axios writes an array; both are joined' }),
    wallets: z.unknown().optional().meta({ description: 'Accepted for the lineage client, which sends it; not applied (the lineage does not either)' }),
    'wallets[]': z.unknown().optional().meta({ description: 'The same as `wallets`: accepted, not applied' }),
    searchParam: z
      .string()
      .max(200)
      .optional()
      .meta({ description: "Text to look for in the contact's name or e-mail, or digits of its number; empty or absent: every contact" }),
    pageNumber: z.coerce
      .number()
      .int()
      .positive()
      .max(1_000_000)
      .optional()
      .meta({ description: 'The JSON page to answer, from 1 (the default); the CSV has every row', example: 1 }),
    format: z.enum(['json', 'csv']).optional().meta({ description: '`csv`: every row, streamed (as `Accept: text/csv`)' }),
  });
  return [
    route({
      method: 'GET',
      path: '/dashboard',
      auth: 'isAuth',
      tag,
      operationId: 'showDashboard',
      summary: 'The dashboard of a period: counters and operators',
      query: z.object({ ...range, ...filters }),
      description:
        `${ACCESS} ${CYCLES} Without any date: the last 30 days. \`supportHappening\`/\`supportPending\` (the period's tickets open now) ` +
        'and `online` are read live.',
      response: dashboardSchema,
      errors: RANGE_ERRORS,
      handler: async ({ actor, query, ctx }) => d.showDashboard.execute({ actor, ...rangeOf(query), ...filterOf(query), fresh: fresh(ctx) }),
    }),
    route({
      method: 'GET',
      path: '/dashboard/ticketsUsers',
      auth: 'isAuth',
      tag,
      operationId: 'dashboardTicketsByUser',
      summary: 'Tickets per operator in a range',
      query: chartQuery,
      description: `${ACCESS} ${CYCLES} Without dates: the last 30 days.`,
      response: ticketsByUserSchema,
      errors: RANGE_ERRORS,
      handler: async ({ actor, query, ctx }) => d.ticketsByUser.execute({ actor, ...chartRange(query), ...filterOf(query), fresh: fresh(ctx) }),
    }),
    route({
      method: 'GET',
      path: '/dashboard/ticketsDay',
      auth: 'isAuth',
      tag,
      operationId: 'dashboardTicketsByDay',
      summary: 'Tickets per day (or per hour of one day)',
      query: chartQuery,
      description: `${ACCESS} ${CYCLES} Every day of the range in calendar order; a range of one day is cut by the hour of the company's clock.`,
      response: ticketsByDaySchema,
      errors: RANGE_ERRORS,
      handler: async ({ actor, query, ctx }) => d.ticketsByDay.execute({ actor, ...chartRange(query), ...filterOf(query), fresh: fresh(ctx) }),
    }),
    route({
      method: 'GET',
      path: '/dashboard/extended-metrics',
      auth: 'isAuth',
      tag,
      operationId: 'dashboardExtendedMetrics',
      summary: 'First response, wait, handling and resolution times, rates and ratings, with a series',
      query: z.object({
        ...range,
        ...filters,
        granularity: z.enum(['day', 'week', 'month']).optional().meta({ description: "The series' buckets (default `day`)" }),
      }),
      description: `${ACCESS} ${CYCLES} The series has every bucket of the range (ISO weeks from their Monday, months from their first day).`,
      response: extendedMetricsSchema,
      errors: RANGE_ERRORS,
      handler: async ({ actor, query, ctx }) =>
        d.extendedMetrics.execute({
          actor,
          ...rangeOf(query),
          ...filterOf(query),
          fresh: fresh(ctx),
          ...(query.granularity ? { granularity: query.granularity } : {}),
        }),
    }),
    route({
      method: 'GET',
      path: '/dashboard/top-contacts',
      auth: 'isAuth',
      tag,
      operationId: 'dashboardTopContacts',
      summary: 'The contacts with the most tickets in a range',
      query: z.object({ ...range, ...filters, limit: z.coerce.number().int().min(1).max(100).optional().meta({ description: 'How many (default 10)' }) }),
      description: `${ACCESS} ${CYCLES} The most tickets first, then the latest.`,
      response: topContactsSchema,
      errors: RANGE_ERRORS,
      handler: async ({ actor, query, ctx }) =>
        d.topContacts.execute({
          actor,
          ...rangeOf(query),
          ...filterOf(query),
          fresh: fresh(ctx),
          ...(query.limit !== undefined ? { limit: query.limit } : {}),
        }),
    }),
    route({
      method: 'POST',
      path: '/dashboard/clear-cache',
      auth: 'isAuth',
      tag,
      operationId: 'clearDashboardCache',
      summary: "Drop the company's cached dashboard answers",
      description: 'Admins only. Every cached answer of the company is dropped at once; the next requests compute theirs again.',
      response: clearCacheSchema,
      errors: [
        { status: 403, codes: ['ERR_NO_PERMISSION'] },
        { status: 503, codes: ['ERR_CACHE_UNAVAILABLE'], description: 'The cache does not answer: nothing was dropped' },
      ],
      handler: async ({ actor }) => d.clearCache.execute(actor),
    }),
    route({
      method: 'POST',
      path: '/dashboard/refresh-views',
      auth: 'isAuth',
      tag,
      operationId: 'refreshDashboardViews',
      summary: "Rebuild the company's pre-aggregated figures now",
      description:
        'Admins only, at most every 30 seconds per company (a job keeps the figures fresh every few minutes anyway). The figures of every ' +
        "day are computed again from the attendance cycles in the company's zone, and the cached answers dropped.",
      response: refreshViewsSchema,
      errors: [
        { status: 403, codes: ['ERR_NO_PERMISSION'] },
        { status: 429, codes: ['ERR_DASHBOARD_REFRESH_TOO_SOON'] },
      ],
      handler: async ({ actor }) => d.refreshDashboard.execute(actor),
    }),
    route({
      method: 'GET',
      path: '/dashboard/moments',
      auth: 'isAuth',
      tag,
      operationId: 'dashboardMoments',
      summary: 'The attendance panel: tickets open now',
      query: momentsQuery,
      description: MOMENTS,
      response: z.array(ticketDetails),
      errors: [
        { status: 404, codes: ['ERR_QUEUE_NOT_FOUND', 'ERR_NO_USER_FOUND'] },
        { status: 422, codes: ['ERR_INVALID_DATE', 'ERR_INVALID_DATE_RANGE', 'ERR_DATE_RANGE_TOO_LONG'] },
      ],
      handler: async ({ actor, query }) => d.listMoments.execute({ actor, ...momentsInput(query) }),
    }),
    route({
      method: 'GET',
      path: '/usersMoments',
      auth: 'isAuth',
      tag,
      operationId: 'usersMoments',
      summary: 'The attendance panel, every ticket for admins',
      query: momentsQuery,
      description: `${MOMENTS} Admins get every ticket unless \`showAll=false\` (the lineage forces it for them).`,
      response: z.array(ticketDetails),
      errors: [
        { status: 404, codes: ['ERR_QUEUE_NOT_FOUND', 'ERR_NO_USER_FOUND'] },
        { status: 422, codes: ['ERR_INVALID_DATE', 'ERR_INVALID_DATE_RANGE', 'ERR_DATE_RANGE_TOO_LONG'] },
      ],
      handler: async ({ actor, query }) => d.listUsersMoments.execute({ actor, ...momentsInput(query) }),
    }),
    route({
      method: 'GET',
      path: '/contacts-report',
      auth: 'isAuth',
      tag,
      operationId: 'contactsReport',
      summary: 'The contacts created in a range, as JSON pages or CSV',
      query: reportQuery,
      description:
        'Admins, and operators an admin gave the dashboard (`showDashboard`). Non-group contacts created in the range (days on the ' +
        "company's clock), carrying one of `tags`, with a number of one of the states or area codes of `ddds`, matching `searchParam` " +
        '(name, e-mail, or digits of the number), oldest first. JSON: pages of 20 with the total. With `Accept: text/csv` or `format=csv`: ' +
        'every row as `text/csv` (header `id,name,number,email,createdAt`), streamed in batches as it is read; a cell starting with ' +
        "`=`, `+`, `-` or `@` gets a leading `'` so no formula runs when a spreadsheet opens it.",
      response: contactsReportSchema,
      errors: [
        { status: 403, codes: ['ERR_NO_PERMISSION'] },
        { status: 404, codes: ['ERR_NO_TAG_FOUND'] },
        { status: 422, codes: ['ERR_INVALID_DATE', 'ERR_INVALID_DATE_RANGE', 'ERR_DATE_RANGE_TOO_LONG', 'ERR_VALIDATION'] },
      ],
      handler: async ({ actor, query, ctx }) => {
        const tagIds = merged(query.tags, query['tags[]']);
        const ddds = [...(query.ddds ?? []), ...(query['ddds[]'] ?? [])];
        const input = {
          actor,
          ...(query.startDate ? { startDate: query.startDate } : {}),
          ...(query.endDate ? { endDate: query.endDate } : {}),
          ...(tagIds ? { tagIds } : {}),
          ...(ddds.length ? { ddds } : {}),
          ...(query.searchParam ? { searchParam: query.searchParam } : {}),
        };
        const csv = query.format === 'csv' || (query.format === undefined && /\btext\/csv\b/i.test(ctx.get('accept')));
        if (!csv) return d.contactsReport.execute({ ...input, ...(query.pageNumber ? { pageNumber: query.pageNumber } : {}) });
        const lines = await d.exportContactsReport.execute(input);
        ctx.type = 'text/csv; charset=utf-8';
        ctx.attachment('contacts-report.csv');
        return Readable.from(lines) as never;
      },
    }),
  ];
}
