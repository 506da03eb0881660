import { useSyncExternalStore } from 'react';
import type { ScreenStrings } from '../i18n/screen-strings.js';
import { useScreenStrings } from '../i18n/screen-strings.js';
import { contactTypingOf } from '../realtime/contact-typing.js';
import { useServices } from '../services.js';
import './contact-typing.css';

const en = {
  composing: '{{name}} is typing…',
  recording: '{{name}} is recording audio…',
  contact: 'The contact',
};

const strings: ScreenStrings<typeof en> = {
  en,
  'pt-BR': {
    composing: '{{name}} está digitando…',
    recording: '{{name}} está gravando áudio…',
    contact: 'O contato',
  },
  es: {
    composing: '{{name}} está escribiendo…',
    recording: '{{name}} está grabando audio…',
    contact: 'El contacto',
  },
};

/**
 * "Typing…" / "Recording audio…" under a conversation's messages, while the channel reports it.
 * The live region is always there (empty when nothing is reported), so a screen reader announces
 * each change politely.
 */
export function ContactTyping({ ticketId, name }: { ticketId: number; name: string | null | undefined }) {
  const { t } = useScreenStrings('contactTyping', strings);
  const { queryClient } = useServices();
  const store = contactTypingOf(queryClient);
  const state = useSyncExternalStore(
    (listener) => store.subscribe(listener),
    () => store.state(ticketId),
  );
  const who = name?.trim() || t('contact');
  return (
    <p className="contact-typing muted" aria-live="polite" data-testid="contact-typing" data-state={state ?? 'none'}>
      {state ? t(state, { name: who }) : ''}
    </p>
  );
}
