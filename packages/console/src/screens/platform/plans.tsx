import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { must, type Schema } from '../../api/client.js';
import { useScreenStrings } from '../../i18n/screen-strings.js';
import { keys } from '../../realtime/apply-frame.js';
import { useServices } from '../../services.js';
import { AdminHeader, FormDialog } from '../../ui/admin-screen.js';
import { errorText } from '../../ui/errors.js';
import { ConfirmButton, Field, FormError, refusalOf } from '../../ui/form.js';
import { useDebounced } from '../../ui/use-debounced.js';
import { RECURRENCES, SupersOnly } from './companies.js';
import { strings } from './strings.js';
import '../../ui/admin.css';
import './platform.css';

type Plan = Schema<'Plan'>;
type Recurrence = (typeof RECURRENCES)[number];

/** The plan's feature switches, as the API names them. */
const FEATURES = ['useCampaigns', 'useSchedules', 'useInternalChat', 'useExternalApi', 'useKanban', 'useOpenAi', 'useIntegrations'] as const;
type Feature = (typeof FEATURES)[number];
const LIMITS = ['users', 'connections', 'queues'] as const;

const FIELD_OF = {
  ERR_PLAN_NAME_ALREADY_EXISTS: 'name',
  ERR_INVALID_PLAN_NAME: 'name',
  ERR_INVALID_PLAN_AMOUNT: 'amount',
} as const;
type PlanField = (typeof FIELD_OF)[keyof typeof FIELD_OF] | (typeof LIMITS)[number] | 'trialDays';

/** `/platform/plans`: the platform's plans, searched by name; super users create, edit and delete them. */
export function Plans() {
  const { t } = useScreenStrings('platform', strings);
  return <SupersOnly title={t('plans.title')}>{() => <PlanList />}</SupersOnly>;
}

function PlanList() {
  const { t, i18n } = useScreenStrings('platform', strings);
  const { api } = useServices();
  const client = useQueryClient();
  const [search, setSearch] = useState('');
  const searchParam = useDebounced(search.trim(), 250);
  const [editing, setEditing] = useState<Plan | 'new' | null>(null);
  const [notice, setNotice] = useState('');
  const list = useQuery({
    queryKey: [...keys.plans, 'search', searchParam],
    queryFn: () => must(api.GET('/plans', { params: { query: searchParam ? { searchParam } : {} } })),
  });
  const plans = list.data ?? [];
  const remove = useMutation({
    mutationFn: (plan: Plan) => must(api.DELETE('/plans/{id}', { params: { path: { id: plan.id } } })),
    onSuccess: (_, plan) => {
      setNotice(t('plans.deleted', { name: plan.name }));
      void client.invalidateQueries({ queryKey: keys.plans });
    },
  });
  const price = (plan: Plan) =>
    `${new Intl.NumberFormat(i18n.language, { minimumFractionDigits: 2 }).format(Number(plan.amount))} · ${t(`recurrences.${plan.recurrence}`)}`;

  return (
    <section className="admin-screen" aria-labelledby="plans-title">
      <AdminHeader
        titleId="plans-title"
        title={t('plans.title')}
        intro={t('plans.intro')}
        search={{ label: t('search'), value: search, onChange: setSearch }}
        add={{ label: t('plans.add'), onClick: () => setEditing('new') }}
      />
      <p className="visually-hidden" role="status">
        {notice}
      </p>
      {remove.error && <FormError text={errorText(t, remove.error)} />}
      <p className="list-count" aria-live="polite">
        {list.isSuccess && t('plans.count', { count: plans.length })}
      </p>
      {list.isSuccess && plans.length === 0 ? (
        <p className="placeholder">{t('plans.empty')}</p>
      ) : (
        <table className="admin-table" aria-labelledby="plans-title" aria-busy={list.isLoading}>
          <thead>
            <tr>
              <th scope="col">{t('plans.columns.name')}</th>
              <th scope="col">{t('plans.columns.limits')}</th>
              <th scope="col">{t('plans.columns.amount')}</th>
              <th scope="col">{t('plans.columns.features')}</th>
              <th scope="col">{t('plans.columns.public')}</th>
              <th scope="col">{t('list.actions')}</th>
            </tr>
          </thead>
          <tbody>
            {plans.map((plan) => (
              <tr key={plan.id} data-testid={`plan-${plan.id}`}>
                <th scope="row">{plan.name}</th>
                <td data-label={t('plans.columns.limits')}>{t('plans.limits', plan)}</td>
                <td data-label={t('plans.columns.amount')}>{price(plan)}</td>
                <td data-label={t('plans.columns.features')}>
                  {FEATURES.filter((f) => plan[f])
                    .map((f) => t(`plans.features.${f}`))
                    .join(', ') || '—'}
                </td>
                <td data-label={t('plans.columns.public')}>{plan.isPublic ? t('yes') : t('no')}</td>
                <td className="row-actions">
                  <button type="button" className="small" aria-label={t('editLabel', { name: plan.name })} onClick={() => setEditing(plan)}>
                    {t('list.edit')}
                  </button>
                  <ConfirmButton
                    className="small"
                    label={t('list.delete')}
                    title={t('plans.deleteTitle', { name: plan.name })}
                    description={t('plans.deleteBody')}
                    confirmLabel={t('list.delete')}
                    disabled={remove.isPending}
                    onConfirm={() => remove.mutate(plan)}
                  />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {editing && (
        <PlanDialog
          plan={editing === 'new' ? null : editing}
          close={(saved) => {
            setEditing(null);
            if (saved) setNotice(t('plans.saved', { name: saved.name }));
          }}
        />
      )}
    </section>
  );
}

/** Creating or editing one plan: its limits, price, trial and features; the server's refusals at their fields. */
function PlanDialog({ plan, close }: { plan: Plan | null; close: (saved: Plan | null) => void }) {
  const { t } = useScreenStrings('platform', strings);
  const { api } = useServices();
  const client = useQueryClient();
  const [name, setName] = useState(plan?.name ?? '');
  const [limits, setLimits] = useState<Record<(typeof LIMITS)[number], string>>({
    users: String(plan?.users ?? 1),
    connections: String(plan?.connections ?? 1),
    queues: String(plan?.queues ?? 1),
  });
  const [amount, setAmount] = useState(plan?.amount ?? '0.00');
  const [recurrence, setRecurrence] = useState<Recurrence>(plan?.recurrence ?? 'MENSAL');
  const [trial, setTrial] = useState(plan?.trial ?? false);
  const [trialDays, setTrialDays] = useState(String(plan?.trialDays ?? 0));
  const [isPublic, setIsPublic] = useState(plan?.isPublic ?? true);
  const [features, setFeatures] = useState<Record<Feature, boolean>>(
    () => Object.fromEntries(FEATURES.map((f) => [f, plan ? plan[f] : true])) as Record<Feature, boolean>,
  );
  const save = useMutation({
    mutationFn: () => {
      const body = {
        name,
        users: Number(limits.users),
        connections: Number(limits.connections),
        queues: Number(limits.queues),
        amount,
        recurrence,
        trial,
        trialDays: Number(trialDays || 0),
        isPublic,
        ...features,
      };
      return plan ? must(api.PUT('/plans/{id}', { params: { path: { id: plan.id } }, body })) : must(api.POST('/plans', { body }));
    },
    onSuccess: (saved) => {
      void client.invalidateQueries({ queryKey: keys.plans });
      void client.invalidateQueries({ queryKey: keys.platformCompanies });
      close(saved);
    },
  });
  const refusal = refusalOf<PlanField>(t, save.error, FIELD_OF);

  return (
    <FormDialog
      className="platform-dialog"
      title={plan ? t('plans.editTitle', { name: plan.name }) : t('plans.addTitle')}
      description={t('plans.intro')}
      submitLabel={t('list.save')}
      onSubmit={() => save.mutate()}
      onClose={() => close(null)}
      pending={save.isPending}
      error={refusal.form}
    >
      <Field label={t('plans.name')} error={refusal.byField.name}>
        {(p) => <input {...p} value={name} onChange={(e) => setName(e.target.value)} autoComplete="off" required />}
      </Field>
      <fieldset className="platform-group">
        <legend>{t('plans.limitsLegend')}</legend>
        {LIMITS.map((limit) => (
          <Field key={limit} label={t(`plans.${limit}`)} error={refusal.byField[limit]}>
            {(p) => (
              <input
                {...p}
                type="number"
                min={0}
                max={1000000}
                step={1}
                value={limits[limit]}
                onChange={(e) => setLimits((l) => ({ ...l, [limit]: e.target.value }))}
              />
            )}
          </Field>
        ))}
      </fieldset>
      <Field label={t('plans.amount')} error={refusal.byField.amount} hint={t('plans.amountHint')}>
        {(p) => <input {...p} inputMode="decimal" value={amount} onChange={(e) => setAmount(e.target.value)} autoComplete="off" />}
      </Field>
      <Field label={t('plans.recurrence')}>
        {(p) => (
          <select {...p} value={recurrence} onChange={(e) => setRecurrence(e.target.value as Recurrence)}>
            {RECURRENCES.map((r) => (
              <option key={r} value={r}>
                {t(`recurrences.${r}`)}
              </option>
            ))}
          </select>
        )}
      </Field>
      <label className="check">
        <input type="checkbox" checked={trial} onChange={(e) => setTrial(e.target.checked)} />
        {t('plans.trial')}
      </label>
      {trial && (
        <Field label={t('plans.trialDays')} error={refusal.byField.trialDays}>
          {(p) => <input {...p} type="number" min={0} step={1} value={trialDays} onChange={(e) => setTrialDays(e.target.value)} />}
        </Field>
      )}
      <label className="check">
        <input type="checkbox" checked={isPublic} onChange={(e) => setIsPublic(e.target.checked)} />
        {t('plans.isPublic')}
      </label>
      <fieldset className="platform-group">
        <legend>{t('plans.featuresLegend')}</legend>
        {FEATURES.map((f) => (
          <label key={f} className="check">
            <input type="checkbox" checked={features[f]} onChange={(e) => setFeatures((all) => ({ ...all, [f]: e.target.checked }))} />
            {t(`plans.features.${f}`)}
          </label>
        ))}
      </fieldset>
    </FormDialog>
  );
}
