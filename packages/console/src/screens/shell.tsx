import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { Dialog } from 'radix-ui';
import { type ReactNode, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useRealtimeState, useServices, useSession } from '../services.js';
import { must } from '../api/client.js';
import { isMuted, notificationsSupported, setMuted } from '../ui/notifications.js';
import { PREFERENCES_CHANGED } from '../ui/theme.js';
import { MainNav } from './nav.js';
import { AnnouncementBanner } from './platform/announcement-banner.js';
import { OverdueBanner } from './billing/overdue-banner.js';
import { isInboxPath, requestSearch } from './inbox-filters.js';
import { useScreenStrings } from '../i18n/screen-strings.js';
import { PRESENCE_NS, presenceStrings } from './presence-strings.js';

/**
 * The frame around every signed-in screen: navigation, the connection's state, the alerts' switch,
 * the shortcuts and the user. The language and the theme are chosen in the profile (the user's name).
 */
export function Shell({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const { t: presence } = useScreenStrings(PRESENCE_NS, presenceStrings);
  const services = useServices();
  const { session, api } = services;
  const user = useSession();
  const realtime = useRealtimeState();
  const navigate = useNavigate();
  const [help, setHelp] = useState(false);
  const userId = user?.user.id ?? 0;
  const [muted, setMutedState] = useState(() => isMuted(userId));
  const [permission, setPermission] = useState(() => (notificationsSupported() ? Notification.permission : 'denied'));

  // The profile screen mutes the alerts too: the top bar follows.
  useEffect(() => {
    const follow = () => setMutedState(isMuted(userId));
    window.addEventListener(PREFERENCES_CHANGED, follow);
    return () => window.removeEventListener(PREFERENCES_CHANGED, follow);
  }, [userId]);

  useEffect(() => {
    services.openTicket = (id) => void navigate({ to: '/tickets/$ticketId', params: { ticketId: String(id) } });
  }, [services, navigate]);

  // The tab's title counts the conversations waiting for the caller with unread messages: their open
  // ones and the pending ones they may take (as the server's visibility rule has it); refreshed with the lists.
  const unread = useQuery({
    queryKey: ['tickets', 'unread-count'],
    queryFn: () => must(api.GET('/tickets/count', { params: { query: { status: 'search', statusFilter: ['open', 'pending'], withUnreadMessages: 'true' } } })),
  });
  const unreadCount = unread.data?.count ?? 0;
  useEffect(() => {
    document.title = unreadCount > 0 ? `(${unreadCount}) ${t('app.name')}` : t('app.name');
  }, [unreadCount, t]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const target = e.target as HTMLElement | null;
      if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey) return;
      if (target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))) return;
      if (e.key === '?') setHelp(true);
      else if (e.key === '/' && !isInboxPath(window.location.pathname)) {
        // The inbox answers `/` itself; from any other screen it opens on its search.
        e.preventDefault();
        requestSearch(userId);
        void navigate({ to: '/tickets' });
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [userId, navigate]);

  return (
    <div className="shell">
      <a className="skip-link" href="#main">
        {t('app.skip')}
      </a>
      <header className="topbar">
        <span className="brand">{t('app.name')}</span>
        <MainNav />
        <span className={`realtime realtime-${realtime}`} role="status" aria-live="polite" data-testid="realtime-state">
          {t(`realtime.${realtime}`)}
        </span>
        {permission === 'default' ? (
          <button type="button" onClick={() => void Notification.requestPermission().then(setPermission)}>
            {t('nav.enableNotifications')}
          </button>
        ) : (
          <button
            type="button"
            aria-pressed={!muted}
            onClick={() => {
              setMuted(userId, !muted);
              setMutedState(!muted);
            }}
          >
            {muted ? t('nav.notificationsOff') : t('nav.notificationsOn')}
          </button>
        )}
        <button type="button" aria-label={t('nav.shortcuts')} onClick={() => setHelp(true)}>
          ?
        </button>
        <Link to="/profile" className="user-name" title={t('nav.profile')}>
          {user?.user.name}
        </Link>
        <button type="button" onClick={() => void session.signOut()}>
          {t('nav.signOut')}
        </button>
      </header>
      <AnnouncementBanner />
      <OverdueBanner />
      <main id="main" className="content" tabIndex={-1}>
        {children}
      </main>
      <Dialog.Root open={help} onOpenChange={setHelp}>
        <Dialog.Portal>
          <Dialog.Overlay className="overlay" />
          <Dialog.Content className="dialog">
            <Dialog.Title>{t('shortcuts.title')}</Dialog.Title>
            <Dialog.Description className="visually-hidden">{t('shortcuts.title')}</Dialog.Description>
            <p className="muted">{t('shortcuts.intro')}</p>
            <dl className="shortcuts" data-testid="shortcuts">
              <dt>
                <kbd>Alt</kbd>+<kbd>↓</kbd>
              </dt>
              <dd>{t('shortcuts.next')}</dd>
              <dt>
                <kbd>Alt</kbd>+<kbd>↑</kbd>
              </dt>
              <dd>{t('shortcuts.previous')}</dd>
              <dt>
                <kbd>r</kbd>
              </dt>
              <dd>{t('shortcuts.reply')}</dd>
              <dt>
                <kbd>u</kbd>
              </dt>
              <dd>{presence('markUnreadShortcut')}</dd>
              <dt>
                <kbd>/</kbd>
              </dt>
              <dd>{t('shortcuts.search')}</dd>
              <dt>
                <kbd>Enter</kbd>
              </dt>
              <dd>{t('shortcuts.send')}</dd>
              <dt>
                <kbd>Shift</kbd>+<kbd>Enter</kbd>
              </dt>
              <dd>{t('shortcuts.newLine')}</dd>
              <dt>
                <kbd>Esc</kbd>
              </dt>
              <dd>{t('shortcuts.close')}</dd>
              <dt>
                <kbd>?</kbd>
              </dt>
              <dd>{t('shortcuts.help')}</dd>
            </dl>
            <Dialog.Close asChild>
              <button type="button">{t('shortcuts.closeSheet')}</button>
            </Dialog.Close>
          </Dialog.Content>
        </Dialog.Portal>
      </Dialog.Root>
    </div>
  );
}
