import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { must } from '../api/client.js';
import { keys } from '../realtime/apply-frame.js';
import { useServices, useSession } from '../services.js';
import { errorText } from '../ui/errors.js';
import { ConfirmDialog } from '../ui/form.js';
import { useMessageActionStrings } from './message-actions.js';

type Closable = 'open' | 'pending' | 'group';

/**
 * "Close all" of an inbox tab (`POST /tickets/closeAll` with the tab): admins close every active
 * ticket of the company in it, users the unassigned ones and their own; no farewell goes out. The
 * question says how many, counted as the route sees them (`GET /tickets/count`, every queue).
 */
export function CloseAllButton({ tab }: { tab: Closable }) {
  const { t } = useMessageActionStrings();
  const { api, queryClient } = useServices();
  const session = useSession();
  const admin = session?.user.profile === 'admin';
  const [asking, setAsking] = useState(false);
  const [closed, setClosed] = useState<number | null>(null);
  const count = useQuery({
    queryKey: [...keys.tickets, 'count', 'closeAll', tab, admin],
    queryFn: () => must(api.GET('/tickets/count', { params: { query: { status: tab, ...(admin ? { showAll: 'true' as const } : {}) } } })),
    enabled: asking,
  });
  const closeAll = useMutation({
    mutationFn: () => must(api.POST('/tickets/closeAll', { body: { status: tab } })),
    onSuccess: (result) => {
      setClosed(result.closed);
      setAsking(false);
      void queryClient.invalidateQueries({ queryKey: keys.tickets });
      void queryClient.invalidateQueries({ queryKey: ['ticket'] });
    },
  });
  const tabName = t(`tab.${tab}`);
  const n = count.data?.count;
  return (
    <>
      <button
        type="button"
        className="small"
        data-testid="close-all"
        onClick={() => {
          closeAll.reset();
          setClosed(null);
          setAsking(true);
        }}
      >
        {t('closeAll')}
      </button>
      <span role="status" className="muted small-text">
        {closed !== null ? t('closedMany', { count: closed }) : ''}
      </span>
      {asking && (
        <ConfirmDialog
          stayOpen
          title={t('closeAllTitle')}
          description={n === undefined ? '…' : n === 0 ? t('closeAllNone', { tab: tabName }) : t('closeAllCount', { count: n, tab: tabName })}
          confirmLabel={t('confirmCloseAll')}
          onConfirm={() => closeAll.mutate()}
          onClose={() => setAsking(false)}
          pending={closeAll.isPending || n === undefined || n === 0}
          error={closeAll.error ? errorText(t, closeAll.error) : count.error ? errorText(t, count.error) : null}
        />
      )}
    </>
  );
}
