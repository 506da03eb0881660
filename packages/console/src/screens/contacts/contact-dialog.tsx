import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Dialog } from 'radix-ui';
import { type FormEvent, useState } from 'react';
import { must, type Schema } from '../../api/client.js';
import { useScreenStrings } from '../../i18n/screen-strings.js';
import { keys } from '../../realtime/apply-frame.js';
import { useServices } from '../../services.js';
import { errorText } from '../../ui/errors.js';
import { Field, FormError, refusalOf } from '../../ui/form.js';
import { CONTACT_FIELD_OF, type ContactField, ExtraFields, type ExtraInfo, filledExtraInfo } from '../contact-fields.js';
import { strings } from './strings.js';

type ContactDetails = Schema<'ContactDetails'>;

/** Creating a contact, or editing one with its settings, responsible and linked user; the server's refusals at their fields. */
export function ContactDialog({ contactId, isAdmin, close }: { contactId: number | null; isAdmin: boolean; close: (savedName: string | null) => void }) {
  const { t } = useScreenStrings('contacts', strings);
  const { api } = useServices();
  const contact = useQuery({
    queryKey: keys.contact(contactId ?? 0),
    queryFn: () => must(api.GET('/contacts/{contactId}', { params: { path: { contactId: contactId ?? 0 } } })),
    enabled: contactId !== null,
  });
  const title = contactId === null ? t('addTitle') : t('editTitle', { name: contact.data?.name ?? '' });
  return (
    <Dialog.Root open onOpenChange={(open) => !open && close(null)}>
      <Dialog.Portal>
        <Dialog.Overlay className="overlay" />
        <Dialog.Content className="dialog contact-dialog">
          <Dialog.Title>{title}</Dialog.Title>
          <Dialog.Description className="visually-hidden">{t('intro')}</Dialog.Description>
          {contactId !== null && contact.error && <FormError text={errorText(t, contact.error)} />}
          {contactId === null ? (
            <ContactForm contact={null} close={close} />
          ) : contact.data ? (
            <>
              <ContactForm key={contact.data.id} contact={contact.data} close={close} />
              <ContactSettings contact={contact.data} isAdmin={isAdmin} />
            </>
          ) : (
            !contact.error && <p className="loading">{t('loadingRow')}</p>
          )}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

function ContactForm({ contact, close }: { contact: ContactDetails | null; close: (savedName: string | null) => void }) {
  const { t } = useScreenStrings('contacts', strings);
  const { api } = useServices();
  const client = useQueryClient();
  const [name, setName] = useState(contact?.name ?? '');
  const [number, setNumber] = useState(contact?.number ?? '');
  const [email, setEmail] = useState(contact?.email ?? '');
  const [extra, setExtra] = useState<ExtraInfo[]>(() => contact?.extraInfo.map((i) => ({ ...i })) ?? []);
  const [acceptAudio, setAcceptAudio] = useState(true);
  const [disableBot, setDisableBot] = useState(false);
  const save = useMutation({
    mutationFn: () => {
      const body = { name, email: email.trim() || null, extraInfo: filledExtraInfo(extra) };
      return contact
        ? must(
            api.PUT('/contacts/{contactId}', {
              params: { path: { contactId: contact.id } },
              body: { ...body, ...(contact.isGroup ? {} : { number }) },
            }),
          )
        : must(api.POST('/contacts', { body: { ...body, number, acceptAudioMessage: acceptAudio, disableBot } }));
    },
    onSuccess: (saved) => {
      client.setQueryData(keys.contact(saved.id), saved);
      void client.invalidateQueries({ queryKey: keys.contacts });
      close(saved.name);
    },
  });
  const lookup = useMutation({
    mutationFn: () => must(api.GET('/contacts/profile/{number}', { params: { path: { number: number.trim() } } })),
  });
  const refusal = refusalOf<ContactField>(t, save.error, CONTACT_FIELD_OF);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate();
  };
  return (
    <form className="form" onSubmit={submit} noValidate aria-label={contact ? t('editTitle', { name: contact.name }) : t('addTitle')}>
      <Field label={t('name')} error={refusal.byField.name} hint={contact ? undefined : t('nameHint')}>
        {(p) => <input {...p} value={name} onChange={(e) => setName(e.target.value)} autoComplete="off" />}
      </Field>
      <Field label={t('number')} error={refusal.byField.number} hint={t('numberHint')}>
        {(p) => (
          <input {...p} value={number} onChange={(e) => setNumber(e.target.value)} inputMode="tel" autoComplete="off" readOnly={contact?.isGroup === true} />
        )}
      </Field>
      <div className="lookup">
        <button type="button" className="small" disabled={!number.trim() || lookup.isPending} onClick={() => lookup.mutate()}>
          {t('lookup')}
        </button>
        <div role="status" className="lookup-result">
          {lookup.data &&
            (lookup.data.name ? (
              <>
                {lookup.data.urlPicture && (
                  <img
                    className="avatar"
                    src={lookup.data.urlPicture}
                    alt=""
                    onError={(e) => {
                      e.currentTarget.hidden = true;
                    }}
                  />
                )}
                {t('lookupResult', { name: lookup.data.name })}{' '}
                <button type="button" className="small" onClick={() => setName(lookup.data.name ?? name)}>
                  {t('useName')}
                </button>
              </>
            ) : (
              t('lookupNoName')
            ))}
        </div>
        {lookup.error && <FormError text={errorText(t, lookup.error)} />}
      </div>
      <Field label={t('email')} error={refusal.byField.email}>
        {(p) => <input {...p} type="email" value={email} onChange={(e) => setEmail(e.target.value)} autoComplete="off" />}
      </Field>
      <ExtraFields rows={extra} onChange={setExtra} error={refusal.byField.extraInfo} />
      {!contact && (
        <>
          <label className="check">
            <input type="checkbox" checked={acceptAudio} onChange={(e) => setAcceptAudio(e.target.checked)} />
            {t('acceptAudio')}
          </label>
          <label className="check">
            <input type="checkbox" checked={disableBot} onChange={(e) => setDisableBot(e.target.checked)} />
            {t('disableBot')}
          </label>
        </>
      )}
      <FormError text={refusal.form} />
      <div className="dialog-buttons">
        <Dialog.Close asChild>
          <button type="button">{t('actions.cancel')}</button>
        </Dialog.Close>
        <button type="submit" className="primary" disabled={save.isPending}>
          {t('save')}
        </button>
      </div>
    </form>
  );
}

/** The settings each saved at once by their own routes: block, audio, bot, the responsible seller and the linked user. */
function ContactSettings({ contact, isAdmin }: { contact: ContactDetails; isAdmin: boolean }) {
  const { t, i18n } = useScreenStrings('contacts', strings);
  const { api } = useServices();
  const client = useQueryClient();
  const path = { params: { path: { contactId: contact.id } } };
  const shown = (next: ContactDetails) => {
    client.setQueryData(keys.contact(next.id), next);
    void client.invalidateQueries({ queryKey: keys.contacts });
  };
  const toggle = useMutation({
    mutationFn: (change: { blocked: boolean } | { acceptAudioMessage: boolean } | { disableBot: boolean }) =>
      'blocked' in change
        ? must(api.PUT('/contacts/block/{contactId}', { ...path, body: change }))
        : 'acceptAudioMessage' in change
          ? must(api.PUT('/contacts/toggleAcceptAudio/{contactId}', { ...path, body: change }))
          : must(api.PUT('/contacts/toggleDisableBot/{contactId}', { ...path, body: change })),
    onSuccess: shown,
  });
  // The box shows the change asked at once; the server's answer (or its refusal) settles it.
  const asked = toggle.isPending ? toggle.variables : undefined;
  const shownAs = <K extends 'blocked' | 'acceptAudioMessage' | 'disableBot'>(k: K): boolean =>
    asked && k in asked ? (asked as Record<K, boolean>)[k] : contact[k];
  const sellers = useQuery({ queryKey: [...keys.users, 'sellers'], queryFn: () => must(api.GET('/contact-sellers/sellers')) });
  const responsible = useQuery({
    queryKey: [...keys.contact(contact.id), 'seller', contact.walletUserId],
    queryFn: () => must(api.GET('/contact-sellers/responsible/{contactId}', path)),
  });
  const assign = useMutation({
    mutationFn: (userId: number | null) => must(api.PUT('/contact-sellers/assign/{contactId}', { ...path, body: { userId } })),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: keys.contact(contact.id) });
      void client.invalidateQueries({ queryKey: keys.contacts });
    },
  });
  const [linkTo, setLinkTo] = useState<string>('');
  const link = useMutation({
    mutationFn: (userId: number | null) =>
      userId === null
        ? must(api.PUT('/contacts/{contactId}/unlink-user', path))
        : must(api.PUT('/contacts/{contactId}/link-user', { ...path, body: { userId } })),
    onSuccess: shown,
  });
  const nameOf = (id: number | null) => (id === null ? null : (sellers.data?.find((u) => u.id === id)?.name ?? `#${id}`));
  const since = responsible.data?.since;

  return (
    <section className="contact-settings" aria-labelledby={`contact-settings-${contact.id}`}>
      <h3 id={`contact-settings-${contact.id}`}>{t('settings')}</h3>
      <p className="muted small-text">{t('settingsNote')}</p>
      <label className="check">
        <input type="checkbox" checked={shownAs('blocked')} disabled={toggle.isPending} onChange={(e) => toggle.mutate({ blocked: e.target.checked })} />
        {t('blocked')}
      </label>
      <label className="check">
        <input
          type="checkbox"
          checked={shownAs('acceptAudioMessage')}
          disabled={toggle.isPending}
          onChange={(e) => toggle.mutate({ acceptAudioMessage: e.target.checked })}
        />
        {t('acceptAudio')}
      </label>
      <label className="check">
        <input type="checkbox" checked={shownAs('disableBot')} disabled={toggle.isPending} onChange={(e) => toggle.mutate({ disableBot: e.target.checked })} />
        {t('disableBot')}
      </label>
      {toggle.error && <FormError text={errorText(t, toggle.error)} />}

      <Field
        label={t('seller')}
        error={assign.error ? errorText(t, assign.error) : undefined}
        hint={
          responsible.data?.seller && since
            ? t('sellerSince', {
                when: new Date(since).toLocaleString(i18n.language),
                by: responsible.data.assignedBy?.name ?? '—',
              })
            : undefined
        }
      >
        {(p) => (
          <select
            {...p}
            value={contact.walletUserId ?? ''}
            disabled={assign.isPending}
            onChange={(e) => assign.mutate(e.target.value ? Number(e.target.value) : null)}
          >
            <option value="">{t('nobody')}</option>
            {(sellers.data ?? []).map((u) => (
              <option key={u.id} value={u.id}>
                {u.name}
              </option>
            ))}
          </select>
        )}
      </Field>

      {isAdmin && (
        <div className="link-user">
          <p>{contact.linkedUserId === null ? t('notLinked') : t('linkedTo', { name: nameOf(contact.linkedUserId) })}</p>
          {contact.linkedUserId === null ? (
            <div className="inline-form">
              <Field label={t('linkedUser')} error={link.error ? errorText(t, link.error) : undefined}>
                {(p) => (
                  <select {...p} value={linkTo} onChange={(e) => setLinkTo(e.target.value)}>
                    <option value="">{t('noUser')}</option>
                    {(sellers.data ?? []).map((u) => (
                      <option key={u.id} value={u.id}>
                        {u.name}
                      </option>
                    ))}
                  </select>
                )}
              </Field>
              <button type="button" className="small" disabled={!linkTo || link.isPending} onClick={() => link.mutate(Number(linkTo))}>
                {t('link')}
              </button>
            </div>
          ) : (
            <>
              <button type="button" className="small" disabled={link.isPending} onClick={() => link.mutate(null)}>
                {t('unlink')}
              </button>
              {link.error && <FormError text={errorText(t, link.error)} />}
            </>
          )}
        </div>
      )}
    </section>
  );
}
