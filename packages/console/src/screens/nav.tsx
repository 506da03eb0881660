import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { DropdownMenu } from 'radix-ui';
import { must, type Schema } from '../api/client.js';
import { useScreenStrings } from '../i18n/screen-strings.js';
import { keys } from '../realtime/apply-frame.js';
import type { SessionState } from '../session/session.js';
import { useServices, useSession } from '../services.js';
import { ChatBadge } from './chats/badge.js';
import { navStrings } from './nav-strings.js';
import './nav.css';

type User = SessionState['user'];
type PlanFeature = keyof Pick<Schema<'Plan'>, 'useKanban' | 'useCampaigns' | 'useSchedules' | 'useInternalChat' | 'useOpenAi' | 'useIntegrations'>;

/** Who sees an entry: everyone signed in, or the company's admins (and the platform's super users). */
export const everyone = (_user: User) => true;
export const admins = (user: User) => user.profile === 'admin' || user.super === true;
/** The platform's super users alone (the platform screens). */
export const supers = (user: User) => user.super === true;

/**
 * The screens reachable from the top bar, in one list: the first group as links, the others in a
 * "Manage" menu, each shown to whom it concerns (`visible`) and, for a screen of a plan feature
 * (`feature`), only when the company's plan has it (the server refuses the rest with
 * `ERR_PLAN_FEATURE_DISABLED`). A new screen adds its route in router.tsx, its entry here and its
 * name in nav-strings.ts.
 */
export const SCREENS = [
  { key: 'inbox', to: '/tickets', group: 'main', visible: everyone },
  { key: 'connections', to: '/connections', group: 'main', visible: everyone },
  { key: 'kanban', to: '/kanban', group: 'main', visible: everyone, feature: 'useKanban' },
  { key: 'chats', to: '/chats', group: 'main', visible: everyone, feature: 'useInternalChat' },
  { key: 'dashboard', to: '/dashboard', group: 'main', visible: everyone },
  { key: 'tags', to: '/tags', group: 'manage', visible: everyone },
  { key: 'users', to: '/users', group: 'manage', visible: admins },
  { key: 'contacts', to: '/contacts', group: 'manage', visible: everyone },
  { key: 'schedules', to: '/schedules', group: 'manage', visible: everyone, feature: 'useSchedules' },
  { key: 'contactLists', to: '/contact-lists', group: 'manage', visible: admins, feature: 'useCampaigns' },
  { key: 'campaigns', to: '/campaigns', group: 'manage', visible: admins, feature: 'useCampaigns' },
  { key: 'queues', to: '/queues', group: 'manage', visible: admins },
  { key: 'queueIntegrations', to: '/queue-integrations', group: 'manage', visible: admins, feature: 'useIntegrations' },
  { key: 'settings', to: '/settings', group: 'manage', visible: admins },
  { key: 'reports', to: '/reports', group: 'manage', visible: admins },
  { key: 'transcription', to: '/transcription', group: 'manage', visible: admins, feature: 'useOpenAi' },
  { key: 'platformCompanies', to: '/platform/companies', group: 'manage', visible: supers },
  { key: 'platformPlans', to: '/platform/plans', group: 'manage', visible: supers },
  { key: 'platformAnnouncements', to: '/platform/announcements', group: 'manage', visible: supers },
] as const satisfies ReadonlyArray<{ key: string; to: string; group: 'main' | 'manage'; visible: (user: User) => boolean; feature?: PlanFeature }>;

/** The caller's company plan (`GET /companies/listPlan/:id`, refetched with the company's frame); undefined until read. */
export function useCompanyPlan() {
  const session = useSession();
  const { api } = useServices();
  const companyId = session?.user.companyId;
  return useQuery({
    queryKey: [...keys.company(companyId ?? 0), 'plan'],
    queryFn: () => must(api.GET('/companies/listPlan/{id}', { params: { path: { id: companyId! } } })),
    enabled: companyId !== undefined,
    select: (company) => company.plan,
  });
}

export function MainNav() {
  const { t } = useScreenStrings('nav', navStrings);
  const session = useSession();
  const plan = useCompanyPlan();
  if (!session) return null;
  // Until the plan is read (or if it cannot be), every entry shows: the server still refuses what the plan lacks.
  const offered = (s: (typeof SCREENS)[number]) => !('feature' in s) || !plan.data || plan.data[s.feature] !== false;
  const shown = SCREENS.filter((s) => s.visible(session.user) && offered(s));
  const manage = shown.filter((s) => s.group === 'manage');
  return (
    <nav aria-label={t('nav.main', { ns: 'translation' })} className="main-nav">
      {shown
        .filter((s) => s.group === 'main')
        .map((s) => (
          <Link key={s.key} to={s.to} activeProps={{ 'aria-current': 'page' }}>
            {t(s.key)}
            {s.key === 'chats' && <ChatBadge />}
          </Link>
        ))}
      {manage.length > 0 && (
        <DropdownMenu.Root>
          <DropdownMenu.Trigger asChild>
            <button type="button" className="nav-menu">
              {t('manage')} <span aria-hidden="true">▾</span>
            </button>
          </DropdownMenu.Trigger>
          <DropdownMenu.Portal>
            <DropdownMenu.Content className="menu" align="start" sideOffset={4}>
              {manage.map((s) => (
                <DropdownMenu.Item key={s.key} asChild>
                  <Link to={s.to} className="menu-item" activeProps={{ 'aria-current': 'page' }}>
                    {t(s.key)}
                  </Link>
                </DropdownMenu.Item>
              ))}
            </DropdownMenu.Content>
          </DropdownMenu.Portal>
        </DropdownMenu.Root>
      )}
    </nav>
  );
}
