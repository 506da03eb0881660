import type { ScreenStrings } from '../../i18n/screen-strings.js';

/** The announcements banner's texts (every signed-in user sees it, so they load with the shell). */
const en = {
  label: 'Announcement',
  dismiss: 'Dismiss',
  dismissLabel: 'Dismiss the announcement {{title}}',
  all_one: 'All announcements ({{count}})',
  all_other: 'All announcements ({{count}})',
  listTitle: 'Announcements',
  listIntro: 'The platform’s current notices for your company, the most important first.',
  none: 'No announcement now.',
  dismissed: 'Dismissed',
  attachment: 'Open the attachment {{name}}',
  close: 'Close',
  priorities: { '1': 'High priority', '2': 'Medium priority', '3': 'Low priority' },
};

export const bannerStrings: ScreenStrings<typeof en> = {
  en,
  'pt-BR': {
    label: 'Informativo',
    dismiss: 'Dispensar',
    dismissLabel: 'Dispensar o informativo {{title}}',
    all_one: 'Todos os informativos ({{count}})',
    all_other: 'Todos os informativos ({{count}})',
    listTitle: 'Informativos',
    listIntro: 'Os avisos atuais da plataforma para a sua empresa, os mais importantes primeiro.',
    none: 'Nenhum informativo agora.',
    dismissed: 'Dispensado',
    attachment: 'Abrir o anexo {{name}}',
    close: 'Fechar',
    priorities: { '1': 'Prioridade alta', '2': 'Prioridade média', '3': 'Prioridade baixa' },
  },
  es: {
    label: 'Comunicado',
    dismiss: 'Descartar',
    dismissLabel: 'Descartar el comunicado {{title}}',
    all_one: 'Todos los comunicados ({{count}})',
    all_other: 'Todos los comunicados ({{count}})',
    listTitle: 'Comunicados',
    listIntro: 'Los avisos actuales de la plataforma para su empresa, los más importantes primero.',
    none: 'Ningún comunicado ahora.',
    dismissed: 'Descartado',
    attachment: 'Abrir el adjunto {{name}}',
    close: 'Cerrar',
    priorities: { '1': 'Prioridad alta', '2': 'Prioridad media', '3': 'Prioridad baja' },
  },
};
