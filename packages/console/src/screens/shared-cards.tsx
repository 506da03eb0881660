import { mapLink, parseLocationBody, parseVcards, type SharedContact } from '@servicedesk/core/connections/shared-content';
import { useMutation } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useEffect, useMemo, useState } from 'react';
import { must, type Schema } from '../api/client.js';
import { useScreenStrings } from '../i18n/screen-strings.js';
import { useServices } from '../services.js';
import { codeOf, errorText } from '../ui/errors.js';
import { openTicket } from './start-conversation.js';
import { SHARED_CARD_NS, sharedCardStrings } from './shared-card-strings.js';
import './shared-cards.css';

type Message = Schema<'Message'>;
type Api = ReturnType<typeof useServices>['api'];

/** Whether a message is a location or contact cards a contact shared: its body is then shown as a card, not as text. */
export function isSharedMessage(m: Pick<Message, 'mediaType'>): boolean {
  return m.mediaType === 'locationMessage' || m.mediaType === 'contactMessage';
}

export { sharedPreview } from './shared-preview.js';

/**
 * What a contact shared, read from the message's body (the lineage's shapes: `image|link|description`
 * for a location, the vCard text for contact cards): a location card, or a card per contact.
 * A body that cannot be read shows as the text it is.
 */
export function SharedCards({ message }: { message: Message }) {
  const location = useMemo(() => (message.mediaType === 'locationMessage' ? parseLocationBody(message.body) : null), [message]);
  const contacts = useMemo(() => (message.mediaType === 'contactMessage' ? parseVcards(message.body) : []), [message]);
  if (location) return <LocationCard location={location} />;
  if (contacts.length)
    return (
      <>
        {contacts.map((c) => (
          <ContactCard key={c.vcard ?? c.name} contact={c} chatappId={message.chatappId} />
        ))}
      </>
    );
  return <p className="text">{message.body}</p>;
}

/** Coordinates as shown: five decimals (about a metre), in the language's digits. */
const shown = (n: number, language: string) => n.toLocaleString(language, { maximumFractionDigits: 5 });

function LocationCard({ location }: { location: NonNullable<ReturnType<typeof parseLocationBody>> }) {
  const { t, i18n } = useScreenStrings(SHARED_CARD_NS, sharedCardStrings);
  const name = location.name ?? location.address ?? t('location.untitled');
  return (
    <article className="shared-card shared-location" aria-label={t('location.label', { name })} data-testid="location-card">
      <p className="shared-card-title">
        <span aria-hidden="true">📍 </span>
        {name}
      </p>
      {location.name && location.address && <p className="shared-card-detail">{location.address}</p>}
      <p className="shared-card-detail muted">
        {t('location.coordinates', { latitude: shown(location.latitude, i18n.language), longitude: shown(location.longitude, i18n.language) })}
      </p>
      <p className="shared-card-links">
        <a href={mapLink(location.latitude, location.longitude)} target="_blank" rel="noopener noreferrer">
          {t('location.openMap')} <span className="visually-hidden">{t('newTab')}</span>
        </a>
        {location.url && (
          <a href={location.url} target="_blank" rel="noopener noreferrer nofollow">
            {t('location.page')} <span className="visually-hidden">{t('newTab')}</span>
          </a>
        )}
      </p>
    </article>
  );
}

/** How long "copied" stays beside the numbers. */
const COPIED_FEEDBACK_MS = 2_000;

function ContactCard({ contact, chatappId }: { contact: SharedContact; chatappId: number }) {
  const { t } = useScreenStrings(SHARED_CARD_NS, sharedCardStrings);
  const { api } = useServices();
  const navigate = useNavigate();
  const [copied, setCopied] = useState<{ number: string; ok: boolean } | null>(null);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(null), COPIED_FEEDBACK_MS);
    return () => clearTimeout(timer);
  }, [copied]);
  const copy = (number: string) => {
    navigator.clipboard.writeText(`+${number}`).then(
      () => setCopied({ number, ok: true }),
      () => setCopied({ number, ok: false }),
    );
  };
  const start = useMutation({
    mutationFn: () => openConversation(api, contact.name, contact.numbers[0]!, chatappId),
    onSuccess: (ticketId) => void navigate({ to: '/tickets/$ticketId', params: { ticketId: String(ticketId) } }),
  });
  return (
    <article className="shared-card shared-contact" aria-label={t('contact.label', { name: contact.name })} data-testid="contact-card">
      <p className="shared-card-title">
        <span aria-hidden="true">👤 </span>
        {contact.name}
      </p>
      {contact.numbers.length === 0 ? (
        <p className="shared-card-detail muted">{t('contact.noNumber')}</p>
      ) : (
        <ul className="shared-card-numbers" aria-label={t('contact.numbers')}>
          {contact.numbers.map((n) => (
            <li key={n}>
              <span className="shared-card-number">+{n}</span>{' '}
              <button type="button" onClick={() => copy(n)} aria-label={t('contact.copyNumber', { number: `+${n}` })}>
                {t('contact.copy')}
              </button>
            </li>
          ))}
        </ul>
      )}
      <p className="shared-card-detail muted" aria-live="polite">
        {copied ? (copied.ok ? t('contact.copied', { number: `+${copied.number}` }) : t('contact.copyFailed')) : ''}
      </p>
      {contact.numbers.length > 0 && (
        <button
          type="button"
          className="primary"
          disabled={start.isPending}
          onClick={() => start.mutate()}
          aria-label={t('contact.startWith', { name: contact.name })}
        >
          {start.isPending ? t('contact.starting') : t('contact.start')}
        </button>
      )}
      {start.error && (
        <p className="form-error" role="alert">
          {errorText(t, start.error)}
        </p>
      )}
    </article>
  );
}

/** The company's contact with this number: the one whose number ends as it does (a mobile's ninth digit may differ). */
async function findContact(api: Api, number: string) {
  const tail = number.slice(-8);
  const page = await must(api.GET('/contacts', { params: { query: { searchParam: tail } } }));
  return page.contacts.find((c) => c.number === number) ?? page.contacts.find((c) => !c.isGroup && c.number.endsWith(tail)) ?? null;
}

/**
 * The card's conversation, on the connection the card came through: the contact found by its
 * number or created (`POST /contacts`), then its ticket there opened or found (`openTicket`).
 */
async function openConversation(api: Api, name: string, number: string, chatappId: number): Promise<number> {
  let contact = await findContact(api, number);
  if (!contact) {
    try {
      contact = await must(api.POST('/contacts', { body: { name, number } }));
    } catch (err) {
      // Created meanwhile, or the number reaches a contact written another way.
      if (codeOf(err) !== 'ERR_DUPLICATED_CONTACT') throw err;
      contact = await findContact(api, number);
      if (!contact) throw err;
    }
  }
  return openTicket(api, contact, chatappId);
}
