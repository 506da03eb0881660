import type { ScreenStrings } from '../i18n/screen-strings.js';

/** The names of the screens in the navigation (`nav.tsx`), one key per entry of `SCREENS`, and the menu's. */
const en = {
  inbox: 'Inbox',
  connections: 'Connections',
  kanban: 'Kanban',
  tags: 'Tags',
  users: 'Users',
  contacts: 'Contacts',
  queues: 'Queues',
  queueIntegrations: 'Integrations',
  settings: 'Settings',
  platformCompanies: 'Companies (platform)',
  platformPlans: 'Plans (platform)',
  platformAnnouncements: 'Announcements (platform)',
  manage: 'Manage',
};

export const navStrings: ScreenStrings<typeof en> = {
  en,
  'pt-BR': {
    inbox: 'Atendimentos',
    connections: 'Conexões',
    kanban: 'Kanban',
    tags: 'Etiquetas',
    users: 'Usuários',
    contacts: 'Contatos',
    queues: 'Filas',
    queueIntegrations: 'Integrações',
    settings: 'Configurações',
    platformCompanies: 'Empresas (plataforma)',
    platformPlans: 'Planos (plataforma)',
    platformAnnouncements: 'Informativos (plataforma)',
    manage: 'Gerenciar',
  },
  es: {
    inbox: 'Atenciones',
    connections: 'Conexiones',
    kanban: 'Kanban',
    tags: 'Etiquetas',
    users: 'Usuarios',
    contacts: 'Contactos',
    queues: 'Colas',
    queueIntegrations: 'Integraciones',
    settings: 'Configuración',
    platformCompanies: 'Empresas (plataforma)',
    platformPlans: 'Planes (plataforma)',
    platformAnnouncements: 'Comunicados (plataforma)',
    manage: 'Administrar',
  },
};
