import type { ClientCalls, Params } from '../client-call.js';

/**
 * Logging in and staying logged in, and what every page loads around it: the theme and the
 * login page's public settings (App, pages/Login), the version check (App, components/VersionControl),
 * the menu's plan features (layout/MainListItems), the current user (hooks/useAuth), sign-up
 * (pages/Signup).
 */
export default {
  area: 'session',
  calls: [
    {
      page: 'hooks/useAuth (login)', method: 'POST', path: '/auth/login', as: 'public',
      body: { email: 'carla@desk.test', password: 'admin-pass-123', rememberMe: false },
      reads: [
        'token', 'user.id', 'user.name', 'user.companyId', 'user.company.id', 'user.company.name', 'user.company.dueDate', 'user.profile',
        'user.super', 'user.profileImage', 'user.queues', 'user.allUserChat', 'user.allTicket', 'user.allowGroup', 'user.defaultMenu',
        'user.defaultTheme', 'user.showDashboard', 'user.allowRealTime', 'user.allowConnections', 'user.userClosePendingTicket',
      ],
      note: 'The client compares `profile` with `admin`/`user` (upper-cased: it must be a string), calls `allUserChat.toUpperCase()`, '
        + 'and lets the session in only while `company.dueDate` is ahead (company 1 excepted).',
    },
    {
      page: 'hooks/useAuth (login, operator)', method: 'POST', path: '/auth/login', as: 'public',
      body: { email: 'ana@desk.test', password: 'operator-pass-1', rememberMe: false },
      reads: ['token', 'user.id', 'user.profile', 'user.queues', 'user.allUserChat', 'user.company.id', 'user.company.dueDate'],
    },
    {
      page: 'pages/Login', method: 'POST', path: '/auth/login', as: 'public', status: 401,
      body: { email: 'carla@desk.test', password: 'wrong-password', rememberMe: false },
      reads: ['error'],
      note: 'A wrong password: the client shows the error toast (401 does not trigger its refresh retry, which is for 403).',
    },
    {
      page: 'hooks/useAuth (page load and 403 retry)', method: 'POST', path: '/auth/refresh_token', as: 'public',
      async setup(_p, api) {
        const res = await api.public.post('/auth/login', { email: 'carla@desk.test', password: 'admin-pass-123' });
        return { refreshCookie: (res.headers.get('set-cookie') ?? '').split(';')[0]! };
      },
      headers: (p) => ({ cookie: String(p.refreshCookie) }),
      reads: ['token', 'user.id', 'user.companyId', 'user.company.id', 'user.company.dueDate', 'user.profile', 'user.queues', 'user.allUserChat'],
      note: 'The client calls it with its cookie (axios `withCredentials`) on every page load and after any 403, then keeps the new token and user.',
    },
    {
      page: 'hooks/useAuth (getCurrentUserInfo)', method: 'GET', path: '/auth/me',
      reads: ['id', 'name', 'profile', 'super', 'companyId', 'company.id', 'queues'],
    },
    {
      page: 'hooks/useAuth (getCurrentUserInfo, super)', method: 'GET', path: '/auth/me', as: 'super',
      reads: ['id', 'profile', 'super'],
      note: 'The seeded super user reads `profile: "admin"` with `super: true` (the settings page shows its super tabs from `super`).',
    },
    {
      page: 'App (theme)', method: 'GET', path: '/public-settings/primaryColorLight', as: 'public', query: { token: 'wtV' }, returns: 'string',
      note: 'The client takes `data` as the colour itself.',
    },
    { page: 'App (theme)', method: 'GET', path: '/public-settings/primaryColorDark', as: 'public', query: { token: 'wtV' }, returns: 'string' },
    {
      page: 'App (logos)', method: 'GET', path: '/public-settings/appLogoLight', as: 'public', query: { token: 'wtV' }, returns: 'string',
      note: 'Unset: `""`, so the client keeps its bundled logo; set: the path it appends to `<backend>/public/`.',
    },
    { page: 'App (logos)', method: 'GET', path: '/public-settings/appLogoDark', as: 'public', query: { token: 'wtV' }, returns: 'string' },
    { page: 'App (logos)', method: 'GET', path: '/public-settings/appLogoFavicon', as: 'public', query: { token: 'wtV' }, returns: 'string' },
    { page: 'App (name)', method: 'GET', path: '/public-settings/appName', as: 'public', query: { token: 'wtV' }, returns: 'string' },
    {
      page: 'pages/Login', method: 'GET', path: '/public-settings/allowSignup', as: 'public', query: { token: 'wtV' }, returns: 'string',
      note: 'Compared with `"enabled"` to show the sign-up link: the platform setting `userCreation`.',
    },
    { page: 'App (version)', method: 'GET', path: '/version', as: 'public', reads: ['version'] },
    {
      page: 'components/VersionControl', method: 'POST', path: '/version', body: { version: '2.2.2v-26' },
      note: 'The client sends its package.json version (not always a strict semantic version) and ignores the answer.',
    },
    {
      page: 'layout/MainListItems', method: 'GET', path: '/companies/listPlan/:companyId',
      reads: ['plan.useCampaigns', 'plan.useKanban', 'plan.useOpenAi', 'plan.useIntegrations', 'plan.useSchedules', 'plan.useInternalChat', 'plan.useExternalApi'],
    },
    {
      page: 'layout/MainListItems (operator)', method: 'GET', path: '/companies/listPlan/:companyId', as: 'user',
      reads: ['plan.useCampaigns', 'plan.useKanban'],
    },
    {
      page: 'layout (license check)', method: 'GET', path: '/setting/wtV', status: 404,
      note: 'The layout asks for a setting named `wtV` on every render and ignores the result either way; no such setting exists.',
    },
    {
      page: 'pages/Signup', method: 'GET', path: '/plans/list', as: 'public', query: { listPublic: 'false' },
      returns: 'array', reads: ['[].id', '[].name', '[].users', '[].connections', '[].queues', '[].amount'],
    },
    {
      page: 'pages/Signup', method: 'POST', path: '/auth/signup', as: 'public',
      body: (p: Params) => ({
        name: 'Rita Lima', email: 'rita@signup.test', password: 'signup-pass-1', phone: '5511988887777', companyId: null,
        companyName: 'Lima Atendimento', planId: p.planId,
      }),
      note: 'The client sends the form as is (`companyId` from the query string, usually null) and only checks for success.',
    },
    {
      page: 'hooks/useAuth (logout)', method: 'DELETE', path: '/auth/logout', as: 'super',
      note: 'The client awaits it, then forgets the token.',
    },
  ],
} satisfies ClientCalls;
