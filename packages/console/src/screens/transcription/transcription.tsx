import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { Dialog } from 'radix-ui';
import { type FormEvent, useState } from 'react';
import { must, type Schema } from '../../api/client.js';
import { useScreenStrings } from '../../i18n/screen-strings.js';
import { useServices, useSession } from '../../services.js';
import { errorText } from '../../ui/errors.js';
import { ConfirmButton, Field, FormError, refusalOf } from '../../ui/form.js';
import { admins } from '../nav.js';
import { transcriptionKeys } from '../transcribe.js';
import { strings } from './strings.js';
import '../../ui/admin.css';

type Credential = Schema<'TranscriptionCredential'>;
type Saved = Schema<'SavedTranscriptionCredential'>;
type Provider = Credential['provider'];

const PROVIDERS: readonly Provider[] = ['openai', 'openai-compatible'];

/** The refusals of the credential routes that name a field of the form; the service's own refusal of a test stays above the buttons. */
const FIELD_OF = {
  ERR_TRANSCRIPTION_INVALID_NAME: 'name',
  ERR_TRANSCRIPTION_CREDENTIAL_NAME_IN_USE: 'name',
  ERR_TRANSCRIPTION_INVALID_BASE_URL: 'baseUrl',
  ERR_URL_NOT_ALLOWED: 'baseUrl',
  ERR_TRANSCRIPTION_INVALID_MODEL: 'model',
  ERR_TRANSCRIPTION_INVALID_LANGUAGE: 'language',
  ERR_TRANSCRIPTION_INVALID_API_KEY: 'apiKey',
  ERR_TRANSCRIPTION_API_KEY_REQUIRED: 'apiKey',
} as const;
type FormField = (typeof FIELD_OF)[keyof typeof FIELD_OF];

/**
 * `/transcription` (admins): the company's speech-to-text credentials (`/transcription-credentials`),
 * the default first; created and edited with the key write-only (its last four characters shown, an
 * empty field keeps it), tested, made the default, deleted after asking.
 */
export function Transcription() {
  const { t } = useScreenStrings('transcription', strings);
  const session = useSession();
  if (!session || !admins(session.user)) {
    return (
      <section className="admin-screen" aria-labelledby="transcription-title">
        <h1 id="transcription-title">{t('title')}</h1>
        <p className="placeholder">{t('adminsOnly')}</p>
      </section>
    );
  }
  return <CredentialList />;
}

function CredentialList() {
  const { t } = useScreenStrings('transcription', strings);
  const { api } = useServices();
  const client = useQueryClient();
  const [editing, setEditing] = useState<Credential | 'new' | null>(null);
  const [notice, setNotice] = useState('');
  // No frame announces a credential's change: another admin's shows at the next read (focus, reload).
  const list = useQuery({ queryKey: transcriptionKeys.list, queryFn: () => must(api.GET('/transcription-credentials')) });
  const credentials = list.data ?? [];
  const refresh = () => void client.invalidateQueries({ queryKey: transcriptionKeys.all });

  const makeDefault = useMutation({
    mutationFn: (c: Credential) => must(api.PUT('/transcription-credentials/default', { body: { id: c.id } })),
    onSuccess: (c) => {
      setNotice(t('nowDefault', { name: c.name }));
      refresh();
    },
  });
  const test = useMutation({
    mutationFn: (c: Credential) => must(api.PUT('/transcription-credentials/{id}', { params: { path: { id: c.id } }, body: { test: true } })),
    onSuccess: (c) => setNotice(t('tested', { name: c.name, ms: c.test?.latencyMs ?? 0 })),
  });
  const remove = useMutation({
    mutationFn: async (c: Credential) => {
      await must(api.DELETE('/transcription-credentials/{id}', { params: { path: { id: c.id } } }));
      return c;
    },
    onSuccess: (c) => {
      setNotice(t('deleted', { name: c.name }));
      refresh();
    },
  });
  const busy = makeDefault.isPending || test.isPending || remove.isPending;
  const failed = makeDefault.error ?? test.error ?? remove.error;

  return (
    <section className="admin-screen" aria-labelledby="transcription-title">
      <header className="admin-header">
        <h1 id="transcription-title">{t('title')}</h1>
        <p className="muted">{t('intro')}</p>
        <div className="admin-tools">
          <button type="button" className="primary" onClick={() => setEditing('new')}>
            {t('add')}
          </button>
        </div>
      </header>
      <p role="status" data-testid="transcription-notice">
        {notice}
      </p>
      {failed && <FormError text={errorText(t, failed)} />}
      {list.error && <FormError text={errorText(t, list.error)} />}
      <p className="list-count" aria-live="polite">
        {list.isSuccess && t('count', { count: credentials.length })}
      </p>
      {list.isSuccess && credentials.length === 0 ? (
        <p className="placeholder">{t('empty')}</p>
      ) : (
        <table className="admin-table" aria-labelledby="transcription-title" aria-busy={list.isLoading}>
          <thead>
            <tr>
              <th scope="col">{t('columns.name')}</th>
              <th scope="col">{t('columns.service')}</th>
              <th scope="col">{t('columns.model')}</th>
              <th scope="col">{t('columns.key')}</th>
              <th scope="col">{t('columns.default')}</th>
              <th scope="col">{t('columns.actions')}</th>
            </tr>
          </thead>
          <tbody>
            {credentials.map((c) => (
              <tr key={c.id} data-testid={`credential-${c.id}`}>
                <th scope="row">{c.name}</th>
                <td data-label={t('columns.service')}>
                  {t(`providers.${c.provider}`)}
                  <br />
                  <span className="muted small-text">{c.baseUrl}</span>
                </td>
                <td data-label={t('columns.model')}>
                  {c.model} · {c.language ?? t('languageAuto')}
                </td>
                <td data-label={t('columns.key')} data-testid="key-mask">
                  {keyMask(t, c)}
                </td>
                <td data-label={t('columns.default')}>
                  {c.isDefault ? (
                    <strong>{t('isDefault')}</strong>
                  ) : (
                    <button
                      type="button"
                      className="small"
                      aria-label={t('makeDefaultLabel', { name: c.name })}
                      disabled={busy}
                      onClick={() => makeDefault.mutate(c)}
                    >
                      {t('makeDefault')}
                    </button>
                  )}
                </td>
                <td className="row-actions">
                  <button type="button" className="small" aria-label={t('editLabel', { name: c.name })} onClick={() => setEditing(c)}>
                    {t('edit')}
                  </button>
                  <button type="button" className="small" aria-label={t('testLabel', { name: c.name })} disabled={busy} onClick={() => test.mutate(c)}>
                    {t('test')}
                  </button>
                  <ConfirmButton
                    className="small"
                    label={t('delete')}
                    title={t('deleteTitle', { name: c.name })}
                    description={t('deleteBody')}
                    confirmLabel={t('delete')}
                    disabled={busy}
                    onConfirm={() => remove.mutate(c)}
                  />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {editing && (
        <CredentialDialog
          credential={editing === 'new' ? null : editing}
          close={(saved) => {
            setEditing(null);
            if (saved)
              setNotice(
                saved.test
                  ? `${t('saved', { name: saved.name })} ${t('tested', { name: saved.name, ms: saved.test.latencyMs })}`
                  : t('saved', { name: saved.name }),
              );
          }}
        />
      )}
    </section>
  );
}

/** The key as the server describes it: never the key itself. */
function keyMask(t: TFunction, c: Credential): string {
  if (!c.hasApiKey) return t('keyNone');
  return c.apiKeyLast4 ? `••••${c.apiKeyLast4} (${t('keyMask', { last4: c.apiKeyLast4 })})` : t('keySaved');
}

/**
 * Creating or editing a credential. The key is write-only: empty keeps the saved one (it is left out
 * of the body), "Remove the saved key" sends null. Refusals at their fields, nothing typed lost.
 */
function CredentialDialog({ credential, close }: { credential: Credential | null; close: (saved: Saved | null) => void }) {
  const { t } = useScreenStrings('transcription', strings);
  const { api } = useServices();
  const client = useQueryClient();
  const [name, setName] = useState(credential?.name ?? '');
  const [provider, setProvider] = useState<Provider>(credential?.provider ?? 'openai');
  const [baseUrl, setBaseUrl] = useState(credential?.provider === 'openai-compatible' ? credential.baseUrl : '');
  const [model, setModel] = useState(credential?.model ?? '');
  const [language, setLanguage] = useState(credential?.language ?? '');
  const [apiKey, setApiKey] = useState('');
  const [removeKey, setRemoveKey] = useState(false);
  const [isDefault, setIsDefault] = useState(credential?.isDefault ?? false);
  const [testFirst, setTestFirst] = useState(true);

  const save = useMutation({
    mutationFn: () => {
      const key = removeKey ? { apiKey: null } : apiKey.trim() ? { apiKey: apiKey.trim() } : {};
      const body = {
        name,
        provider,
        baseUrl: provider === 'openai-compatible' ? baseUrl.trim() : null,
        model: model.trim() || null,
        language: language.trim().toLowerCase() || null,
        ...key,
        ...(isDefault && !credential?.isDefault ? { isDefault: true } : {}),
        test: testFirst,
      };
      return credential
        ? must(api.PUT('/transcription-credentials/{id}', { params: { path: { id: credential.id } }, body }))
        : must(api.POST('/transcription-credentials', { body }));
    },
    onSuccess: (saved) => {
      void client.invalidateQueries({ queryKey: transcriptionKeys.all });
      close(saved);
    },
  });
  const refusal = refusalOf<FormField>(t, save.error, FIELD_OF);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate();
  };
  const mask = credential?.hasApiKey ? (credential.apiKeyLast4 ? `••••${credential.apiKeyLast4}` : t('keySaved')) : null;

  return (
    <Dialog.Root open onOpenChange={(open) => !open && close(null)}>
      <Dialog.Portal>
        <Dialog.Overlay className="overlay" />
        <Dialog.Content className="dialog">
          <Dialog.Title>{credential ? t('editTitle', { name: credential.name }) : t('addTitle')}</Dialog.Title>
          <Dialog.Description className="visually-hidden">{t('intro')}</Dialog.Description>
          <form className="form" onSubmit={submit} noValidate>
            <Field label={t('name')} error={refusal.byField.name}>
              {(p) => <input {...p} value={name} onChange={(e) => setName(e.target.value)} autoComplete="off" required />}
            </Field>
            <Field label={t('provider')}>
              {(p) => (
                <select {...p} value={provider} onChange={(e) => setProvider(e.target.value as Provider)}>
                  {PROVIDERS.map((v) => (
                    <option key={v} value={v}>
                      {t(`providers.${v}`)}
                    </option>
                  ))}
                </select>
              )}
            </Field>
            {provider === 'openai-compatible' ? (
              <Field label={t('baseUrl')} error={refusal.byField.baseUrl} hint={t('baseUrlHint')}>
                {(p) => <input {...p} type="url" value={baseUrl} onChange={(e) => setBaseUrl(e.target.value)} autoComplete="off" required />}
              </Field>
            ) : (
              refusal.byField.baseUrl && <FormError text={refusal.byField.baseUrl} />
            )}
            <Field label={t('model')} error={refusal.byField.model} hint={t('modelHint')}>
              {(p) => <input {...p} value={model} onChange={(e) => setModel(e.target.value)} autoComplete="off" placeholder="whisper-1" />}
            </Field>
            <Field label={t('language')} error={refusal.byField.language} hint={t('languageHint')}>
              {(p) => <input {...p} value={language} onChange={(e) => setLanguage(e.target.value)} autoComplete="off" maxLength={10} />}
            </Field>
            <Field
              label={t('apiKey')}
              error={refusal.byField.apiKey}
              hint={mask && !removeKey ? `${t('apiKeyHint')} ${t('apiKeyKeep', { mask })}` : t('apiKeyHint')}
            >
              {(p) => (
                <input
                  {...p}
                  type="password"
                  value={apiKey}
                  onChange={(e) => setApiKey(e.target.value)}
                  autoComplete="new-password"
                  disabled={removeKey}
                  placeholder={mask ?? undefined}
                />
              )}
            </Field>
            {credential?.hasApiKey && (
              <label className="check">
                <input type="checkbox" checked={removeKey} onChange={(e) => setRemoveKey(e.target.checked)} />
                {t('removeKey')}
              </label>
            )}
            {!credential?.isDefault && (
              <label className="check">
                <input type="checkbox" checked={isDefault} onChange={(e) => setIsDefault(e.target.checked)} />
                {t('setDefault')}
              </label>
            )}
            <label className="check">
              <input type="checkbox" checked={testFirst} onChange={(e) => setTestFirst(e.target.checked)} />
              {t('testFirst')}
            </label>
            <FormError text={refusal.form} />
            <div className="dialog-buttons">
              <Dialog.Close asChild>
                <button type="button">{t('actions.cancel')}</button>
              </Dialog.Close>
              <button type="submit" className="primary" disabled={save.isPending} aria-busy={save.isPending}>
                {t('save')}
              </button>
            </div>
          </form>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
