import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { must, type Schema } from '../../api/client.js';
import { useScreenStrings } from '../../i18n/screen-strings.js';
import { keys } from '../../realtime/apply-frame.js';
import { useServices, useSession } from '../../services.js';
import { errorText } from '../../ui/errors.js';
import { AdminList, usePagedList } from '../../ui/admin-list.js';
import { AdminHeader, FormDialog } from '../../ui/admin-screen.js';
import { ConfirmButton, Field, refusalOf } from '../../ui/form.js';
import { admins } from '../nav.js';
import { useQueues } from '../queues/data.js';
import { strings } from './strings.js';
import '../../ui/admin.css';
import './queue-integrations.css';

type Integration = Schema<'QueueIntegration'>;
type IntegrationType = Integration['type'];
type TestResult = Schema<'QueueIntegrationTestResult'>;

const TYPES: readonly IntegrationType[] = ['webhook', 'n8n', 'typebot', 'dialogflow'];

/** The settings each type's receiving side reads (kept in `config`), beside the address and credentials every type has. */
const TYPE_FIELDS = {
  webhook: [],
  n8n: [],
  typebot: [
    'typebotSlug',
    'typebotExpires',
    'typebotDelayMessage',
    'typebotKeywordFinish',
    'typebotKeywordRestart',
    'typebotUnknownMessage',
    'typebotRestartMessage',
  ],
  dialogflow: ['projectName', 'language'],
} as const satisfies Record<IntegrationType, readonly string[]>;
type SettingField = (typeof TYPE_FIELDS)[IntegrationType][number];
const ALL_SETTINGS: readonly SettingField[] = [...TYPE_FIELDS.typebot, ...TYPE_FIELDS.dialogflow];
/** Settings entered as whole numbers. */
const NUMERIC: ReadonlySet<SettingField> = new Set(['typebotExpires', 'typebotDelayMessage']);

/** The refusals of the integration routes that name a field of the form (a bad credential is placed by `credentialField`). */
const FIELD_OF = {
  ERR_INTEGRATION_NAME_ALREADY_EXISTS: 'name',
  ERR_INVALID_INTEGRATION_NAME: 'name',
  ERR_INVALID_INTEGRATION_TYPE: 'type',
  ERR_INVALID_INTEGRATION_URL: 'url',
  ERR_URL_NOT_ALLOWED: 'url',
} as const;
type FormField = (typeof FIELD_OF)[keyof typeof FIELD_OF] | 'token' | 'secret' | SettingField;

/** The server's rule for a credential: printable ASCII without spaces, 1,024 characters at most. */
const validCredential = (value: string) => value.length <= 1024 && /^[\x21-\x7e]+$/.test(value);

/**
 * `/queue-integrations`: the company's queue integrations (HTTP bots), searched and paged, with the
 * queues using each, live from `queueIntegration` frames; admins create, edit, test and delete them.
 */
export function QueueIntegrations() {
  const { t } = useScreenStrings('queueIntegrations', strings);
  const session = useSession();
  if (!session || !admins(session.user)) {
    return (
      <section className="admin-screen" aria-labelledby="queue-integrations-title">
        <h1 id="queue-integrations-title">{t('title')}</h1>
        <p className="placeholder">{t('adminsOnly')}</p>
      </section>
    );
  }
  return <IntegrationList />;
}

function IntegrationList() {
  const { t } = useScreenStrings('queueIntegrations', strings);
  const { api } = useServices();
  const client = useQueryClient();
  const [editing, setEditing] = useState<Integration | 'new' | null>(null);
  const [notice, setNotice] = useState('');
  const queues = useQueues();

  // Under `queueIntegrations`: a `queueIntegration` frame (another admin's change) refetches it.
  const list = usePagedList({
    key: keys.queueIntegrations,
    fetch: (pageNumber, searchParam) => must(api.GET('/queueIntegration', { params: { query: { pageNumber, ...(searchParam ? { searchParam } : {}) } } })),
    items: (page) => page.queueIntegrations,
  });
  const integrations = list.items;
  const queuesOf = (id: number) => (queues.data ?? []).filter((q) => q.integrationId === id).map((q) => q.name);

  const remove = useMutation({
    mutationFn: (integration: Integration) => must(api.DELETE('/queueIntegration/{integrationId}', { params: { path: { integrationId: integration.id } } })),
    onSuccess: (_, integration) => {
      setNotice(t('deleted', { name: integration.name }));
      void client.invalidateQueries({ queryKey: keys.queueIntegrations });
      void client.invalidateQueries({ queryKey: keys.queues });
    },
  });

  return (
    <section className="admin-screen" aria-labelledby="queue-integrations-title">
      <AdminHeader
        titleId="queue-integrations-title"
        title={t('title')}
        intro={t('intro')}
        search={{ label: t('search'), value: list.search, onChange: list.setSearch }}
        add={{ label: t('add'), onClick: () => setEditing('new') }}
      />
      <AdminList
        labelledBy="queue-integrations-title"
        className="integrations-table"
        list={list}
        notice={notice}
        errors={[remove.error && errorText(t, remove.error), list.error ? errorText(t, list.error) : null]}
        count={(count) => t('count', { count })}
        empty={t('empty')}
        noMatch={t('noMatch')}
        head={
          <>
            <th scope="col">{t('columns.name')}</th>
            <th scope="col">{t('columns.type')}</th>
            <th scope="col">{t('columns.target')}</th>
            <th scope="col">{t('columns.queues')}</th>
            <th scope="col">{t('list.actions')}</th>
          </>
        }
        row={(integration) => {
          const used = queuesOf(integration.id);
          const credentials = [integration.hasToken ? t('tokenSet') : null, integration.hasSecret ? t('secretSet') : null].filter(Boolean);
          const detail = integration.type === 'typebot' ? integration.typebotSlug : integration.type === 'dialogflow' ? integration.projectName : null;
          return (
            <tr key={integration.id} data-testid={`integration-${integration.id}`}>
              <th scope="row">{integration.name}</th>
              <td data-label={t('columns.type')}>{t(`types.${integration.type}`)}</td>
              <td data-label={t('columns.target')} className="integration-target">
                <span className="integration-url">{integration.url}</span>
                {detail !== null && detail !== '' && <span className="muted small-text"> · {String(detail)}</span>}
                {credentials.length > 0 && (
                  <span className="muted small-text integration-credentials">
                    {t('credentials')}: {credentials.join(', ')}
                  </span>
                )}
              </td>
              <td data-label={t('columns.queues')}>{used.length ? used.join(', ') : t('noQueue')}</td>
              <td className="row-actions">
                <button type="button" className="small" aria-label={t('editLabel', { name: integration.name })} onClick={() => setEditing(integration)}>
                  {t('list.edit')}
                </button>
                <ConfirmButton
                  className="small"
                  label={t('list.delete')}
                  title={t('deleteTitle', { name: integration.name })}
                  description={used.length ? t('deleteBodyUsed', { queues: used.join(', ') }) : t('deleteBody')}
                  confirmLabel={t('list.delete')}
                  disabled={remove.isPending}
                  onConfirm={() => remove.mutate(integration)}
                />
              </td>
            </tr>
          );
        }}
      />
      {editing && (
        <IntegrationDialog
          integration={editing === 'new' ? null : editing}
          close={(saved) => {
            setEditing(null);
            if (saved) setNotice(t('saved', { name: saved.name }));
          }}
        />
      )}
    </section>
  );
}

/** A stored setting as the form shows it. */
const settingText = (value: unknown) => (typeof value === 'string' || typeof value === 'number' ? String(value) : '');

/** A setting as sent: trimmed, a whole number where one is expected (anything else is sent as typed). */
function settingValue(field: SettingField, text: string): string | number {
  const trimmed = text.trim();
  return NUMERIC.has(field) && /^\d{1,9}$/.test(trimmed) ? Number(trimmed) : trimmed;
}

/**
 * Creating or editing one integration: only the chosen type's settings are shown, credentials are
 * write-only (empty keeps the saved one, a box removes it), and **Test** calls the address with the
 * form's values (the saved credentials when none is typed) and shows what came back.
 */
function IntegrationDialog({ integration, close }: { integration: Integration | null; close: (saved: Integration | null) => void }) {
  const { t } = useScreenStrings('queueIntegrations', strings);
  const { api } = useServices();
  const client = useQueryClient();
  const [name, setName] = useState(integration?.name ?? '');
  const [type, setType] = useState<IntegrationType>(integration?.type ?? 'webhook');
  const [url, setUrl] = useState(integration?.url ?? '');
  const [token, setToken] = useState('');
  const [secret, setSecret] = useState('');
  const [removeToken, setRemoveToken] = useState(false);
  const [removeSecret, setRemoveSecret] = useState(false);
  const [settings, setSettings] = useState<Record<SettingField, string>>(
    () => Object.fromEntries(ALL_SETTINGS.map((f) => [f, settingText(integration?.config[f])])) as Record<SettingField, string>,
  );
  const shownSettings: readonly SettingField[] = TYPE_FIELDS[type];

  /** null removes a saved credential, undefined keeps it (or sets none on a new one). */
  const credential = (typed: string, remove: boolean) => (remove ? null : typed !== '' ? typed : undefined);
  const credentials = () => {
    const tokenValue = credential(token, removeToken);
    const secretValue = credential(secret, removeSecret);
    return { ...(tokenValue !== undefined ? { token: tokenValue } : {}), ...(secretValue !== undefined ? { secret: secretValue } : {}) };
  };

  const save = useMutation({
    mutationFn: () => {
      // The stored settings the form does not show are kept; another type's settings are dropped.
      const config: Record<string, unknown> = Object.fromEntries(
        Object.entries(integration?.config ?? {}).filter(([key]) => !(ALL_SETTINGS as readonly string[]).includes(key)),
      );
      for (const field of shownSettings) if (settings[field].trim() !== '') config[field] = settingValue(field, settings[field]);
      const body = { name, type, url, config, ...credentials() };
      return integration
        ? must(api.PUT('/queueIntegration/{integrationId}', { params: { path: { integrationId: integration.id } }, body }))
        : must(api.POST('/queueIntegration', { body }));
    },
    onSuccess: (saved) => {
      void client.invalidateQueries({ queryKey: keys.queueIntegrations });
      void client.invalidateQueries({ queryKey: [...keys.queues, 'integrations'] });
      close(saved);
    },
  });
  const test = useMutation({
    mutationFn: (): Promise<TestResult> =>
      must(
        api.POST('/queueIntegration/testsession', {
          body: {
            type,
            url,
            ...(name.trim() !== '' ? { name } : {}),
            ...credentials(),
            ...(integration ? { integrationId: integration.id } : {}),
          },
        }),
      ),
  });

  const badCredential = (token !== '' && !validCredential(token) ? 'token' : 'secret') satisfies FormField;
  const refusal = refusalOf<FormField>(t, save.error ?? test.error, { ...FIELD_OF, ERR_INVALID_INTEGRATION_CREDENTIAL: badCredential });
  const submit = () => {
    test.reset();
    save.mutate();
  };
  const runTest = () => {
    save.reset();
    test.mutate();
  };
  const result = test.data;

  return (
    <FormDialog
      className="integration-dialog"
      title={integration ? t('editTitle', { name: integration.name }) : t('addTitle')}
      description={t('intro')}
      buttons={
        <>
          <button type="button" onClick={runTest} disabled={test.isPending}>
            {t('test')}
          </button>
        </>
      }
      submitLabel={t('list.save')}
      onSubmit={submit}
      onClose={() => close(null)}
      pending={save.isPending}
      error={refusal.form}
    >
      <Field label={t('name')} error={refusal.byField.name}>
        {(p) => <input {...p} value={name} onChange={(e) => setName(e.target.value)} autoComplete="off" required />}
      </Field>
      <Field label={t('type')} error={refusal.byField.type} hint={t('typeHint')}>
        {(p) => (
          <select {...p} value={type} onChange={(e) => setType(e.target.value as IntegrationType)}>
            {TYPES.map((ty) => (
              <option key={ty} value={ty}>
                {t(`types.${ty}`)}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field label={t('url')} error={refusal.byField.url} hint={t('urlHint')}>
        {(p) => <input {...p} type="url" value={url} onChange={(e) => setUrl(e.target.value)} autoComplete="off" required />}
      </Field>
      <Field label={t('token')} error={refusal.byField.token} hint={integration?.hasToken ? `${t('tokenHint')} ${t('keepHint')}` : t('tokenHint')}>
        {(p) => (
          <input
            {...p}
            type="password"
            value={token}
            onChange={(e) => setToken(e.target.value)}
            autoComplete="new-password"
            disabled={removeToken}
            placeholder={integration?.hasToken ? '••••••••' : undefined}
          />
        )}
      </Field>
      {integration?.hasToken && (
        <label className="check">
          <input type="checkbox" checked={removeToken} onChange={(e) => setRemoveToken(e.target.checked)} />
          {t('removeToken')}
        </label>
      )}
      <Field label={t('secret')} error={refusal.byField.secret} hint={integration?.hasSecret ? `${t('secretHint')} ${t('keepHint')}` : t('secretHint')}>
        {(p) => (
          <input
            {...p}
            type="password"
            value={secret}
            onChange={(e) => setSecret(e.target.value)}
            autoComplete="new-password"
            disabled={removeSecret}
            placeholder={integration?.hasSecret ? '••••••••' : undefined}
          />
        )}
      </Field>
      {integration?.hasSecret && (
        <label className="check">
          <input type="checkbox" checked={removeSecret} onChange={(e) => setRemoveSecret(e.target.checked)} />
          {t('removeSecret')}
        </label>
      )}
      {shownSettings.map((field) => (
        <Field key={field} label={t(field)} error={refusal.byField[field]} hint={field === 'language' ? t('languageHint') : undefined}>
          {(p) => (
            <input
              {...p}
              {...(NUMERIC.has(field) ? { type: 'number', min: 0, step: 1 } : {})}
              value={settings[field]}
              onChange={(e) => setSettings((s) => ({ ...s, [field]: e.target.value }))}
              autoComplete="off"
            />
          )}
        </Field>
      ))}
      <div className="integration-test" role="status" aria-live="polite">
        {test.isPending
          ? t('testing')
          : result
            ? result.ok
              ? t('testOk', { status: result.status })
              : result.status !== null
                ? t('testFailed', { status: result.status })
                : t('testUnreachable', { reason: errorText(t, result.error ?? 'ERR_INTEGRATION_UNREACHABLE') })
            : ''}
      </div>
    </FormDialog>
  );
}
