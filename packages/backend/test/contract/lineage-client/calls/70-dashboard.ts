import type { ClientCalls } from '../client-call.js';

/** `YYYY-MM-DD` of today and of the first day of this month, as the client's date pickers default them. */
const today = () => new Date().toISOString().slice(0, 10);
const monthStart = () => `${today().slice(0, 8)}01`;
const weekAgo = () => new Date(Date.now() - 6 * 86_400_000).toISOString().slice(0, 10);

/** What the Dashboard page's cards and NPS tab read of `counters` (`tickets` too: the lineage never sent it, we do). */
const COUNTERS = [
  'supportPending',
  'supportFinished',
  'supportGroups',
  'leads',
  'avgSupportTime',
  'avgWaitTime',
  'activeTickets',
  'passiveTickets',
  'npsPromotersPerc',
  'npsDetractorsPerc',
  'npsPassivePerc',
  'npsScore',
  'tickets',
  'waitRating',
  'withoutRating',
  'withRating',
  'percRating',
].map((f) => `counters.${f}`);

/** What TableAttendantsStatus reads of an operator. */
const ATTENDANT = ['name', 'rating', 'countRating', 'tickets', 'avgWaitTime', 'avgSupportTime', 'online'].map((f) => `attendants[].${f}`);

/** What MomentsUser (the attendance panel) reads of a ticket. */
const MOMENT = ['id', 'userId', 'user', 'contact.name', 'contact.urlPicture', 'lastMessage', 'chatapp.name', 'queue', 'updatedAt'].map((f) => `[].${f}`);

/**
 * The dashboard: pages/Dashboard (hooks/useDashboard: the counters and the operators' table),
 * its charts (ChartsUser: tickets per operator; ChartsDate: per day, or per hour for one day, both
 * sending `companyId`, which the server ignores), the attendance panel (components/MomentsUser via
 * hooks/useUserMoments) and the tickets list's dashboard mode (hooks/useTickets with a user filter).
 * The figures are pre-aggregated: an admin refreshes them first, as the job would.
 */
export default {
  area: 'dashboard',
  prepare: async (_p, api) => {
    const res = await api.admin.post('/dashboard/refresh-views');
    if (res.status !== 200) throw new Error(`refresh-views: ${res.status} ${JSON.stringify(res.body)}`);
    return {};
  },
  calls: [
    {
      page: 'pages/Dashboard (hooks/useDashboard find)',
      method: 'GET',
      path: '/dashboard',
      query: () => ({ date_from: monthStart(), date_to: today() }),
      reads: [...COUNTERS, 'attendants', ...ATTENDANT],
      note: 'formatTime(minutes) turns avgSupportTime/avgWaitTime into "HHh mmm"; the NPS donuts truncate the percentages with `| 0`.',
    },
    {
      page: 'pages/Dashboard (a period chosen)',
      method: 'GET',
      path: '/dashboard',
      as: 'admin',
      query: () => ({ days: 7, date_from: monthStart(), date_to: today() }),
      reads: [...COUNTERS, ...ATTENDANT],
    },
    {
      page: 'pages/Dashboard/ChartsUser',
      method: 'GET',
      path: '/dashboard/ticketsUsers',
      query: (p) => ({ initialDate: monthStart(), finalDate: today(), companyId: p.companyId }),
      reads: ['data', 'data[].nome', 'data[].quantidade'],
    },
    {
      page: 'pages/Dashboard/ChartsDate (one day: per hour)',
      method: 'GET',
      path: '/dashboard/ticketsDay',
      query: (p) => ({ initialDate: today(), finalDate: today(), companyId: p.companyId }),
      reads: ['count', 'data[].horario', 'data[].total'],
      note: 'The label is `Das ${horario}:00 as ${horario}:59`.',
    },
    {
      page: 'pages/Dashboard/ChartsDate (a range: per day)',
      method: 'GET',
      path: '/dashboard/ticketsDay',
      query: (p) => ({ initialDate: weekAgo(), finalDate: today(), companyId: p.companyId }),
      reads: ['count', 'data[].data', 'data[].total'],
      note: 'The label is `data` (`dd/mm/YYYY`), in calendar order.',
    },
    {
      page: 'components/MomentsUser (hooks/useUserMoments)',
      method: 'GET',
      path: '/usersMoments',
      returns: 'array',
      reads: MOMENT,
      note: 'Cards grouped by `user.id` (`user` null: the pending column); `user.profileImage` is read when present (an avatar).',
    },
    {
      page: 'pages/Reports (hooks/useDashboard getReport)',
      method: 'GET',
      path: '/ticketreport/reports',
      query: () => ({
        searchParam: '',
        whatsappId: '[]',
        users: '[]',
        queueIds: '[]',
        status: '[]',
        dateFrom: monthStart(),
        dateTo: today(),
        page: 1,
        pageSize: 10,
        onlyRated: 'false',
      }),
      reads: ['totalTickets.total', 'tickets[].id', 'tickets[].uuid', 'tickets[].status', 'tickets[].createdAt', 'tickets[].closedAt'],
      note:
        "Every filter as JSON, `[]` for none; the pagination counts pages from `totalTickets.total`. The table's `whatsappName`, `contactName`, " +
        '`userName`… are read with `?.` and show blank: the row has `chatapp`, `contact` and `user` instead.',
    },
    {
      page: 'pages/Reports (statuses picked)',
      method: 'GET',
      path: '/ticketreport/reports',
      query: () => ({
        whatsappId: '[]',
        users: '[]',
        queueIds: '[]',
        status: '["open","pending","closed"]',
        dateFrom: monthStart(),
        dateTo: today(),
        page: 1,
        pageSize: 10,
        onlyRated: 'false',
      }),
      reads: ['totalTickets.total', 'tickets'],
    },
    {
      page: 'hooks/useTickets (dashboard mode, with a user filter)',
      method: 'GET',
      path: '/dashboard/moments',
      as: 'user',
      returns: 'array',
      query: (p) => ({ status: 'open', showAll: 'true', queueIds: '[]', dateStart: monthStart(), dateEnd: today(), userId: p.userId }),
      reads: ['[].id', '[].userId', '[].contact.name', '[].lastMessage'],
      note: "The client keeps the tickets whose `userId` is the filter's.",
    },
  ],
} satisfies ClientCalls;
