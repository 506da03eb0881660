import { useMutation, useQuery } from '@tanstack/react-query';
import { Dialog } from 'radix-ui';
import { type FormEvent, useEffect, useId, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { renderSVG } from 'uqr';
import { ApiError, must, type Schema } from '../api/client.js';
import { keys } from '../realtime/apply-frame.js';
import { useServices, useSession } from '../services.js';
import { errorText } from '../ui/errors.js';
import { useScreenStrings } from '../i18n/screen-strings.js';
import { Field, FormError } from '../ui/form.js';
import { AllConnections, ConnectionAdminActions, HealthPanel, RestartAllSessions } from './connection-edit.js';
import { editRefusal } from './connection-edit-refusal.js';
import { strings as editStrings } from './connection-edit-strings.js';
import { admins, supers } from './nav.js';

type Connection = Schema<'Connection'>;
type Provider = 'sandbox' | 'baileys' | 'messenger' | 'instagram' | 'cloudapi';
const PROVIDERS: Provider[] = ['baileys', 'messenger', 'instagram', 'cloudapi', 'sandbox'];

/** A number to pair with as the server takes it: digits, the country code first (8 to 15 of them). */
const PAIRING_PHONE = /^[1-9]\d{7,14}$/;

/** What the operator typed, reduced to digits (spaces, `+`, dashes and brackets are how people write numbers). */
export function pairingDigits(typed: string): string {
  return typed.replace(/[\s+\-().]/g, '');
}

/** The code as WhatsApp shows it on the phone: two groups of four. */
export function groupedPairingCode(code: string): string {
  return code.length === 8 ? `${code.slice(0, 4)}-${code.slice(4)}` : code;
}

/**
 * The company's connections with their live status, and the pairing QR code as the session emits
 * it, or, paired by phone number, the code to type on the phone.
 */
export function Connections() {
  const { t } = useTranslation();
  const { api } = useServices();
  const list = useQuery({ queryKey: keys.connections, queryFn: () => must(api.GET('/chatapp/')) as Promise<Connection[]> });
  const [creating, setCreating] = useState(false);
  const session = useSession();
  const isAdmin = session ? admins(session.user) : false;
  // What an admin's change did (saved, deleted, tickets closed), said where it outlives the card.
  const [news, setNews] = useState('');
  const title = useRef<HTMLHeadingElement>(null);

  return (
    <section className="page" aria-labelledby="connections-title">
      <header className="page-header">
        <h1 id="connections-title" ref={title} tabIndex={-1}>
          {t('connections.title')}
        </h1>
        {isAdmin && (
          <div className="actions">
            <RestartAllSessions announce={setNews} />
            <button type="button" className="primary" onClick={() => setCreating(true)}>
              {t('connections.add')}
            </button>
          </div>
        )}
      </header>
      <p role="status" className="muted" data-testid="connections-news">
        {news}
      </p>
      {list.data?.length === 0 && <p className="placeholder">{t('connections.empty')}</p>}
      <ul className="cards" aria-busy={list.isLoading}>
        {(list.data ?? []).map((c) => (
          <ConnectionCard key={c.id} connection={c} admin={isAdmin ? { announce: setNews, onDeleted: () => title.current?.focus() } : null} />
        ))}
      </ul>
      {isAdmin && <HealthPanel />}
      {session && supers(session.user) && <AllConnections ownCompanyId={session.user.companyId} announce={setNews} />}
      <CreateConnection open={creating} onOpenChange={setCreating} />
    </section>
  );
}

function ConnectionCard({
  connection: c,
  admin,
}: {
  connection: Connection;
  /** Set for admins: the card offers editing, closing imported tickets and deleting. */
  admin: { announce: (text: string) => void; onDeleted: () => void } | null;
}) {
  const { t } = useTranslation();
  const { api } = useServices();
  const [error, setError] = useState<string | null>(null);
  const path = { params: { path: { chatappId: c.id } } };
  const act = useMutation({
    mutationFn: (what: 'start' | 'restart' | 'disconnect') =>
      what === 'start'
        ? must(api.POST('/chatappsession/{chatappId}', path))
        : what === 'restart'
          ? must(api.PUT('/chatappsession/{chatappId}', path))
          : must(api.DELETE('/chatappsession/{chatappId}', path)),
    // No refetch: the change's frame came before this answer, and the runtime's (a code,
    // CONNECTED) may be here already too, which a list read a moment earlier would undo.
    onSuccess: () => setError(null),
    onError: (err) => setError(err instanceof ApiError ? err.code : String(err)),
  });
  const qr = useMemo(
    () => (c.status === 'qrcode' && c.qrcode ? `data:image/svg+xml;charset=utf-8,${encodeURIComponent(renderSVG(c.qrcode, { border: 2 }))}` : null),
    [c.status, c.qrcode],
  );
  const [pairing, setPairing] = useState(false);
  // Set when this operator asked for a code: the code, once it comes, takes the focus.
  const [awaitingCode, setAwaitingCode] = useState(false);
  const pairingCode = c.status === 'qrcode' && c.pairingCode ? c.pairingCode : null;
  // Pairing by phone goes on from the start of a session; a chat-application session not connected may switch to it.
  // Session actions are an admin's (the server refuses an operator's): an operator only follows the status.
  const canPair = admin !== null && c.kind === 'chatapp' && c.status !== 'CONNECTED' && !pairingCode;
  const statusText = pairingCode ? t('connections.pairing.status') : t(`connections.status.${c.status}`, { defaultValue: c.status });

  return (
    <li className="card" data-testid={`connection-${c.id}`}>
      <h2>
        {c.name} {c.isDefault && <span className="tag">{t('connections.default')}</span>}
      </h2>
      <p className="muted">{t(`connections.providers.${c.provider as Provider}`, { defaultValue: c.provider })}</p>
      <p className={`status status-${c.status}`} data-testid="connection-status" aria-live="polite">
        {statusText}
      </p>
      {qr && !pairing && (
        <figure className="qr">
          <img src={qr} alt={t('connections.qr')} width={200} height={200} data-testid="qr" />
          <figcaption>{t('connections.qr')}</figcaption>
        </figure>
      )}
      {pairingCode && (
        <PairingCode
          // A new code (the session renewed it) is a new thing to type: nothing of the last one's copy stays.
          key={pairingCode}
          code={pairingCode}
          focus={awaitingCode}
          onFocused={() => setAwaitingCode(false)}
          onQr={() => act.mutate('restart')}
          busy={act.isPending}
        />
      )}
      {canPair &&
        (pairing ? (
          <PairByPhone
            connection={c}
            onDone={(requested) => {
              setPairing(false);
              setAwaitingCode(requested);
            }}
          />
        ) : (
          <button type="button" className="pairing-switch" onClick={() => setPairing(true)}>
            {t('connections.pairing.instead')}
          </button>
        ))}
      {admin && (
        <div className="actions">
          {c.status === 'DISCONNECTED' || c.status === 'PENDING' ? (
            <button type="button" disabled={act.isPending} onClick={() => act.mutate('start')}>
              {t('connections.start')}
            </button>
          ) : (
            <>
              <button type="button" disabled={act.isPending} onClick={() => act.mutate('restart')}>
                {t('connections.restart')}
              </button>
              <button type="button" disabled={act.isPending} onClick={() => act.mutate('disconnect')}>
                {t('connections.disconnect')}
              </button>
            </>
          )}
        </div>
      )}
      {error && (
        <p className="form-error" role="alert">
          {t('errors.generic', { code: error })}
        </p>
      )}
      {admin && <ConnectionAdminActions connection={c} announce={admin.announce} onDeleted={admin.onDeleted} />}
    </li>
  );
}

/**
 * The phone number to pair with: starts the session (or restarts it, if it runs) asking for a code
 * for that number instead of a QR code. The code then arrives on the connection, live.
 */
function PairByPhone({ connection: c, onDone }: { connection: Connection; onDone: (requested: boolean) => void }) {
  const { t } = useTranslation();
  const { api } = useServices();
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [typed, setTyped] = useState('');
  const [error, setError] = useState<string | null>(null);
  useEffect(() => input.current?.focus(), []);
  const request = useMutation({
    mutationFn: (phoneNumber: string) => {
      const options = { params: { path: { chatappId: c.id } }, body: { phoneNumber } };
      return c.status === 'DISCONNECTED' || c.status === 'PENDING'
        ? must(api.POST('/chatappsession/{chatappId}', options))
        : must(api.PUT('/chatappsession/{chatappId}', options));
    },
    onSuccess: () => onDone(true),
    onError: (err) => setError(errorText(t, err)),
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const digits = pairingDigits(typed);
    if (!PAIRING_PHONE.test(digits)) {
      setError(t('connections.pairing.invalid'));
      input.current?.focus();
      return;
    }
    setError(null);
    request.mutate(digits);
  };
  return (
    <form className="form pairing-form" onSubmit={submit} aria-labelledby={`${id}-title`} noValidate>
      <h3 id={`${id}-title`}>{t('connections.pairing.title')}</h3>
      <label>
        {t('connections.pairing.phone')}
        <input
          ref={input}
          type="tel"
          inputMode="tel"
          autoComplete="off"
          value={typed}
          onChange={(e) => setTyped(e.target.value)}
          aria-describedby={`${id}-hint${error ? ` ${id}-error` : ''}`}
          aria-invalid={error ? true : undefined}
          placeholder="5511999990000"
          maxLength={24}
        />
      </label>
      <p id={`${id}-hint`} className="muted hint">
        {t('connections.pairing.hint')}
      </p>
      {error && (
        <p id={`${id}-error`} className="form-error" role="alert">
          {error}
        </p>
      )}
      <div className="actions">
        <button type="button" onClick={() => onDone(false)}>
          {t('connections.cancel')}
        </button>
        <button type="submit" className="primary" disabled={!typed.trim() || request.isPending}>
          {t('connections.pairing.submit')}
        </button>
      </div>
    </form>
  );
}

/** How long "Copied" stays beside the copy button. */
const COPIED_FEEDBACK_MS = 2_000;

/** The pairing code, large, with a copy button and the steps to follow on the phone; it follows the session live. */
function PairingCode(props: { code: string; focus: boolean; onFocused: () => void; onQr: () => void; busy: boolean }) {
  const { code, onQr, busy } = props;
  const { t } = useTranslation();
  const id = useId();
  const title = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (!props.focus) return;
    title.current?.focus();
    props.onFocused();
  }, [props.focus, props.onFocused]);
  const [copied, setCopied] = useState<'yes' | 'no' | null>(null);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(null), COPIED_FEEDBACK_MS);
    return () => clearTimeout(timer);
  }, [copied]);
  const copy = () => {
    navigator.clipboard.writeText(code).then(
      () => setCopied('yes'),
      () => setCopied('no'),
    );
  };
  return (
    <section className="pairing" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`} ref={title} tabIndex={-1}>
        {t('connections.pairing.codeTitle')}
      </h3>
      <p className="pairing-code">
        <span aria-hidden="true" data-testid="pairing-code">
          {groupedPairingCode(code)}
        </span>
        <span className="visually-hidden">{t('connections.pairing.codeLabel', { code: code.split('').join(' ') })}</span>
      </p>
      <div className="actions">
        <button type="button" onClick={copy}>
          {t('connections.pairing.copy')}
        </button>
        <span aria-live="polite" className="muted">
          {copied === 'yes' ? t('connections.pairing.copied') : copied === 'no' ? t('connections.pairing.copyFailed') : ''}
        </span>
      </div>
      <ol className="pairing-steps">
        <li>{t('connections.pairing.step1')}</li>
        <li>{t('connections.pairing.step2')}</li>
        <li>{t('connections.pairing.step3')}</li>
        <li>{t('connections.pairing.step4')}</li>
      </ol>
      <p className="muted">{t('connections.pairing.renewed')}</p>
      <button type="button" className="pairing-switch" disabled={busy} onClick={onQr}>
        {t('connections.pairing.useQr')}
      </button>
    </section>
  );
}

/** The providers of a social-network page or account: created by `POST /socialnet/` with its id and page access token. */
const PAGE_PROVIDERS: ReadonlySet<Provider> = new Set(['messenger', 'instagram']);

/**
 * A new connection: a chat-app session or a business number by `POST /chatapp/`; a Messenger page or
 * an Instagram account by `POST /socialnet/`, which also takes the page's id at the provider and its
 * access token (asked of the provider before it is saved). A refusal that names a field is shown at
 * it, everything typed kept.
 */
function CreateConnection(props: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const { t } = useTranslation();
  const { t: te } = useScreenStrings('connectionEdit', editStrings);
  const { api } = useServices();
  const [name, setName] = useState('');
  const [provider, setProvider] = useState<Provider>('baileys');
  const [token, setToken] = useState('');
  const [externalId, setExternalId] = useState('');
  const [pageToken, setPageToken] = useState('');
  const isPage = PAGE_PROVIDERS.has(provider);
  const create = useMutation({
    mutationFn: () =>
      isPage
        ? must(
            api.POST('/socialnet/', {
              body: { name, provider, externalId, secrets: { pageAccessToken: pageToken }, ...(token ? { token } : {}) },
            }),
          )
        : must(
            api.POST('/chatapp/', {
              body: { name, provider, ...(token ? { token } : {}), ...(provider === 'cloudapi' ? { kind: 'bizchat' as const } : {}) },
            }),
          ),
    onSuccess: () => {
      setName('');
      setToken('');
      setExternalId('');
      setPageToken('');
      props.onOpenChange(false);
    },
  });
  const refusal = editRefusal(te, create.error);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate();
  };
  return (
    <Dialog.Root
      open={props.open}
      onOpenChange={(open) => {
        if (!open) create.reset();
        props.onOpenChange(open);
      }}
    >
      <Dialog.Portal>
        <Dialog.Overlay className="overlay" />
        <Dialog.Content className="dialog">
          <Dialog.Title>{t('connections.add')}</Dialog.Title>
          <Dialog.Description className="visually-hidden">{t('connections.add')}</Dialog.Description>
          <form onSubmit={submit} className="form" noValidate>
            <Field label={t('connections.name')} error={refusal.byField.name}>
              {(p) => <input {...p} value={name} onChange={(e) => setName(e.target.value)} required maxLength={120} />}
            </Field>
            <Field label={t('connections.provider')}>
              {(p) => (
                <select {...p} value={provider} onChange={(e) => setProvider(e.target.value as Provider)}>
                  {PROVIDERS.map((v) => (
                    <option key={v} value={v}>
                      {t(`connections.providers.${v}`)}
                    </option>
                  ))}
                </select>
              )}
            </Field>
            {isPage && (
              <>
                <Field label={te('externalId.socialnet')} hint={te('externalIdHint')} error={refusal.byField.externalId}>
                  {(p) => <input {...p} value={externalId} onChange={(e) => setExternalId(e.target.value)} required maxLength={128} autoComplete="off" />}
                </Field>
                <Field label={te('secrets.pageAccessToken')} error={refusal.byField.secrets}>
                  {(p) => <input {...p} type="password" value={pageToken} onChange={(e) => setPageToken(e.target.value)} required autoComplete="off" />}
                </Field>
              </>
            )}
            <Field label={t('connections.token')} error={refusal.byField.token}>
              {(p) => <input {...p} value={token} onChange={(e) => setToken(e.target.value)} maxLength={256} autoComplete="off" />}
            </Field>
            <FormError text={refusal.form} />
            <div className="actions">
              <Dialog.Close asChild>
                <button type="button">{t('connections.cancel')}</button>
              </Dialog.Close>
              <button type="submit" className="primary" disabled={!name || (isPage && (!externalId || !pageToken)) || create.isPending}>
                {t('connections.create')}
              </button>
            </div>
          </form>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
