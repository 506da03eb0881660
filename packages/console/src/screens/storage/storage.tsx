import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { useState } from 'react';
import { ApiError, must, type paths, type Schema } from '../../api/client.js';
import { useScreenStrings } from '../../i18n/screen-strings.js';
import { keys } from '../../realtime/apply-frame.js';
import { useServices, useSession } from '../../services.js';
import { AdminHeader, FormDialog } from '../../ui/admin-screen.js';
import { errorText } from '../../ui/errors.js';
import { ConfirmButton, Field, FormError, refusalOf } from '../../ui/form.js';
import { admins } from '../nav.js';
import { strings } from './strings.js';
import { STEPS, type Step, stepOutcomes, type TestOutcome } from './test-steps.js';
import './storage.css';

type Config = Schema<'ObjstoreConfig'>;
type Provider = Config['provider'];
/** What an edit sends (every field optional); a new config's body is the same with name, bucket and key id. */
type Body = NonNullable<paths['/objstore-configs/{id}']['put']['requestBody']>['content']['application/json'];
type NewBody = NonNullable<paths['/objstore-configs']['post']['requestBody']>['content']['application/json'];

const PROVIDERS: readonly Provider[] = ['s3', 'minio', 'r2', 'wasabi', 'spaces', 'other'];
/** The refusals of the config routes that name a field of the form; a failed test's steps are shown apart. */
const FIELD_OF = {
  ERR_OBJSTORE_INVALID_NAME: 'name',
  ERR_OBJSTORE_INVALID_ENDPOINT: 'endpoint',
  ERR_URL_NOT_ALLOWED: 'endpoint',
  ERR_OBJSTORE_INVALID_REGION: 'region',
  ERR_OBJSTORE_INVALID_BUCKET: 'bucket',
  ERR_OBJSTORE_INVALID_PREFIX: 'prefix',
  ERR_OBJSTORE_INVALID_PUBLIC_URL: 'publicBaseUrl',
  ERR_OBJSTORE_INVALID_ACCESS_KEY: 'accessKeyId',
  ERR_OBJSTORE_INVALID_SECRET: 'secretAccessKey',
  ERR_OBJSTORE_SECRET_REQUIRED: 'secretAccessKey',
  ERR_OBJSTORE_SECRET_UNREADABLE: 'secretAccessKey',
} as const;
type FormField = (typeof FIELD_OF)[keyof typeof FIELD_OF];

/** A refusal of a connection test: the code, and the step it stopped at (none when the stored secret cannot be opened). */
export class TestRefusal extends ApiError {
  constructor(
    status: number,
    code: string,
    readonly step: Step | null,
  ) {
    super(status, code);
  }
}

/** An answer of a route that tests the bucket: its data, or its refusal with the step (`{ error, step }`). */
async function tested<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await call;
  if (response.ok) return data as T;
  const body = (error ?? {}) as { error?: string; step?: string; fields?: Record<string, unknown> };
  const code = body.error ?? `HTTP_${response.status}`;
  const step = (STEPS as readonly string[]).includes(body.step ?? '') ? (body.step as Step) : null;
  if (body.step !== undefined || code === 'ERR_OBJSTORE_SECRET_UNREADABLE') throw new TestRefusal(response.status, code, step);
  throw new ApiError(response.status, code, body.fields);
}

/** A test's outcome from a thrown refusal (`null` when the refusal is not a test's). */
function outcomeOf(err: unknown): TestOutcome | null {
  return err instanceof TestRefusal ? { ok: false, step: err.step, error: err } : null;
}

/**
 * `/storage` (admins, super users in their own company): the company's object-store configs
 * (`/objstore-configs`), the secret write-only; each tested with its steps shown, activated,
 * deactivated, edited and deleted (a bucket holding files is refused, explained). Live through the
 * `objstoreConfig` frames.
 */
export function Storage() {
  const { t } = useScreenStrings('storage', strings);
  const session = useSession();
  if (!session || !admins(session.user)) {
    return (
      <section className="admin-screen" aria-labelledby="storage-title">
        <h1 id="storage-title">{t('title')}</h1>
        <p className="placeholder">{t('adminsOnly')}</p>
      </section>
    );
  }
  return <ConfigList />;
}

function ConfigList() {
  const { t } = useScreenStrings('storage', strings);
  const { api } = useServices();
  const client = useQueryClient();
  const [editing, setEditing] = useState<Config | 'new' | null>(null);
  const [notice, setNotice] = useState('');
  /** The last test or action of a card, shown in it. */
  const [result, setResult] = useState<{ id: number; outcome?: TestOutcome; error?: unknown } | null>(null);
  // `objstoreConfig` frames (another admin's change, or one an activation deactivated) refetch it.
  const list = useQuery({ queryKey: keys.objstoreConfigs, queryFn: () => must(api.GET('/objstore-configs')) });
  const configs = list.data ?? [];

  const test = useMutation({
    mutationFn: (c: Config) => tested(api.POST('/objstore-configs/test-connection', { body: { id: c.id } })),
    onMutate: (c) => setResult({ id: c.id }),
    onSuccess: (report, c) => setResult({ id: c.id, outcome: { ok: true, latencyMs: report.latencyMs } }),
    onError: (err, c) => setResult({ id: c.id, ...(outcomeOf(err) ? { outcome: outcomeOf(err)! } : { error: err }) }),
  });
  const setActive = useMutation({
    mutationFn: ({ c, active }: { c: Config; active: boolean }) =>
      tested(api.PUT('/objstore-configs/{id}', { params: { path: { id: c.id } }, body: { active } })),
    onMutate: ({ c }) => setResult({ id: c.id }),
    onSuccess: (saved, { active }) => {
      void client.invalidateQueries({ queryKey: keys.objstoreConfigs });
      setNotice(t(active ? 'activated' : 'deactivated', { name: saved.name }));
    },
    onError: (err, { c }) => setResult({ id: c.id, ...(outcomeOf(err) ? { outcome: outcomeOf(err)! } : { error: err }) }),
  });
  const remove = useMutation({
    mutationFn: (c: Config) => must(api.DELETE('/objstore-configs/{id}', { params: { path: { id: c.id } } })),
    onMutate: (c) => setResult({ id: c.id }),
    onSuccess: (_, c) => {
      void client.invalidateQueries({ queryKey: keys.objstoreConfigs });
      setNotice(t('deleted', { name: c.name }));
    },
    onError: (err, c) => setResult({ id: c.id, error: err }),
  });
  // An edit starts from the stored config (`GET /objstore-configs/:id`), not the list read earlier; one deleted meanwhile is said so.
  const open = useMutation({
    mutationFn: (c: Config) => must(api.GET('/objstore-configs/{id}', { params: { path: { id: c.id } } })),
    onMutate: (c) => setResult({ id: c.id }),
    onSuccess: (fresh) => setEditing(fresh),
    onError: (err, c) => {
      setResult({ id: c.id, error: err });
      void client.invalidateQueries({ queryKey: keys.objstoreConfigs });
    },
  });
  const busy = test.isPending || setActive.isPending || remove.isPending || open.isPending;

  return (
    <section className="admin-screen storage-screen" aria-labelledby="storage-title">
      <AdminHeader titleId="storage-title" title={t('title')} intro={t('intro')} add={{ label: t('add'), onClick: () => setEditing('new') }} />
      <p className="visually-hidden" role="status">
        {notice}
      </p>
      {list.error && <FormError text={errorText(t, list.error)} />}
      {list.isSuccess && (
        <p className="list-count" aria-live="polite">
          {t('count', { count: configs.length })}
          {configs.length > 0 && !configs.some((c) => c.active) ? ` · ${t('noneActive')}` : ''}
        </p>
      )}
      {list.isSuccess && configs.length === 0 ? (
        <p className="placeholder">{t('empty')}</p>
      ) : (
        <ul className="cards storage-cards" aria-labelledby="storage-title" aria-busy={list.isLoading}>
          {configs.map((c) => (
            <li key={c.id} className={c.active ? 'card storage-card active' : 'card storage-card'} data-testid={`objstore-${c.id}`}>
              <h2>{c.name}</h2>
              <p className={c.active ? 'storage-state on' : 'storage-state muted'}>{c.active ? t('active') : t('inactive')}</p>
              <p>
                {t(`providers.${c.provider}`)} ·{' '}
                {c.prefix ? t('bucketPrefixLine', { bucket: c.bucket, prefix: c.prefix }) : t('bucketLine', { bucket: c.bucket })}
              </p>
              <p className="small-text muted storage-endpoint">{t('endpointLine', { endpoint: c.endpoint, region: c.region })}</p>
              <p className="small-text muted">
                {t('keyLine', { key: c.accessKeyId })} ·{' '}
                {c.secretLast4 ? t('secretLine', { last4: c.secretLast4 }) : c.hasSecret ? t('secretSaved') : t('noSecret')}
              </p>
              {c.publicBaseUrl && <p className="small-text muted storage-endpoint">{t('cdnLine', { url: c.publicBaseUrl })}</p>}
              <div className="row-actions">
                <button type="button" className="small" aria-label={t('testLabel', { name: c.name })} disabled={busy} onClick={() => test.mutate(c)}>
                  {test.isPending && test.variables?.id === c.id ? t('testing') : t('test')}
                </button>
                {c.active ? (
                  <ConfirmButton
                    className="small"
                    label={t('deactivate')}
                    title={t('deactivateTitle', { name: c.name })}
                    description={t('deactivateBody')}
                    confirmLabel={t('deactivate')}
                    disabled={busy}
                    onConfirm={() => setActive.mutate({ c, active: false })}
                  />
                ) : (
                  <ConfirmButton
                    className="small"
                    label={t('activate')}
                    title={t('activateTitle', { name: c.name })}
                    description={t('activateBody')}
                    confirmLabel={t('activate')}
                    disabled={busy}
                    onConfirm={() => setActive.mutate({ c, active: true })}
                  />
                )}
                <button type="button" className="small" aria-label={t('editLabel', { name: c.name })} disabled={busy} onClick={() => open.mutate(c)}>
                  {t('edit')}
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
              </div>
              <div role="status" className="storage-result">
                {result?.id === c.id && result.outcome && <TestSteps t={t} outcome={result.outcome} />}
                {result?.id === c.id && result.error !== undefined && <p className="form-error">{errorText(t, result.error)}</p>}
              </div>
            </li>
          ))}
        </ul>
      )}
      {editing && (
        <ConfigDialog
          config={editing === 'new' ? null : editing}
          close={(saved) => {
            setEditing(null);
            if (saved) setNotice(t(saved.active ? 'savedActive' : 'saved', { name: saved.name }));
          }}
        />
      )}
    </section>
  );
}

/** The test's steps, each with its outcome as the server answered it, and the sentence that sums them up. */
export function TestSteps({ t, outcome }: { t: TFunction; outcome: TestOutcome }) {
  const steps = stepOutcomes(outcome);
  const summary = outcome.ok
    ? t('steps.ok', { ms: outcome.latencyMs })
    : outcome.step
      ? t('steps.failedAt', { step: t(`steps.${outcome.step}`), reason: errorText(t, outcome.error) })
      : errorText(t, outcome.error);
  return (
    <div className="test-steps" data-testid="objstore-test">
      <p className={outcome.ok ? 'test-ok' : 'form-error'}>{summary}</p>
      {steps.length > 0 && (
        <ol aria-label={t('steps.title')}>
          {steps.map(({ step, state }) => (
            <li key={step} className={`step-${state}`}>
              <span aria-hidden="true">{state === 'passed' ? '✓' : state === 'failed' ? '✗' : '–'}</span> {t(`steps.${step}`)}: {t(`steps.${state}`)}
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}

/** Creating or editing a config: the secret write-only, the typed settings tested before saving if wished; refusals at their fields. */
function ConfigDialog({ config, close }: { config: Config | null; close: (saved: Config | null) => void }) {
  const { t } = useScreenStrings('storage', strings);
  const { api } = useServices();
  const client = useQueryClient();
  const [name, setName] = useState(config?.name ?? '');
  const [provider, setProvider] = useState<Provider>(config?.provider ?? 's3');
  const [endpoint, setEndpoint] = useState(config?.endpoint ?? '');
  const [region, setRegion] = useState(config?.region ?? '');
  const [bucket, setBucket] = useState(config?.bucket ?? '');
  const [prefix, setPrefix] = useState(config?.prefix ?? '');
  /** Null on a new config until touched: the server's default for the service (path style for MinIO and others). */
  const [pathStyle, setPathStyle] = useState<boolean | null>(config ? config.forcePathStyle : null);
  const [publicBaseUrl, setPublicBaseUrl] = useState(config?.publicBaseUrl ?? '');
  const [accessKeyId, setAccessKeyId] = useState(config?.accessKeyId ?? '');
  const [secret, setSecret] = useState('');
  const [active, setActive] = useState(config?.active ?? false);
  const [check, setCheck] = useState<TestOutcome | null>(null);

  /** What is sent: every field of a new config; on an edit only what changed (an unchanged bucket of a config holding files is not a move). */
  const fields = (): Body => {
    const all: Body = {
      name,
      provider,
      endpoint: endpoint.trim() || null,
      region: region.trim() || null,
      bucket,
      prefix: prefix.trim() || null,
      publicBaseUrl: publicBaseUrl.trim() || null,
      accessKeyId,
      ...(pathStyle !== null ? { forcePathStyle: pathStyle } : {}),
      ...(secret ? { secretAccessKey: secret } : {}),
    };
    if (!config) return all;
    const before: Record<string, unknown> = {
      name: config.name,
      provider: config.provider,
      endpoint: config.endpoint,
      region: config.region,
      bucket: config.bucket,
      prefix: config.prefix || null,
      publicBaseUrl: config.publicBaseUrl,
      accessKeyId: config.accessKeyId,
      forcePathStyle: config.forcePathStyle,
    };
    return Object.fromEntries(Object.entries(all).filter(([k, v]) => k === 'secretAccessKey' || before[k] !== v)) as Body;
  };

  const save = useMutation({
    mutationFn: () => {
      const body: Body = { ...fields(), ...(config ? (active !== config.active ? { active } : {}) : { active }) };
      return config
        ? tested(api.PUT('/objstore-configs/{id}', { params: { path: { id: config.id } }, body }))
        : tested(api.POST('/objstore-configs', { body: body as NewBody }));
    },
    onMutate: () => setCheck(null),
    onSuccess: (saved) => {
      void client.invalidateQueries({ queryKey: keys.objstoreConfigs });
      close(saved);
    },
    onError: (err) => setCheck(outcomeOf(err)),
  });
  const probe = useMutation({
    mutationFn: () => tested(api.POST('/objstore-configs/test-connection', { body: { ...fields(), ...(config ? { id: config.id } : {}) } })),
    onMutate: () => setCheck(null),
    onSuccess: (report) => setCheck({ ok: true, latencyMs: report.latencyMs }),
    onError: (err) => setCheck(outcomeOf(err)),
  });
  const failed = save.error ?? probe.error;
  const refusal = refusalOf<FormField>(t, failed instanceof TestRefusal ? null : failed, FIELD_OF);
  const defaultPathStyle = provider === 'minio' || provider === 'other';

  return (
    <FormDialog
      title={config ? t('editTitle', { name: config.name }) : t('addTitle')}
      description={t('intro')}
      submitLabel={t('save')}
      onSubmit={() => save.mutate()}
      onClose={() => close(null)}
      pending={save.isPending || probe.isPending}
      error={refusal.form}
    >
      <Field label={t('name')} error={refusal.byField.name}>
        {(p) => <input {...p} value={name} onChange={(e) => setName(e.target.value)} autoComplete="off" />}
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
      <Field label={t('endpoint')} error={refusal.byField.endpoint} hint={t('endpointHint')}>
        {(p) => <input {...p} type="url" value={endpoint} onChange={(e) => setEndpoint(e.target.value)} autoComplete="off" />}
      </Field>
      <Field label={t('region')} error={refusal.byField.region} hint={t('regionHint')}>
        {(p) => <input {...p} value={region} onChange={(e) => setRegion(e.target.value)} autoComplete="off" />}
      </Field>
      <Field label={t('bucket')} error={refusal.byField.bucket}>
        {(p) => <input {...p} value={bucket} onChange={(e) => setBucket(e.target.value)} autoComplete="off" />}
      </Field>
      <Field label={t('prefix')} error={refusal.byField.prefix} hint={t('prefixHint')}>
        {(p) => <input {...p} value={prefix} onChange={(e) => setPrefix(e.target.value)} autoComplete="off" />}
      </Field>
      <label className="check">
        <input type="checkbox" checked={pathStyle ?? defaultPathStyle} onChange={(e) => setPathStyle(e.target.checked)} />
        {t('forcePathStyle')}
      </label>
      <Field label={t('publicBaseUrl')} error={refusal.byField.publicBaseUrl} hint={t('publicBaseUrlHint')}>
        {(p) => <input {...p} type="url" value={publicBaseUrl} onChange={(e) => setPublicBaseUrl(e.target.value)} autoComplete="off" />}
      </Field>
      <Field label={t('accessKeyId')} error={refusal.byField.accessKeyId}>
        {(p) => <input {...p} value={accessKeyId} onChange={(e) => setAccessKeyId(e.target.value)} autoComplete="off" spellCheck={false} />}
      </Field>
      <Field
        label={t('secretAccessKey')}
        error={refusal.byField.secretAccessKey}
        hint={config?.hasSecret ? (config.secretLast4 ? t('secretKeepHint', { last4: config.secretLast4 }) : t('secretKeepHintShort')) : t('secretNewHint')}
      >
        {(p) => <input {...p} type="password" value={secret} onChange={(e) => setSecret(e.target.value)} autoComplete="new-password" />}
      </Field>
      <label className="check">
        <input type="checkbox" checked={active} onChange={(e) => setActive(e.target.checked)} />
        {t('makeActive')}
      </label>
      <div className="storage-probe">
        <button type="button" disabled={probe.isPending || save.isPending} onClick={() => probe.mutate()}>
          {probe.isPending ? t('testing') : t('testForm')}
        </button>
        <div role="status">{check && <TestSteps t={t} outcome={check} />}</div>
      </div>
    </FormDialog>
  );
}
