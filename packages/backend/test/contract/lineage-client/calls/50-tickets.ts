import type { CallerApis, ClientCalls, Params } from '../client-call.js';

/**
 * The ticket panel: the tabs and filters of the list (TicketsManagerTabs, TicketsListCustom through
 * hooks/useTickets), the notification bell, one ticket opened (Ticket, TicketInfo, TicketHeader),
 * and the ticket actions of the list items, the action buttons, the options menu and the modals
 * (accept, transfer, new ticket, history).
 */

/** What a list row, the ticket header and the notification bell read of a ticket. */
const TICKET_ROW = [
  'id',
  'uuid',
  'status',
  'userId',
  'queueId',
  'isGroup',
  'channel',
  'lastMessage',
  'unreadMessages',
  'updatedAt',
  'contact.id',
  'contact.name',
  'contact.urlPicture',
  'chatapp.name',
  'queue',
  'user',
  'tags',
];
const rows = (prefix: string) => TICKET_ROW.map((f) => `${prefix}.${f}`);

let n = 0;
/** A new conversation from a number of its own (a pending ticket without a queue). */
async function pendingTicket(api: CallerApis, name: string): Promise<Record<string, any>> {
  n += 1;
  return api.inbound(`55119660${10_000 + n}`, `Olá, aqui é ${name}`, { senderName: name });
}

/** A conversation the company admin (Carla) has accepted. */
async function carlasTicket(p: Params, api: CallerApis, name: string): Promise<Record<string, any>> {
  const t = await pendingTicket(api, name);
  const taken = await api.admin.put(`/tickets/${t.id}`, { status: 'open', userId: p.adminId });
  if (taken.status !== 200) throw new Error(`accept: ${taken.status} ${JSON.stringify(taken.body)}`);
  return taken.body;
}

export default {
  area: 'tickets',
  prepare: async (p, api) => {
    const waiting = await pendingTicket(api, 'Paulo Pendente');
    const closed = await carlasTicket(p, api, 'Clara Fechada');
    const shut = await api.admin.put(`/tickets/${closed.id}`, { status: 'closed', userId: p.adminId, sendFarewellMessage: false });
    if (shut.status !== 200) throw new Error(`close: ${shut.status} ${JSON.stringify(shut.body)}`);
    const contact = await api.admin.post('/contacts', { name: 'Nina Sem Ticket', number: '5511955554444' });
    if (contact.status >= 300) throw new Error(`contact: ${contact.status} ${JSON.stringify(contact.body)}`);
    return { pendingTicketId: waiting.id, closedTicketId: closed.id, freeContactId: contact.body.id };
  },
  calls: [
    // The tabs of the list (TicketsManagerTabs renders one TicketsListCustom per tab; each loads through hooks/useTickets).
    {
      page: 'components/TicketsListCustom (open tab)',
      method: 'GET',
      path: '/tickets',
      as: 'user',
      query: { pageNumber: 1, status: 'open', showAll: false, queueIds: '[]', sortTickets: 'DESC', searchOnMessages: 'false' },
      reads: ['tickets', 'hasMore', 'count', ...rows('tickets[]')],
    },
    {
      page: 'components/TicketsListCustom (pending tab)',
      method: 'GET',
      path: '/tickets',
      as: 'admin',
      query: { pageNumber: 1, status: 'pending', showAll: false, queueIds: '[]', sortTickets: 'DESC', searchOnMessages: 'false' },
      reads: ['tickets', 'hasMore', ...rows('tickets[]')],
    },
    {
      page: 'components/TicketsListCustom (group tab)',
      method: 'GET',
      path: '/tickets',
      as: 'admin',
      query: { pageNumber: 1, status: 'group', showAll: false, queueIds: '[]', sortTickets: 'DESC', searchOnMessages: 'false' },
      reads: ['tickets', 'hasMore', 'count'],
      note: 'The group conversations still active; the sandbox fixture has none, so the page is empty (not 422).',
    },
    {
      page: 'components/TicketsListCustom (closed tab)',
      method: 'GET',
      path: '/tickets',
      as: 'admin',
      query: { pageNumber: 1, status: 'closed', showAll: false, queueIds: '[]', searchOnMessages: 'false' },
      reads: ['tickets', 'hasMore', ...rows('tickets[]')],
    },
    {
      page: 'components/TicketsListCustom (search tab, operator)',
      method: 'GET',
      path: '/tickets',
      as: 'user',
      query: {
        pageNumber: 1,
        status: 'search',
        searchParam: 'joana',
        showAll: false,
        tags: '[]',
        queueIds: '[]',
        statusFilter: '[]',
        searchOnMessages: 'false',
      },
      reads: ['tickets', 'hasMore', ...rows('tickets[]')],
      note: '`search` is every status: the search tab lists open, pending and closed tickets alike.',
    },
    {
      page: 'components/TicketsListCustom (search tab, admin with filters)',
      method: 'GET',
      path: '/tickets',
      as: 'admin',
      query: (p) => ({
        pageNumber: 1,
        status: 'search',
        searchParam: '',
        showAll: true,
        tags: '[]',
        users: JSON.stringify([p.userId]),
        queueIds: '[]',
        chatapps: JSON.stringify([p.chatappId]),
        statusFilter: JSON.stringify(['open', 'pending']),
        searchOnMessages: 'true',
      }),
      reads: ['tickets', 'hasMore', ...rows('tickets[]')],
      note: 'The filters of the search tab: TagsFilter, WhatsappsFilter (`whatsapps` → `chatapps`), StatusFilter and UsersFilter.',
    },
    {
      page: 'components/StatusFilter (the group choice)',
      method: 'GET',
      path: '/tickets',
      as: 'admin',
      query: { pageNumber: 1, status: 'search', searchParam: '', showAll: true, statusFilter: JSON.stringify(['group']), searchOnMessages: 'false' },
      reads: ['tickets', 'hasMore'],
    },
    {
      page: 'components/NotificationsPopOver',
      method: 'GET',
      path: '/tickets',
      as: 'admin',
      query: { withUnreadMessages: 'true' },
      reads: ['tickets', ...rows('tickets[]')],
    },
    // Opening a ticket.
    {
      page: 'components/Ticket',
      method: 'GET',
      path: '/tickets/u/:ticketUuid',
      as: 'user',
      reads: [...TICKET_ROW, 'chatappId', 'contact.disableBot', 'contact.acceptAudioMessage', 'contact.tags', 'contact.number', 'contact.email', 'user.name'],
    },
    {
      page: 'components/ShowTicketLogModal',
      method: 'GET',
      path: '/tickets-log/:ticketId',
      as: 'user',
      returns: 'array',
      reads: ['[].type', '[].createdAt', '[].user'],
    },
    // Ticket actions.
    {
      page: 'components/TicketListItemCustom (accept)',
      method: 'PUT',
      path: '/tickets/:target',
      as: 'user',
      setup: async (p, api) => ({ target: (await pendingTicket(api, 'Ana Aceita')).id }),
      body: (p: Params) => ({ status: 'open', userId: p.userId }),
      reads: ['id', 'uuid', 'userId', 'status', 'user.name', 'queue'],
      emits: [
        { event: 'ticket', action: 'delete', reads: ['ticketId', 'from.status'] },
        { event: 'ticket', action: 'update', reads: ['ticket.id', 'ticket.status', 'ticket.userId', 'ticket.queueId', 'ticket.contact.name'] },
      ],
      note: 'TicketsListCustom drops a ticket from every tab only on `delete`; the `update` then adds it to the tab of its new status.',
    },
    {
      page: 'components/AcceptTicketWithoutQueueModal',
      method: 'PUT',
      path: '/tickets/:target',
      as: 'admin',
      setup: async (p, api) => ({ target: (await pendingTicket(api, 'Sem Fila')).id }),
      body: (p: Params) => ({ status: 'open', userId: p.adminId, queueId: p.queueId }),
      reads: ['id', 'uuid', 'userId', 'user.name', 'queue.name', 'queue.color'],
    },
    {
      page: 'components/TransferTicketModalCustom (to an operator)',
      method: 'PUT',
      path: '/tickets/:target',
      as: 'admin',
      setup: async (p, api) => ({ target: (await carlasTicket(p, api, 'Transferido')).id }),
      body: (p: Params) => ({ userId: p.otherUserId, status: 'open', queueId: p.queueId, msgTransfer: null, isTransfered: true }),
      reads: ['id', 'userId', 'queueId'],
      emits: [{ event: 'ticket', action: 'update', reads: ['ticket.id', 'ticket.userId', 'ticket.queue.name'] }],
    },
    {
      page: 'components/TransferTicketModalCustom (to a queue)',
      method: 'PUT',
      path: '/tickets/:target',
      as: 'admin',
      setup: async (p, api) => ({ target: (await carlasTicket(p, api, 'Para a Fila')).id }),
      body: (p: Params) => ({ userId: null, status: 'pending', queueId: p.queueId, msgTransfer: 'Vou te passar para o suporte', isTransfered: true }),
      reads: ['id', 'status', 'queueId'],
    },
    {
      page: 'components/TicketActionButtonsCustom (return to the queue)',
      method: 'PUT',
      path: '/tickets/:target',
      as: 'admin',
      setup: async (p, api) => ({ target: (await carlasTicket(p, api, 'De Volta')).id }),
      body: { status: 'pending', userId: null },
      reads: ['id', 'status'],
    },
    {
      page: 'components/TicketActionButtonsCustom (close)',
      method: 'PUT',
      path: '/tickets/:target',
      as: 'admin',
      setup: async (p, api) => ({ target: (await carlasTicket(p, api, 'Encerrado')).id }),
      body: (p: Params) => ({ status: 'closed', userId: p.adminId }),
      reads: ['id', 'status'],
      emits: [{ event: 'ticket', action: 'update', reads: ['ticket.id', 'ticket.status', 'ticket.uuid'] }],
    },
    {
      page: 'components/TicketListItemCustom (close without farewell)',
      method: 'PUT',
      path: '/tickets/:target',
      as: 'admin',
      setup: async (p, api) => ({ target: (await carlasTicket(p, api, 'Sem Despedida')).id }),
      body: (p: Params) => ({ status: 'closed', userId: p.adminId, sendFarewellMessage: false, amountUsedBotQueues: 0 }),
      reads: ['id', 'status'],
    },
    {
      page: 'components/TicketActionButtonsCustom (reopen a closed ticket)',
      method: 'PUT',
      path: '/tickets/:target',
      as: 'admin',
      setup: async (p, api) => {
        const t = await carlasTicket(p, api, 'Reaberto');
        await api.admin.put(`/tickets/${t.id}`, { status: 'closed', userId: p.adminId, sendFarewellMessage: false });
        return { target: t.id };
      },
      body: (p: Params) => ({ status: 'open', userId: p.adminId }),
      reads: ['id', 'uuid', 'userId', 'status', 'user.name'],
    },
    {
      page: 'components/TicketOptionsMenu (delete)',
      method: 'DELETE',
      path: '/tickets/:target',
      as: 'admin',
      setup: async (p, api) => ({ target: (await pendingTicket(api, 'Apagado')).id }),
      emits: [{ event: 'ticket', action: 'delete', reads: ['ticketId'] }],
    },
    {
      page: 'components/TicketsManagerTabs (close all of the group tab)',
      method: 'POST',
      path: '/tickets/closeAll',
      as: 'admin',
      body: { status: 'group', selectedQueueIds: [] },
      note: 'The button sends the tab open at the time; the group tab closes only group conversations (none here), so other entries keep theirs.',
    },
    {
      page: 'components/NewTicketModal',
      method: 'POST',
      path: '/tickets',
      as: 'admin',
      body: (p: Params) => ({ contactId: p.freeContactId, queueId: p.queueId, chatappId: p.chatappId, userId: p.adminId, status: 'open' }),
      reads: ['id', 'uuid', 'status', 'queueId'],
      emits: [{ event: 'ticket', action: 'create', reads: ['ticket.id', 'ticket.uuid', 'ticket.contact.name'] }],
    },
    {
      page: 'components/MessageOptionsMenu (talk to the contact in a new ticket)',
      method: 'POST',
      path: '/tickets',
      as: 'admin',
      setup: async (_p, api) => {
        const c = await api.admin.post('/contacts', { name: 'Otto Outro', number: '5511955553333' });
        return { target: c.body.id };
      },
      body: (p: Params) => ({ contactId: p.target, userId: p.adminId, status: 'open', queueId: null, chatappId: p.chatappId }),
      reads: ['id', 'uuid', 'queueId'],
      note: "The menu passes the open conversation's queue and connection (`whatsappId` → `chatappId`); either may be null (then the default connection).",
    },
    {
      page: 'components/NewTicketModal (the contact already has an active ticket)',
      method: 'POST',
      path: '/tickets',
      as: 'admin',
      status: 409,
      body: (p: Params) => ({ contactId: p.contactId, queueId: p.queueId, chatappId: p.chatappId, userId: p.adminId, status: 'open' }),
      reads: ['error'],
      note: 'The lineage parses `error` as the other ticket (JSON); we answer the code `ERR_OTHER_OPEN_TICKET`.',
    },
    {
      page: 'components/TicketActionButtonsCustom (required tag check)',
      method: 'GET',
      path: '/contactTags/:contactId',
      as: 'user',
      reads: ['tags'],
    },
    {
      page: 'components/TicketActionButtonsCustom (bot on/off)',
      method: 'PUT',
      path: '/contacts/toggleDisableBot/:contactId',
      as: 'user',
      reads: ['disableBot'],
    },
    {
      page: 'components/TicketOptionsMenu (audio on/off)',
      method: 'PUT',
      path: '/contacts/toggleAcceptAudio/:contactId',
      as: 'user',
      reads: ['acceptAudioMessage'],
    },
    // The filters' own lists and the pickers of the modals.
    { page: 'components/WhatsappsFilter', method: 'GET', path: '/chatapp', as: 'admin', returns: 'array', reads: ['[].id', '[].name'] },
    { page: 'components/UsersFilter', method: 'GET', path: '/users/list', as: 'admin', returns: 'array', reads: ['[].id', '[].name'] },
    { page: 'components/QueueFilter', method: 'GET', path: '/queue', as: 'admin', returns: 'array', reads: ['[].id', '[].name', '[].color'] },
    {
      page: 'components/TransferTicketModalCustom (operator search)',
      method: 'GET',
      path: '/users',
      as: 'admin',
      query: { searchParam: 'ana' },
      reads: ['users[].id', 'users[].name', 'users[].queues'],
    },
    {
      page: 'components/NewTicketModal (contact search)',
      method: 'GET',
      path: '/contacts',
      as: 'admin',
      query: { searchParam: 'nina' },
      reads: ['contacts[].id', 'contacts[].name', 'contacts[].number'],
    },
  ],
} satisfies ClientCalls;
