import type { CallerApis, ClientCalls, Params } from '../client-call.js';

const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201e2a4d1a60000000049454e44ae426082',
  'hex',
);

/** What the user form starts from before anything is typed (components/UserModal). */
const newUserForm = {
  profile: 'user',
  startWork: '00:00',
  endWork: '23:59',
  farewellMessage: '',
  allTicket: 'disable',
  allowGroup: false,
  defaultTheme: 'light',
  defaultMenu: 'open',
  allHistoric: 'disabled',
  allUserChat: 'disabled',
  userClosePendingTicket: 'enabled',
  showDashboard: 'disabled',
  allowRealTime: 'disabled',
  allowConnections: 'disabled',
};

/** What a user record shows when the form opens it (`GET /users/:id` merged over `newUserForm`), kept for the body. */
async function openedForm(api: CallerApis['admin'], userId: number | string | undefined): Promise<Params> {
  const res = await api.get(`/users/${userId}`);
  if (res.status !== 200) throw new Error(`GET /users/${userId} → ${res.status} ${JSON.stringify(res.body)}`);
  return { opened: JSON.stringify({ ...newUserForm, ...res.body }) };
}

let made = 0;
/** A user of the company to delete or edit. */
async function makeUser(api: CallerApis['admin'], extra: Record<string, unknown> = {}) {
  made += 1;
  const res = await api.post('/users', { name: `Temp User ${made}`, email: `temp${made}@users.test`, password: 'temp-pass-123', ...extra });
  if (res.status !== 201) throw new Error(`POST /users → ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.id as number;
}

/** The users page, the user form (create, edit, avatar), the language menu and the super user's company users (pages/Users and its modals). */
export default {
  area: 'users',
  calls: [
    {
      page: 'pages/Users',
      method: 'GET',
      path: '/users',
      query: { searchParam: '', pageNumber: 1 },
      reads: [
        'users[].id',
        'users[].name',
        'users[].email',
        'users[].profile',
        'users[].startWork',
        'users[].endWork',
        'users[].profileImage',
        'users[].companyId',
        'users[].online',
        'hasMore',
      ],
    },
    {
      page: 'hooks/useUsers',
      method: 'GET',
      path: '/users',
      reads: ['users[].id', 'users[].name', 'hasMore', 'count'],
    },
    {
      page: 'components/UserModal (open)',
      method: 'GET',
      path: '/users/:userId',
      reads: [
        'id',
        'name',
        'email',
        'profile',
        'companyId',
        'profileImage',
        'queues',
        'chatappId',
        'allTicket',
        'allowGroup',
        'allHistoric',
        'allUserChat',
        'userClosePendingTicket',
        'showDashboard',
        'allowRealTime',
        'allowConnections',
        'defaultTheme',
        'defaultMenu',
        'startWork',
        'endWork',
        'farewellMessage',
      ],
      note: "The form selects `queues[].id` and the default connection from `chatappId` (the lineage's `whatsappId`).",
    },
    {
      page: 'components/UserModal (create)',
      method: 'POST',
      path: '/users',
      body: (p: Params) => ({
        ...newUserForm,
        name: 'Duda Operadora',
        email: 'duda@users.test',
        password: 'duda-pass-123',
        chatappId: '',
        queueIds: [p.queueId],
      }),
      reads: ['id', 'queues[].id', 'queues[].name', 'chatappId'],
      emits: [{ event: 'user', action: 'create', reads: ['user.id', 'user.name', 'user.email', 'user.profile', 'user.queues'] }],
      note: 'No connection chosen is sent as `""` (or `false` before the list loads): no default connection.',
    },
    {
      page: 'components/UserModal (edit)',
      method: 'PUT',
      path: '/users/:editedId',
      setup: async (_p, api) => {
        const editedId = await makeUser(api.admin);
        return { editedId, ...(await openedForm(api.admin, editedId)) };
      },
      body: (p: Params) => ({ ...JSON.parse(String(p.opened)), password: '', chatappId: p.chatappId, queueIds: [p.queueId], allUserChat: 'enabled' }),
      reads: ['id', 'queues[].id', 'chatappId', 'allUserChat'],
      emits: [{ event: 'user', action: 'update', reads: ['user.id', 'user.name', 'user.profile', 'user.queues[].id', 'user.allUserChat', 'user.company.id'] }],
      note:
        'The form sends the opened record back whole (read-only fields included) with `password: ""` for "unchanged"; ' +
        'hooks/useAuth replaces the signed-in user with `user` of the event when it is theirs.',
    },
    {
      page: 'components/UserModal (edit, super user on itself)',
      method: 'PUT',
      path: '/users/:superId',
      as: 'super',
      setup: async (p, api) => openedForm(api.super, p.superId),
      body: (p: Params) => ({ ...JSON.parse(String(p.opened)), password: '', chatappId: '', queueIds: [] }),
      reads: ['id', 'profile', 'super'],
      note: 'A super user reads `profile: "admin"` with `super: true` and sends both back: it stays a super user.',
    },
    {
      page: 'components/UserModal (avatar)',
      method: 'POST',
      path: '/users/:userId/media-upload',
      form: { fields: { userId: '0', typeArch: 'user' }, files: [{ field: 'profileImage', name: 'me.png', type: 'image/png', content: PNG }] },
      reads: ['user.profileImage'],
      emits: [{ event: 'user', action: 'update', reads: ['user.id', 'user.profileImage'] }],
      note: 'The client keeps `user.profileImage` and shows `<backend>/public/company<companyId>/user/<profileImage>`.',
    },
    {
      page: 'components/UserLanguageSelector',
      method: 'PUT',
      path: '/users/:userId',
      as: 'user',
      body: { language: 'en' },
      note: "The language is the client's own; the server ignores the field.",
    },
    {
      page: 'pages/Users (delete)',
      method: 'DELETE',
      path: '/users/:doomedId',
      setup: async (_p, api) => ({ doomedId: await makeUser(api.admin) }),
      emits: [{ event: 'user', action: 'delete', reads: ['userId'] }],
    },
    {
      page: 'components/CompaniesManager (first user)',
      method: 'GET',
      path: '/users/list',
      as: 'super',
      query: (p) => ({ companyId: p.companyId }),
      returns: 'array',
      reads: ['[].id', '[].name', '[].email'],
    },
    {
      page: 'components/ModalUsers (create)',
      method: 'POST',
      path: '/users',
      as: 'super',
      body: (p: Params) => ({ name: 'Gil Admin', email: 'gil@users.test', password: 'gil-pass-1234', profile: 'admin', companyId: p.companyId, queueIds: [] }),
      reads: ['id', 'companyId'],
    },
    {
      page: 'components/ModalUsers (edit)',
      method: 'PUT',
      path: '/users/:editedId',
      as: 'super',
      setup: async (_p, api) => {
        const editedId = await makeUser(api.admin, { profile: 'admin' });
        return { editedId, ...(await openedForm(api.super, editedId)) };
      },
      body: (p: Params) => ({ ...JSON.parse(String(p.opened)), password: '', companyId: p.companyId, queueIds: [p.queueId] }),
      reads: ['id', 'queues[].id'],
    },
  ],
} satisfies ClientCalls;
