import type { ScreenStrings } from '../i18n/screen-strings.js';

/** The texts of who else views a conversation (`ticket-viewers.tsx`) and of marking it unread (`MarkUnreadButton`). */
const en = {
  /** One other viewer, then several (`names` is the list in the language's own words). */
  alsoViewingOne: '{{names}} is also viewing',
  alsoViewingMany: '{{names}} are also viewing',
  markUnread: 'Mark unread',
  markUnreadShortcut: 'Mark the conversation unread and go back to the list (in a conversation)',
};

export const presenceStrings: ScreenStrings<typeof en> = {
  en,
  'pt-BR': {
    alsoViewingOne: '{{names}} também está vendo',
    alsoViewingMany: '{{names}} também estão vendo',
    markUnread: 'Marcar como não lida',
    markUnreadShortcut: 'Marcar a conversa como não lida e voltar à lista (numa conversa)',
  },
  es: {
    alsoViewingOne: '{{names}} también está viendo',
    alsoViewingMany: '{{names}} también están viendo',
    markUnread: 'Marcar como no leída',
    markUnreadShortcut: 'Marcar la conversación como no leída y volver a la lista (en una conversación)',
  },
};

export const PRESENCE_NS = 'presence';
