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
/** The Manage menu's groups, in their order. */
const MENU_GROUPS = ['conversations', 'automation', 'sales', 'company', 'platform'] as const;
type MenuGroup = (typeof MENU_GROUPS)[number];
type PlanFeature = keyof Pick<Schema<'Plan'>, 'useKanban' | 'useCampaigns' | 'useSchedules' | 'useInternalChat' | 'useOpenAi' | 'useIntegrations'>;

/** Who sees an entry: everyone signed in, or the company's admins (and the platform's super users). */
export const everyone = (_user: User) => true;
export const admins = (user: User) => user.profile === 'admin' || user.super === true;
/** The platform's super users alone (the platform screens). */
export const supers = (user: User) => user.super === true;

/**
 * The screens reachable from the top bar, in one list: the `main` group as links, the others in a
 * "Manage" menu under their group's heading (the order here is the menu's), each shown to whom it
 * concerns (`visible`) and, for a screen of a plan feature (`feature`), only when the company's plan
 * has it (the server refuses the rest with `ERR_PLAN_FEATURE_DISABLED`). A new screen adds its route
 * in router.tsx, its entry here and its name in nav-strings.ts.
 */
export const SCREENS = [
  { key: 'inbox', to: '/tickets', group: 'main', visible: everyone },
  { key: 'connections', to: '/connections', group: 'main', visible: everyone },
  { key: 'kanban', to: '/kanban', group: 'main', visible: everyone, feature: 'useKanban' },
  { key: 'chats', to: '/chats', group: 'main', visible: everyone, feature: 'useInternalChat' },
  { key: 'dashboard', to: '/dashboard', group: 'main', visible: everyone },
  { key: 'contacts', to: '/contacts', group: 'conversations', visible: everyone },
  { key: 'tags', to: '/tags', group: 'conversations', visible: everyone },
  { key: 'templates', to: '/templates', group: 'conversations', visible: everyone },
  { key: 'schedules', to: '/schedules', group: 'conversations', visible: everyone, feature: 'useSchedules' },
  { key: 'scheduledMessages', to: '/scheduled-messages', group: 'conversations', visible: everyone, feature: 'useSchedules' },
  { key: 'fileLists', to: '/files', group: 'conversations', visible: admins },
  { key: 'queues', to: '/queues', group: 'automation', visible: admins },
  { key: 'flows', to: '/flows', group: 'automation', visible: admins },
  { key: 'prompts', to: '/prompts', group: 'automation', visible: admins, feature: 'useOpenAi' },
  { key: 'queueIntegrations', to: '/queue-integrations', group: 'automation', visible: admins, feature: 'useIntegrations' },
  { key: 'contactLists', to: '/contact-lists', group: 'automation', visible: admins, feature: 'useCampaigns' },
  { key: 'campaigns', to: '/campaigns', group: 'automation', visible: admins, feature: 'useCampaigns' },
  { key: 'catalog', to: '/catalog', group: 'sales', visible: everyone },
  { key: 'orders', to: '/orders', group: 'sales', visible: everyone },
  { key: 'users', to: '/users', group: 'company', visible: admins },
  { key: 'settings', to: '/settings', group: 'company', visible: admins },
  { key: 'reports', to: '/reports', group: 'company', visible: admins },
  { key: 'transcription', to: '/transcription', group: 'company', visible: admins, feature: 'useOpenAi' },
  { key: 'billing', to: '/billing', group: 'company', visible: admins },
  { key: 'proxies', to: '/proxies', group: 'company', visible: admins },
  { key: 'storage', to: '/storage', group: 'company', visible: admins },
  { key: 'platformCompanies', to: '/platform/companies', group: 'platform', visible: supers },
  { key: 'platformPlans', to: '/platform/plans', group: 'platform', visible: supers },
  { key: 'platformAnnouncements', to: '/platform/announcements', group: 'platform', visible: supers },
] as const satisfies ReadonlyArray<{ key: string; to: string; group: 'main' | MenuGroup; visible: (user: User) => boolean; feature?: PlanFeature }>;

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
  const groups = MENU_GROUPS.map((g) => ({ group: g, screens: shown.filter((s) => s.group === g) })).filter((g) => g.screens.length > 0);
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
      {groups.length > 0 && (
        <DropdownMenu.Root>
          <DropdownMenu.Trigger asChild>
            <button type="button" className="nav-menu">
              {t('manage')} <span aria-hidden="true">▾</span>
            </button>
          </DropdownMenu.Trigger>
          <DropdownMenu.Portal>
            <DropdownMenu.Content className="menu" align="start" sideOffset={4}>
              {groups.map(({ group, screens }) => (
                <DropdownMenu.Group key={group} aria-labelledby={`menu-group-${group}`}>
                  <DropdownMenu.Label id={`menu-group-${group}`} className="menu-label">
                    {t(`groups.${group}`)}
                  </DropdownMenu.Label>
                  {screens.map((s) => (
                    <DropdownMenu.Item key={s.key} asChild>
                      <Link to={s.to} className="menu-item" activeProps={{ 'aria-current': 'page' }}>
                        {t(s.key)}
                      </Link>
                    </DropdownMenu.Item>
                  ))}
                </DropdownMenu.Group>
              ))}
            </DropdownMenu.Content>
          </DropdownMenu.Portal>
        </DropdownMenu.Root>
      )}
    </nav>
  );
}
