import { useEffect, useMemo, useSyncExternalStore } from 'react';
import { shouldAnswer, ticketViewersOf, VIEWER_ANNOUNCE_MS, VIEWER_SWEEP_MS } from '../realtime/ticket-viewers.js';
import { useScreenStrings } from '../i18n/screen-strings.js';
import { useServices, useSession } from '../services.js';
import { initials } from '../ui/format.js';
import { PRESENCE_NS, presenceStrings } from './presence-strings.js';
import './ticket-viewers.css';

/**
 * While a conversation is shown: announces the caller as its viewer (at once, every
 * `VIEWER_ANNOUNCE_MS`, after each reconnect, and once more when a viewer it did not know arrives),
 * and says it left when the conversation is closed.
 */
function useViewerAnnouncements(ticketId: number, me: number | null) {
  const services = useServices();
  const store = ticketViewersOf(services.queryClient);
  useEffect(() => {
    const announce = () => services.realtime?.send('joinChatBox', ticketId);
    announce();
    const every = setInterval(announce, VIEWER_ANNOUNCE_MS);
    const sweep = setInterval(() => store.expire(), VIEWER_SWEEP_MS);
    let live = services.realtime?.state === 'live';
    const onState = () => {
      const now = services.realtime?.state === 'live';
      if (now && !live) announce();
      live = now;
    };
    services.realtimeListeners.add(onState);
    const off = store.subscribe((change) => {
      if (shouldAnswer(change, ticketId, me)) announce();
    });
    return () => {
      clearInterval(every);
      clearInterval(sweep);
      services.realtimeListeners.delete(onState);
      off();
      services.realtime?.send('joinChatBoxLeave', ticketId);
    };
  }, [services, store, ticketId, me]);
}

/** The other operators who have this conversation open, in its header ("Bia is also viewing"); nothing when none. */
export function TicketViewers({ ticketId }: { ticketId: number }) {
  const { t, i18n } = useScreenStrings(PRESENCE_NS, presenceStrings);
  const { queryClient } = useServices();
  const me = useSession()?.user.id ?? null;
  const store = ticketViewersOf(queryClient);
  useViewerAnnouncements(ticketId, me);
  const revision = useSyncExternalStore(
    (change) => store.subscribe(change),
    () => store.revision,
  );
  // biome-ignore lint/correctness/useExhaustiveDependencies: the store is read again at each of its revisions
  const viewers = useMemo(() => store.of(ticketId, me), [store, ticketId, me, revision]);
  const names = useMemo(
    () => new Intl.ListFormat(i18n.language, { style: 'long', type: 'conjunction' }).format(viewers.map((v) => v.userName)),
    [viewers, i18n.language],
  );
  return (
    <div className="ticket-viewers" role="status" data-testid="ticket-viewers">
      {viewers.length > 0 && (
        <>
          <ul className="viewer-avatars" aria-hidden="true">
            {viewers.map((v) => (
              <li key={v.userId} className="viewer-avatar" title={v.userName} data-testid="ticket-viewer">
                {initials(v.userName)}
              </li>
            ))}
          </ul>
          <span className="viewer-names">{t(viewers.length === 1 ? 'alsoViewingOne' : 'alsoViewingMany', { names })}</span>
        </>
      )}
    </div>
  );
}
