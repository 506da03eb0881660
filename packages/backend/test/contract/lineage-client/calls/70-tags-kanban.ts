import type { CallerApis, ClientCalls, Params } from '../client-call.js';

/**
 * Tags and the kanban: the tag pages (Tags, TagsKanban) and their modals (TagModal, TagTicketModal),
 * the tags of a conversation (TagsContainer on the contact, TagsKanbanContainer on the ticket, the
 * list's TagsFilter), and the board (Kanban).
 */

let n = 0;
/** A tag of its own, for an entry that changes or deletes it. */
async function ownTag(api: CallerApis, kanban: 0 | 1): Promise<Params> {
  n += 1;
  const res = await api.admin.post('/tags', { name: `Etiqueta ${n} ${kanban ? 'lane' : 'plain'}`, color: '#336699', kanban });
  if (res.status >= 300) throw new Error(`tag: ${res.status} ${JSON.stringify(res.body)}`);
  return { target: res.body.id };
}

const TAG = ['id', 'name', 'color', 'kanban'];
const tags = (prefix: string) => TAG.map((f) => `${prefix}.${f}`);

/** What a kanban card reads of a ticket. */
const CARD = ['id', 'uuid', 'tags', 'contact.number', 'contact.name', 'updatedAt', 'lastMessage', 'unreadMessages', 'user', 'chatapp.name', 'channel'];

export default {
  area: 'tags and kanban',
  prepare: async (p, api) => {
    const plain = await api.admin.post('/tags', { name: 'Retornar ligação', color: '#22aa44', kanban: 0 });
    if (plain.status >= 300) throw new Error(`tag: ${plain.status} ${JSON.stringify(plain.body)}`);
    const lane = await api.admin.post('/tags', { name: 'Em negociação', color: '#aa8800', kanban: 1 });
    if (lane.status >= 300) throw new Error(`lane: ${lane.status} ${JSON.stringify(lane.body)}`);
    return { plainTagId: plain.body.id, laneTagId: lane.body.id };
  },
  calls: [
    // The tag pages and modals.
    {
      page: 'pages/Tags',
      method: 'GET',
      path: '/tags',
      as: 'admin',
      query: { searchParam: '', pageNumber: 1, kanban: 0 },
      reads: ['tags', 'hasMore', ...tags('tags[]')],
    },
    {
      page: 'pages/TagsKanban',
      method: 'GET',
      path: '/tags',
      as: 'admin',
      query: { searchParam: '', pageNumber: 1, kanban: 1 },
      reads: ['tags', 'hasMore', ...tags('tags[]')],
    },
    {
      page: 'components/TagModal (the lanes to choose from)',
      method: 'GET',
      path: '/tags',
      as: 'admin',
      query: (p) => ({ kanban: 1, tagId: p.tagId }),
      reads: ['tags', ...tags('tags[]')],
    },
    {
      page: 'components/TagModal (open a tag)',
      method: 'GET',
      path: '/tags/:tagId',
      as: 'admin',
      reads: [...TAG],
    },
    {
      page: 'components/TagModal (create a lane)',
      method: 'POST',
      path: '/tags',
      as: 'admin',
      body: (p: Params) => ({
        name: 'Aguardando pagamento',
        color: '#A1B2C3',
        kanban: 1,
        timeLane: 0,
        nextLaneId: null,
        greetingMessageLane: '',
        rollbackLaneId: null,
        userId: p.adminId,
      }),
      reads: [...TAG],
      emits: [{ event: 'tag', action: 'create', reads: ['tag.id', 'tag.name', 'tag.color'] }],
      note: 'The color picker gives upper-case hex; the lane-automation fields (`timeLane`, `nextLaneId`...) are not ours and are ignored.',
    },
    {
      page: 'components/TagModal (save an opened tag)',
      method: 'PUT',
      path: '/tags/:target',
      as: 'admin',
      setup: (_p, api) => ownTag(api, 0),
      body: (p: Params) => ({
        id: p.target,
        companyId: p.companyId,
        name: 'Etiqueta renomeada',
        color: '#123ABC',
        kanban: 0,
        laneOrder: 0,
        timeLane: 0,
        nextLaneId: null,
        greetingMessageLane: '',
        rollbackLaneId: null,
        createdAt: '2025-01-31T12:00:00.000Z',
        updatedAt: '2025-01-31T12:00:00.000Z',
        userId: p.adminId,
      }),
      reads: [...TAG],
      emits: [{ event: 'tag', action: 'update', reads: ['tag.id', 'tag.name'] }],
      note: 'The modal sends back the GET answer merged with its form, read-only fields included.',
    },
    {
      page: 'components/TagTicketModal (create)',
      method: 'POST',
      path: '/tags',
      as: 'admin',
      body: (p: Params) => ({ name: 'Urgente', color: '#ff0000', kanban: 0, userId: p.adminId }),
      reads: [...TAG],
    },
    {
      page: 'pages/Tags (delete)',
      method: 'DELETE',
      path: '/tags/:target',
      as: 'admin',
      setup: (_p, api) => ownTag(api, 0),
      emits: [{ event: 'tag', action: 'delete', reads: ['tagId'] }],
      note: 'The pages listen on `company<id>-tag` (without the dash): a typo of the client; we send `company-<id>-tag`.',
    },
    // A conversation's tags.
    {
      page: 'components/TagsFilter',
      method: 'GET',
      path: '/tags/list',
      as: 'user',
      returns: 'array',
      reads: tags('[]'),
    },
    {
      page: "components/TagsContainer (the contact's tag picker)",
      method: 'GET',
      path: '/tags/list',
      as: 'user',
      query: { kanban: 0 },
      returns: 'array',
      reads: tags('[]'),
    },
    {
      page: 'components/TagsContainer (a new tag typed in)',
      method: 'POST',
      path: '/tags',
      as: 'admin',
      body: { name: 'Cliente novo', kanban: 0, color: '#5a7d9c' },
      reads: [...TAG],
    },
    {
      page: "components/TagsContainer (set the contact's tags)",
      method: 'POST',
      path: '/tags/sync',
      as: 'user',
      body: (p: Params) => ({
        contactId: p.contactId,
        tags: [
          { id: p.tagId, name: 'VIP', color: '#ff0000', kanban: 1 },
          { id: p.plainTagId, name: 'Retornar ligação', color: '#22aa44', kanban: 0 },
        ],
      }),
      emits: [{ event: 'tag', action: 'contact', reads: ['contactId', 'tags'] }],
    },
    {
      page: 'components/TagsKanbanContainer (the lane picker)',
      method: 'GET',
      path: '/tags/list',
      as: 'user',
      query: { kanban: 1 },
      returns: 'array',
      reads: tags('[]'),
    },
    {
      page: 'components/TagsKanbanContainer (leave the current lane)',
      method: 'DELETE',
      path: '/ticket-tags/:ticketId',
      as: 'user',
      reads: ['id', 'tags'],
      emits: [{ event: 'ticket', action: 'update', reads: ['ticket.id', 'ticket.tags'] }],
    },
    {
      page: 'components/TagsKanbanContainer (move to a lane)',
      method: 'PUT',
      path: '/ticket-tags/:ticketId/:laneTagId',
      as: 'user',
      reads: ['id', 'tags[].id', 'tags[].name', 'tags[].color'],
      emits: [{ event: 'ticket', action: 'update', reads: ['ticket.id', 'ticket.tags[].id'] }],
    },
    // The board.
    {
      page: 'pages/Kanban (the lanes)',
      method: 'GET',
      path: '/tag/kanban',
      as: 'admin',
      reads: ['lista', ...tags('lista[]')],
    },
    {
      page: 'pages/Kanban (the cards)',
      method: 'GET',
      path: '/ticket/kanban',
      as: 'admin',
      query: () => {
        const today = new Date().toISOString().slice(0, 10);
        return { queueIds: '[]', startDate: today, endDate: today };
      },
      reads: ['tickets', ...CARD.map((f) => `tickets[].${f}`)],
      note: 'The page sorts the tickets into lanes by their `tags` itself; the dates are creation days (the page defaults to today).',
    },
    {
      page: 'pages/Kanban (a card dragged: out of its lanes)',
      method: 'DELETE',
      path: '/ticket-tags/:ticketId',
      as: 'admin',
      reads: ['id', 'tags'],
    },
    {
      page: 'pages/Kanban (a card dropped on a lane)',
      method: 'PUT',
      path: '/ticket-tags/:ticketId/:tagId',
      as: 'admin',
      reads: ['id', 'tags[].id'],
      emits: [{ event: 'ticket', action: 'update', reads: ['ticket.id', 'ticket.tags[].id'] }],
    },
    {
      page: 'pages/Kanban (a card dropped on the first column)',
      method: 'PUT',
      path: '/ticket-tags/:ticketId/lane0',
      as: 'admin',
      reads: ['id', 'tags'],
      note: "The first column's id is `lane0`: the ticket leaves every lane.",
    },
  ],
} satisfies ClientCalls;
