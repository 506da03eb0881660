import type { ScreenStrings } from '../i18n/screen-strings.js';

/** The names of the screens in the navigation (`nav.tsx`), one key per entry of `SCREENS`, and the menu's. */
const en = {
  inbox: 'Inbox',
  connections: 'Connections',
  tags: 'Tags',
  users: 'Users',
  contacts: 'Contacts',
  queues: 'Queues',
  manage: 'Manage',
};

export const navStrings: ScreenStrings<typeof en> = {
  en,
  'pt-BR': { inbox: 'Atendimentos', connections: 'Conexões', tags: 'Etiquetas', users: 'Usuários', contacts: 'Contatos', queues: 'Filas', manage: 'Gerenciar' },
  es: { inbox: 'Atenciones', connections: 'Conexiones', tags: 'Etiquetas', users: 'Usuarios', contacts: 'Contactos', queues: 'Colas', manage: 'Administrar' },
};
