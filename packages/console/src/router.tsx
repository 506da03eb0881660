import { createRootRoute, createRoute, createRouter, Navigate, Outlet } from '@tanstack/react-router';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { useSession } from './services.js';
import { Shell } from './screens/shell.js';
import { dashboardScreen, inboxScreen } from './screens/preload.js';
import { SignIn } from './screens/sign-in.js';
import { ForgotPassword } from './screens/password-reset/forgot-password.js';
import { ResetPassword } from './screens/password-reset/reset-password.js';
import { SignUp } from './screens/signup/signup.js';

// Screens other than the inbox load when first opened: the first page stays small.
const Connections = lazy(() => import('./screens/connections.js').then((m) => ({ default: m.Connections })));
const Tags = lazy(() => import('./screens/tags/tags.js').then((m) => ({ default: m.Tags })));
const Users = lazy(() => import('./screens/users/users.js').then((m) => ({ default: m.Users })));
const Contacts = lazy(() => import('./screens/contacts/contacts.js').then((m) => ({ default: m.Contacts })));
const Queues = lazy(() => import('./screens/queues/queues.js').then((m) => ({ default: m.Queues })));
const QueueIntegrations = lazy(() => import('./screens/queue-integrations/queue-integrations.js').then((m) => ({ default: m.QueueIntegrations })));
const Kanban = lazy(() => import('./screens/kanban/kanban.js').then((m) => ({ default: m.Kanban })));
const Settings = lazy(() => import('./screens/settings/settings.js').then((m) => ({ default: m.Settings })));
const Companies = lazy(() => import('./screens/platform/companies.js').then((m) => ({ default: m.Companies })));
const Plans = lazy(() => import('./screens/platform/plans.js').then((m) => ({ default: m.Plans })));
const Announcements = lazy(() => import('./screens/platform/announcements.js').then((m) => ({ default: m.Announcements })));
const Chats = lazy(() => import('./screens/chats/chats.js').then((m) => ({ default: m.Chats })));
const Transcription = lazy(() => import('./screens/transcription/transcription.js').then((m) => ({ default: m.Transcription })));
const Profile = lazy(() => import('./screens/profile/profile.js').then((m) => ({ default: m.Profile })));
const Schedules = lazy(() => import('./screens/schedules/schedules.js').then((m) => ({ default: m.Schedules })));
const ScheduledMessages = lazy(() => import('./screens/scheduled-messages/scheduled-messages.js').then((m) => ({ default: m.ScheduledMessages })));
const Reports = lazy(() => import('./screens/reports/reports.js').then((m) => ({ default: m.Reports })));
const ContactLists = lazy(() => import('./screens/contact-lists/contact-lists.js').then((m) => ({ default: m.ContactLists })));
const Campaigns = lazy(() => import('./screens/campaigns/campaigns.js').then((m) => ({ default: m.Campaigns })));
const Templates = lazy(() => import('./screens/templates/templates.js').then((m) => ({ default: m.Templates })));
const Billing = lazy(() => import('./screens/billing/billing.js').then((m) => ({ default: m.Billing })));
const Flows = lazy(() => import('./screens/flows/flows.js').then((m) => ({ default: m.Flows })));
const FlowEditor = lazy(() => import('./screens/flows/flow-editor.js').then((m) => ({ default: m.FlowEditor })));
const Prompts = lazy(() => import('./screens/prompts/prompts.js').then((m) => ({ default: m.Prompts })));
const FileLists = lazy(() => import('./screens/files/files.js').then((m) => ({ default: m.FileLists })));
const Catalog = lazy(() => import('./screens/catalog/catalog.js').then((m) => ({ default: m.Catalog })));
const Orders = lazy(() => import('./screens/orders/orders.js').then((m) => ({ default: m.Orders })));
const Proxies = lazy(() => import('./screens/proxies/proxies.js').then((m) => ({ default: m.Proxies })));
const Storage = lazy(() => import('./screens/storage/storage.js').then((m) => ({ default: m.Storage })));
const Inbox = inboxScreen.Screen;
const Dashboard = dashboardScreen.Screen;

function Loading() {
  const { t } = useTranslation();
  return (
    <p className="loading" role="status">
      {t('app.loading')}
    </p>
  );
}

/** The signed-in part: without a session, the sign-in page (coming back here afterwards). */
function Authed() {
  const session = useSession();
  if (!session) return <Navigate to="/login" search={{ next: window.location.pathname.replace(/^\/app/, '') || '/' }} replace />;
  return (
    <Shell>
      <Suspense fallback={<Loading />}>
        <Outlet />
      </Suspense>
    </Shell>
  );
}

const root = createRootRoute({ component: () => <Outlet /> });

const login = createRoute({
  getParentRoute: () => root,
  path: '/login',
  validateSearch: (search: Record<string, unknown>): { next?: string } =>
    typeof search.next === 'string' && search.next.startsWith('/') ? { next: search.next } : {},
  component: SignIn,
});

const forgotPassword = createRoute({ getParentRoute: () => root, path: '/forgot-password', component: ForgotPassword });
const signup = createRoute({ getParentRoute: () => root, path: '/signup', component: SignUp });
const resetPassword = createRoute({
  getParentRoute: () => root,
  path: '/reset-password',
  validateSearch: (search: Record<string, unknown>): { token?: string } => (typeof search.token === 'string' && search.token ? { token: search.token } : {}),
  component: ResetPassword,
});

const authed = createRoute({ getParentRoute: () => root, id: 'authed', component: Authed });
const home = createRoute({ getParentRoute: () => authed, path: '/', component: () => <Navigate to="/tickets" replace /> });
const tickets = createRoute({ getParentRoute: () => authed, path: '/tickets', component: () => <Inbox ticketId={null} /> });
const ticket = createRoute({
  getParentRoute: () => authed,
  path: '/tickets/$ticketId',
  component: function TicketRoute() {
    const { ticketId } = ticket.useParams();
    const id = Number(ticketId);
    return <Inbox ticketId={Number.isInteger(id) && id > 0 ? id : null} />;
  },
});
const connections = createRoute({ getParentRoute: () => authed, path: '/connections', component: Connections });
const tags = createRoute({ getParentRoute: () => authed, path: '/tags', component: Tags });
const users = createRoute({ getParentRoute: () => authed, path: '/users', component: Users });
const contacts = createRoute({ getParentRoute: () => authed, path: '/contacts', component: Contacts });
const queues = createRoute({ getParentRoute: () => authed, path: '/queues', component: Queues });
const queueIntegrations = createRoute({ getParentRoute: () => authed, path: '/queue-integrations', component: QueueIntegrations });
const kanban = createRoute({ getParentRoute: () => authed, path: '/kanban', component: Kanban });
const settings = createRoute({ getParentRoute: () => authed, path: '/settings', component: Settings });
const platformCompanies = createRoute({ getParentRoute: () => authed, path: '/platform/companies', component: Companies });
const platformPlans = createRoute({ getParentRoute: () => authed, path: '/platform/plans', component: Plans });
const platformAnnouncements = createRoute({ getParentRoute: () => authed, path: '/platform/announcements', component: Announcements });
const chats = createRoute({ getParentRoute: () => authed, path: '/chats', component: () => <Chats chatId={null} /> });
const chat = createRoute({
  getParentRoute: () => authed,
  path: '/chats/$chatId',
  component: function ChatRoute() {
    const { chatId } = chat.useParams();
    const id = Number(chatId);
    return <Chats chatId={Number.isInteger(id) && id > 0 ? id : null} />;
  },
});
const transcription = createRoute({ getParentRoute: () => authed, path: '/transcription', component: Transcription });
const dashboard = createRoute({ getParentRoute: () => authed, path: '/dashboard', component: Dashboard });
const schedules = createRoute({ getParentRoute: () => authed, path: '/schedules', component: Schedules });
const scheduledMessages = createRoute({ getParentRoute: () => authed, path: '/scheduled-messages', component: ScheduledMessages });
const reports = createRoute({ getParentRoute: () => authed, path: '/reports', component: Reports });
const contactLists = createRoute({ getParentRoute: () => authed, path: '/contact-lists', component: ContactLists });
const campaigns = createRoute({ getParentRoute: () => authed, path: '/campaigns', component: Campaigns });
const templates = createRoute({ getParentRoute: () => authed, path: '/templates', component: Templates });
const billing = createRoute({ getParentRoute: () => authed, path: '/billing', component: Billing });
const flows = createRoute({ getParentRoute: () => authed, path: '/flows', component: Flows });
const flow = createRoute({
  getParentRoute: () => authed,
  path: '/flows/$flowId',
  component: function FlowRoute() {
    const { flowId } = flow.useParams();
    const id = Number(flowId);
    return <FlowEditor flowId={Number.isInteger(id) && id > 0 ? id : null} />;
  },
});
const catalog = createRoute({ getParentRoute: () => authed, path: '/catalog', component: Catalog });
const orders = createRoute({ getParentRoute: () => authed, path: '/orders', component: Orders });
const proxies = createRoute({ getParentRoute: () => authed, path: '/proxies', component: Proxies });
const storage = createRoute({ getParentRoute: () => authed, path: '/storage', component: Storage });
const profile = createRoute({ getParentRoute: () => authed, path: '/profile', component: Profile });
const prompts = createRoute({ getParentRoute: () => authed, path: '/prompts', component: Prompts });
const fileLists = createRoute({ getParentRoute: () => authed, path: '/files', component: FileLists });

const routeTree = root.addChildren([
  login,
  forgotPassword,
  signup,
  resetPassword,
  authed.addChildren([
    home,
    tickets,
    ticket,
    connections,
    tags,
    users,
    contacts,
    queues,
    queueIntegrations,
    settings,
    kanban,
    chats,
    chat,
    profile,
    proxies,
    storage,
    catalog,
    orders,
    prompts,
    fileLists,
    contactLists,
    campaigns,
    templates,
    billing,
    flows,
    flow,
    dashboard,
    reports,
    schedules,
    scheduledMessages,
    transcription,
    platformCompanies,
    platformPlans,
    platformAnnouncements,
  ]),
]);

export const router = createRouter({ routeTree, basepath: '/app', defaultPreload: 'intent' });

declare module '@tanstack/react-router' {
  interface Register {
    router: typeof router;
  }
}
