import type { CallerApis, ClientCalls, Params } from '../client-call.js';

/** A sandbox connection of the company for an entry to act on (its session, its deletion). */
async function sandboxConnection(api: CallerApis, name: string): Promise<number> {
  const created = await api.admin.post('/chatapp', { name, provider: 'sandbox' });
  if (created.status !== 201) throw new Error(`creating ${name}: ${created.status} ${JSON.stringify(created.body)}`);
  return created.body.id as number;
}

/** What the connection form holds when it saves: its own fields beside ours (the modal sends them all). */
const modalFields = {
  greetingMessage: 'Olá! Em que podemos ajudar?',
  complationMessage: 'Obrigado pelo contato.',
  outOfHoursMessage: '',
  ratingMessage: '',
  isDefault: false,
  maxUseBotQueues: 3,
  expiresTicket: 0,
  allowGroup: false,
  groupAsTicket: 'disabled',
  timeUseBotQueues: '0',
  timeSendQueue: '0',
  sendIdQueue: 0,
  expiresTicketNPS: '0',
  expiresInactiveMessage: '',
  timeInactiveMessage: '',
  inactiveMessage: '',
  maxUseBotQueuesNPS: 3,
  whenExpiresTicket: 0,
  timeCreateNewTicket: 0,
  greetingMediaAttachment: '',
  importRecentMessages: null,
  importOldMessages: null,
  importOldMessagesGroups: null,
  closedTicketsPostImported: null,
  integrationId: null,
  collectiveVacationEnd: '',
  collectiveVacationStart: '',
  collectiveVacationMessage: '',
  queueIdImportMessages: null,
  flowIdWelcome: null,
  flowIdNotPhrase: null,
  promptId: null,
  schedules: [{ weekday: 'Segunda-feira', weekdayEn: 'monday', startTimeA: '08:00', endTimeA: '12:00', startTimeB: '13:00', endTimeB: '18:00' }],
};

/** The row of the connections table and what the session events update in it. */
const ROW = ['[].id', '[].name', '[].channel', '[].number', '[].status', '[].qrcode', '[].updatedAt', '[].isDefault'];
const SESSION_EVENT = { event: 'chatappSession', action: 'update', reads: ['session.id', 'session.status', 'session.qrcode', 'session.updatedAt'] };

/**
 * Connections and their sessions: pages/Connections and pages/AllConnections (with
 * components/CompanyWhatsapps), hooks/useWhatsApps (the list every page shares, kept live by the
 * `chatapp` and `chatappSession` events), components/WhatsAppModal and WhatsAppModalAdmin (the
 * form), components/QrcodeModal, components/ConnectionsFilter.
 */
export default {
  area: 'connections',
  calls: [
    {
      page: 'hooks/useWhatsApps',
      method: 'GET',
      path: '/chatapp/',
      query: { session: 0 },
      returns: 'array',
      reads: [...ROW, '[].queues'],
    },
    {
      page: 'hooks/useWhatsApps (an operator)',
      method: 'GET',
      path: '/chatapp/',
      as: 'user',
      query: { session: 0 },
      returns: 'array',
      reads: ['[].id', '[].name', '[].status'],
    },
    {
      page: 'components/ConnectionsFilter',
      method: 'GET',
      path: '/chatapp',
      returns: 'array',
      reads: ['[].id', '[].name'],
    },
    {
      page: 'pages/AllConnections',
      method: 'GET',
      path: '/chatapp/all/',
      as: 'super',
      query: { session: 0 },
      returns: 'array',
      reads: ['[].companyId', ...ROW],
    },
    {
      page: 'components/QrcodeModal',
      method: 'GET',
      path: '/chatapp/:chatappId',
      reads: ['qrcode'],
      note: 'It shows the QR code while there is one, and closes when a session event says `qrcode: ""`.',
    },
    {
      page: 'components/WhatsAppModal (edit)',
      method: 'GET',
      path: '/chatapp/:chatappId',
      query: { session: 0 },
      reads: [
        'id',
        'name',
        'greetingMessage',
        'complationMessage',
        'outOfHoursMessage',
        'isDefault',
        'token',
        'greetingMediaAttachment',
        'queues',
        'status',
        'promptId',
      ],
      note: 'The prompt select shows `promptId` (null: none).',
    },
    {
      page: 'components/WhatsAppModalAdmin (edit)',
      method: 'GET',
      path: '/chatapp-admin/:chatappId',
      as: 'super',
      query: { session: 0 },
      reads: ['id', 'name', 'greetingMessage', 'complationMessage', 'token', 'greetingMediaAttachment', 'queues'],
    },
    {
      page: 'components/WhatsAppModal (add)',
      method: 'POST',
      path: '/chatapp',
      status: 201,
      body: (p: Params) => ({ name: 'Vendas', token: 'Tk7Qw2Zp9Lm4Xc8Vb1Nn6Hs3Jd5Fg0', queueIds: [p.queueId], ...modalFields, provider: 'sandbox' }),
      reads: ['id'],
      emits: [{ event: 'chatapp', action: 'update', reads: ['chatapp.id', 'chatapp.name', 'chatapp.status', 'chatapp.isDefault', 'chatapp.updatedAt'] }],
      note:
        'The form sends `provider: "beta"` (its library channel, which means our default provider); the entry asks for the sandbox so no real ' +
        'session starts. The fields we do not model (`schedules`, `timeSendQueue`…) are dropped, never a 422; `promptId` is null without a prompt chosen.',
    },
    {
      page: 'components/WhatsAppModal (save an edit)',
      method: 'PUT',
      path: '/chatapp/:target',
      setup: async (p, api) => {
        const target = await sandboxConnection(api, 'Editar');
        const shown = await api.admin.get(`/chatapp/${target}?session=0`);
        return { target, shown: JSON.stringify(shown.body) };
      },
      body: (p: Params) => {
        const { queues: _queues, ...shown } = JSON.parse(String(p.shown)) as Record<string, unknown>;
        return { ...shown, ...modalFields, name: 'Editada', queueIds: [], token: shown.token ?? null, promptId: p.promptId };
      },
      reads: ['id', 'name', 'promptId'],
      emits: [{ event: 'chatapp', action: 'update', reads: ['chatapp.id', 'chatapp.name'] }],
      note:
        'The form sends the GET answer back (read-only fields and the masked token included, meaning "unchanged") with its own fields. ' +
        "Choosing a prompt (`promptId`, one of the company's) empties its queue selection.",
    },
    {
      page: 'components/WhatsAppModal (greeting file)',
      method: 'POST',
      path: '/chatapp/:chatappId/media-upload',
      form: { files: [{ field: 'file', name: 'boas-vindas.png', type: 'image/png', content: 'PNGDATA' }] },
      emits: [{ event: 'chatapp', action: 'update', reads: ['chatapp.id', 'chatapp.greetingMediaAttachment'] }],
    },
    {
      page: 'components/WhatsAppModal (greeting file removed)',
      method: 'DELETE',
      path: '/chatapp/:chatappId/media-upload',
    },
    {
      page: 'pages/Connections (start)',
      method: 'POST',
      path: '/chatappsession/:target',
      setup: async (p, api) => ({ target: await sandboxConnection(api, 'Sessão A') }),
      emits: [SESSION_EVENT],
    },
    {
      page: 'pages/Connections (new QR code)',
      method: 'PUT',
      path: '/chatappsession/:target',
      setup: async (p, api) => ({ target: await sandboxConnection(api, 'Sessão B') }),
      emits: [SESSION_EVENT],
    },
    {
      page: 'pages/Connections (disconnect)',
      method: 'DELETE',
      path: '/chatappsession/:target',
      setup: async (p, api) => ({ target: await sandboxConnection(api, 'Sessão C') }),
      emits: [SESSION_EVENT],
    },
    {
      page: 'pages/Connections (close imported tickets)',
      method: 'POST',
      path: '/closedimported/:target',
      setup: async (p, api) => ({ target: await sandboxConnection(api, 'Importada') }),
    },
    {
      page: 'pages/Connections (delete)',
      method: 'DELETE',
      path: '/chatapp/:target',
      setup: async (p, api) => ({ target: await sandboxConnection(api, 'Apagar') }),
      emits: [{ event: 'chatapp', action: 'delete', reads: ['chatappId'] }],
    },
    {
      page: 'pages/Connections (restart every session)',
      method: 'POST',
      path: '/chatapp-restart/',
      emits: [SESSION_EVENT],
    },
  ],
} satisfies ClientCalls;
