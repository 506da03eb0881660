import { useQuery } from '@tanstack/react-query';
import { Dialog } from 'radix-ui';
import { useState } from 'react';
import { must, type Schema } from '../../api/client.js';
import { useScreenStrings } from '../../i18n/screen-strings.js';
import { keys } from '../../realtime/apply-frame.js';
import { useServices, useSession } from '../../services.js';
import { bannerStrings } from './banner-strings.js';
import './platform.css';

type Listed = Schema<'AnnouncementList'>[number];

const storageKey = (userId: number) => `announcements.dismissed.${userId}`;

/** The announcements this user dismissed (ids), remembered in this browser per user. */
function readDismissed(userId: number): number[] {
  try {
    const raw = JSON.parse(localStorage.getItem(storageKey(userId)) ?? '[]');
    return Array.isArray(raw) ? raw.filter((n): n is number => typeof n === 'number') : [];
  } catch {
    return [];
  }
}

/**
 * Whether the caller's company is shown an announcement now. Others get only those from the server;
 * a super user's list holds every announcement, inactive and out of window too.
 */
function shownNow(a: Listed, companyId: number, now: number): boolean {
  if (!a.status) return false;
  if (a.startsAt && Date.parse(a.startsAt) > now) return false;
  if (a.endsAt && Date.parse(a.endsAt) <= now) return false;
  return a.targetCompanyIds === null || a.targetCompanyIds.includes(companyId);
}

/**
 * The platform's announcements at the top of every signed-in screen: the most important one not yet
 * dismissed, and every current one in a list. Live: the `company-announcement` frames (create, update,
 * delete, a window opening or closing) refetch them.
 */
export function AnnouncementBanner() {
  const { t, i18n } = useScreenStrings('announcement-banner', bannerStrings);
  const { api } = useServices();
  const session = useSession();
  const userId = session?.user.id ?? 0;
  const companyId = session?.user.companyId ?? 0;
  const [dismissed, setDismissed] = useState(() => readDismissed(userId));
  const [listOpen, setListOpen] = useState(false);
  const current = useQuery({
    queryKey: [...keys.announcements, 'shown', companyId],
    queryFn: () => must(api.GET('/announcements/list', { params: { query: {} } })),
    select: (list) => list.filter((a) => shownNow(a, companyId, Date.now())),
    enabled: session !== null,
  });
  const shown = current.data ?? [];
  const top = shown.find((a) => !dismissed.includes(a.id));
  // The slot stays (empty) without announcements: the shell's rows do not shift.
  if (shown.length === 0) return <div className="announcement-slot" />;

  const dismiss = (id: number) => {
    // Only ids still shown are kept: the list does not grow with announcements long gone.
    const next = [...dismissed.filter((d) => shown.some((a) => a.id === d)), id];
    localStorage.setItem(storageKey(userId), JSON.stringify(next));
    setDismissed(next);
  };

  return (
    <div className="announcement-slot">
      {top && (
        <section className={`announcement-banner priority-${top.priority}`} aria-label={t('label')} data-testid="announcement-banner">
          <div className="announcement-body">
            <strong>{top.title}</strong>
            {top.text && <span className="announcement-text">{top.text}</span>}
          </div>
          <div className="announcement-actions">
            <button type="button" className="small" onClick={() => setListOpen(true)}>
              {t('all', { count: shown.length })}
            </button>
            <button type="button" className="small" aria-label={t('dismissLabel', { title: top.title })} onClick={() => dismiss(top.id)}>
              {t('dismiss')}
            </button>
          </div>
        </section>
      )}
      {!top && (
        <div className="announcement-reopen">
          <button type="button" className="small" onClick={() => setListOpen(true)}>
            {t('all', { count: shown.length })}
          </button>
        </div>
      )}
      <Dialog.Root open={listOpen} onOpenChange={setListOpen}>
        <Dialog.Portal>
          <Dialog.Overlay className="overlay" />
          <Dialog.Content className="dialog platform-dialog">
            <Dialog.Title>{t('listTitle')}</Dialog.Title>
            <Dialog.Description className="muted">{t('listIntro')}</Dialog.Description>
            {shown.length === 0 ? (
              <p className="placeholder">{t('none')}</p>
            ) : (
              <ul className="announcement-list" data-testid="announcement-list">
                {shown.map((a) => (
                  <li key={a.id}>
                    <h3>{a.title}</h3>
                    <p className="muted small-text">
                      {t(`priorities.${a.priority}`)} ·{' '}
                      {new Date(a.startsAt ?? a.createdAt).toLocaleString(i18n.language, { dateStyle: 'short', timeStyle: 'short' })}
                      {dismissed.includes(a.id) ? ` · ${t('dismissed')}` : ''}
                    </p>
                    {a.text && <p className="announcement-text">{a.text}</p>}
                    {a.mediaPath && a.mediaType?.startsWith('image/') && <img src={a.mediaPath} alt={a.mediaName ?? ''} className="announcement-media" />}
                    {a.mediaPath && (
                      <a href={a.mediaPath} target="_blank" rel="noreferrer">
                        {t('attachment', { name: a.mediaName ?? '' })}
                      </a>
                    )}
                  </li>
                ))}
              </ul>
            )}
            <Dialog.Close asChild>
              <button type="button">{t('close')}</button>
            </Dialog.Close>
          </Dialog.Content>
        </Dialog.Portal>
      </Dialog.Root>
    </div>
  );
}
