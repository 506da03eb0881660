import { useQuery } from '@tanstack/react-query';
import { must } from '../../api/client.js';
import { useScreenStrings } from '../../i18n/screen-strings.js';
import { chatKeys } from '../../realtime/chat-frames.js';
import { useServices, useSession } from '../../services.js';
import './badge.css';

/** The most pages of chats the badge reads (20 each): past them it shows "99+" at most anyway. */
const MAX_PAGES = 10;

const en = { unreadChats_one: '{{count}} chat with unread messages', unreadChats_other: '{{count}} chats with unread messages' };
const strings = {
  en,
  'pt-BR': { unreadChats_one: '{{count}} chat com mensagens não lidas', unreadChats_other: '{{count}} chats com mensagens não lidas' },
  es: { unreadChats_one: '{{count}} chat con mensajes sin leer', unreadChats_other: '{{count}} chats con mensajes sin leer' },
};

/**
 * The nav's badge on "Chats": how many of the caller's chats hold messages they have not read.
 * Under `chats`, so every chat frame (a message, one's own read mark, a chat added or removed)
 * refetches it, and a resync too.
 */
export function ChatBadge() {
  const { t } = useScreenStrings('chat-badge', strings);
  const { api } = useServices();
  const me = useSession()?.user.id ?? 0;
  const unread = useQuery({
    queryKey: chatKeys.unread,
    queryFn: async () => {
      let count = 0;
      for (let pageNumber = 1; pageNumber <= MAX_PAGES; pageNumber++) {
        const page = await must(api.GET('/chats', { params: { query: { pageNumber } } }));
        count += page.records.filter((c) => (c.users.find((u) => u.userId === me)?.unreads ?? 0) > 0).length;
        if (!page.hasMore) break;
      }
      return count;
    },
    // A plan without internal chats answers 403: no badge, and no retries.
    retry: false,
  });
  const count = unread.data ?? 0;
  if (count === 0) return null;
  return (
    <span className="nav-badge" data-testid="chats-badge">
      <span aria-hidden="true">{count > 99 ? '99+' : count}</span>
      <span className="visually-hidden">{t('unreadChats', { count })}</span>
    </span>
  );
}
