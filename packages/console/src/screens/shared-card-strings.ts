import type { ScreenStrings } from '../i18n/screen-strings.js';

/** The texts of a location or contact card a contact shared, in the conversation (`shared-cards.tsx`). */
const en = {
  location: {
    /** The card's accessible name. */
    label: 'Location: {{name}}',
    untitled: 'Shared location',
    coordinates: 'Latitude {{latitude}}, longitude {{longitude}}',
    openMap: 'Open in OpenStreetMap',
    page: "The place's page",
  },
  contact: {
    label: 'Contact card: {{name}}',
    numbers: 'Numbers',
    noNumber: 'No number on this card.',
    copy: 'Copy',
    copyNumber: 'Copy {{number}}',
    copied: '{{number}} copied',
    copyFailed: 'Could not copy: select the number instead',
    start: 'Start a conversation',
    starting: 'Opening the conversation…',
    startWith: 'Start a conversation with {{name}}',
  },
  newTab: '(opens in a new tab)',
};

export const sharedCardStrings: ScreenStrings<typeof en> = {
  en,
  'pt-BR': {
    location: {
      label: 'Localização: {{name}}',
      untitled: 'Localização compartilhada',
      coordinates: 'Latitude {{latitude}}, longitude {{longitude}}',
      openMap: 'Abrir no OpenStreetMap',
      page: 'Página do local',
    },
    contact: {
      label: 'Cartão de contato: {{name}}',
      numbers: 'Números',
      noNumber: 'Nenhum número neste cartão.',
      copy: 'Copiar',
      copyNumber: 'Copiar {{number}}',
      copied: '{{number}} copiado',
      copyFailed: 'Não foi possível copiar: selecione o número',
      start: 'Iniciar conversa',
      starting: 'Abrindo a conversa…',
      startWith: 'Iniciar conversa com {{name}}',
    },
    newTab: '(abre em uma nova aba)',
  },
  es: {
    location: {
      label: 'Ubicación: {{name}}',
      untitled: 'Ubicación compartida',
      coordinates: 'Latitud {{latitude}}, longitud {{longitude}}',
      openMap: 'Abrir en OpenStreetMap',
      page: 'Página del lugar',
    },
    contact: {
      label: 'Tarjeta de contacto: {{name}}',
      numbers: 'Números',
      noNumber: 'Esta tarjeta no tiene número.',
      copy: 'Copiar',
      copyNumber: 'Copiar {{number}}',
      copied: '{{number}} copiado',
      copyFailed: 'No se pudo copiar: seleccione el número',
      start: 'Iniciar conversación',
      starting: 'Abriendo la conversación…',
      startWith: 'Iniciar conversación con {{name}}',
    },
    newTab: '(se abre en una pestaña nueva)',
  },
};

export const SHARED_CARD_NS = 'sharedCards';
