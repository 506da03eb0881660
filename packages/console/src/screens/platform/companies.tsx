import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { AlertDialog, Dialog } from 'radix-ui';
import { useState } from 'react';
import { must, type Schema } from '../../api/client.js';
import { useScreenStrings } from '../../i18n/screen-strings.js';
import { keys } from '../../realtime/apply-frame.js';
import { useServices, useSession } from '../../services.js';
import { AdminHeader, FormDialog } from '../../ui/admin-screen.js';
import { AdminList, usePagedList } from '../../ui/admin-list.js';
import { errorText } from '../../ui/errors.js';
import { ConfirmButton, Field, FormError, refusalOf } from '../../ui/form.js';
import { supers } from '../nav.js';
import { BusinessHours } from '../settings/business-hours.js';
import { strings } from './strings.js';
import '../../ui/admin.css';
import './platform.css';

type CompanyRow = Schema<'CompanyRow'>;
type Plan = Schema<'Plan'>;

export const RECURRENCES = ['MENSAL', 'BIMESTRAL', 'TRIMESTRAL', 'SEMESTRAL', 'ANUAL'] as const;
type Recurrence = (typeof RECURRENCES)[number];

/** The refusals of the company routes that name a field of the form (an e-mail taken: the admin's login when given, else the company's). */
const FIELD_OF = {
  ERR_INVALID_COMPANY_NAME: 'name',
  ERR_INVALID_NAME: 'adminName',
  ERR_INVALID_EMAIL: 'email',
  ERR_INVALID_DOCUMENT: 'document',
  ERR_INVALID_DUE_DATE: 'dueDate',
  ERR_PASSWORD_TOO_SHORT: 'password',
  ERR_NO_PLAN_FOUND: 'planId',
  ERR_CANNOT_DISABLE_OWN_COMPANY: 'status',
  ERR_EMAIL_ALREADY_EXISTS: 'email',
} as const;
type CompanyField = (typeof FIELD_OF)[keyof typeof FIELD_OF] | 'phone' | 'paymentMethod' | 'adminEmail' | 'recurrence';

/** A screen the platform's super users alone may open: anyone else reads why, and nothing is fetched. */
export function SupersOnly({ title, children }: { title: string; children: () => React.ReactNode }) {
  const { t } = useScreenStrings('platform', strings);
  const session = useSession();
  if (!session || !supers(session.user)) {
    return (
      <section className="admin-screen" aria-labelledby="platform-title">
        <h1 id="platform-title">{title}</h1>
        <p className="placeholder">{t('supersOnly')}</p>
      </section>
    );
  }
  return <>{children()}</>;
}

export function usePlans() {
  const { api } = useServices();
  return useQuery({ queryKey: keys.plans, queryFn: () => must(api.GET('/plans', { params: { query: {} } })) });
}

export function formatBytes(bytes: number, language: string): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${new Intl.NumberFormat(language, { maximumFractionDigits: unit === 0 ? 0 : 1 }).format(value)} ${units[unit]}`;
}

/** `/platform/companies`: every company of the platform, searched and paged; super users create, edit, suspend and delete them. */
export function Companies() {
  const { t } = useScreenStrings('platform', strings);
  return <SupersOnly title={t('companies.title')}>{() => <CompanyList />}</SupersOnly>;
}

function CompanyList() {
  const { t, i18n } = useScreenStrings('platform', strings);
  const { api } = useServices();
  const client = useQueryClient();
  const [editing, setEditing] = useState<CompanyRow | 'new' | null>(null);
  const [hoursOf, setHoursOf] = useState<CompanyRow | null>(null);
  const [notice, setNotice] = useState('');
  const list = usePagedList({
    key: keys.platformCompanies,
    fetch: (pageNumber, searchParam) => must(api.GET('/companiesPlan', { params: { query: { pageNumber, ...(searchParam ? { searchParam } : {}) } } })),
    items: (page) => page.companies,
  });
  const companies = list.items;
  const remove = useMutation({
    mutationFn: (company: CompanyRow) => must(api.DELETE('/companies/{id}', { params: { path: { id: company.id } } })),
    onSuccess: (_, company) => {
      setNotice(t('companies.deleted', { name: company.name }));
      void client.invalidateQueries({ queryKey: keys.platformCompanies });
    },
  });
  const day = (iso: string | null) => (iso ? new Date(`${iso.slice(0, 10)}T12:00:00`).toLocaleDateString(i18n.language) : t('companies.noDate'));

  return (
    <section className="admin-screen" aria-labelledby="companies-title">
      <AdminHeader
        titleId="companies-title"
        title={t('companies.title')}
        intro={t('companies.intro')}
        search={{ label: t('search'), value: list.search, onChange: list.setSearch }}
        add={{ label: t('companies.add'), onClick: () => setEditing('new') }}
      />
      <AdminList
        labelledBy="companies-title"
        list={list}
        notice={notice}
        errors={[remove.error && errorText(t, remove.error)]}
        count={(count) => t('companies.count', { count })}
        empty={t('companies.empty')}
        head={
          <>
            <th scope="col">{t('companies.columns.name')}</th>
            <th scope="col">{t('companies.columns.email')}</th>
            <th scope="col">{t('companies.columns.plan')}</th>
            <th scope="col">{t('companies.columns.status')}</th>
            <th scope="col">{t('companies.columns.dueDate')}</th>
            <th scope="col">{t('companies.columns.lastLogin')}</th>
            <th scope="col">{t('list.actions')}</th>
          </>
        }
        row={(company) => (
          <tr key={company.id} data-testid={`company-${company.id}`}>
            <th scope="row">{company.name}</th>
            <td data-label={t('companies.columns.email')}>{company.email ?? '—'}</td>
            <td data-label={t('companies.columns.plan')}>{company.plan?.name ?? '—'}</td>
            <td data-label={t('companies.columns.status')}>
              <span className={company.status ? 'pill ok' : 'pill off'}>{company.status ? t('active') : t('inactive')}</span>
            </td>
            <td data-label={t('companies.columns.dueDate')}>{day(company.dueDate)}</td>
            <td data-label={t('companies.columns.lastLogin')}>
              {company.lastLogin ? new Date(company.lastLogin).toLocaleString(i18n.language) : t('companies.never')}
            </td>
            <td className="row-actions">
              <button type="button" className="small" aria-label={t('editLabel', { name: company.name })} onClick={() => setEditing(company)}>
                {t('list.edit')}
              </button>
              <button type="button" className="small" aria-label={t('companies.hoursLabel', { name: company.name })} onClick={() => setHoursOf(company)}>
                {t('companies.hours')}
              </button>
              <ConfirmButton
                className="small"
                label={t('list.delete')}
                title={t('companies.deleteTitle', { name: company.name })}
                description={t('companies.deleteBody')}
                confirmLabel={t('list.delete')}
                disabled={remove.isPending}
                onConfirm={() => remove.mutate(company)}
              />
            </td>
          </tr>
        )}
      />
      {editing && (
        <CompanyDialog
          company={editing === 'new' ? null : editing}
          close={(saved) => {
            setEditing(null);
            if (saved) setNotice(t('companies.saved', { name: saved }));
          }}
        />
      )}
      {hoursOf && <HoursDialog company={hoursOf} close={() => setHoursOf(null)} />}
    </section>
  );
}

/**
 * Another company's business hours, for a super user: the same editor as the company's own settings,
 * on that company's clock (its `timezone` and `scheduleType`, read through `GET /companySettings/:companyId`).
 */
function HoursDialog({ company, close }: { company: CompanyRow; close: () => void }) {
  const { t } = useScreenStrings('platform', strings);
  const { api } = useServices();
  const settings = useQuery({
    queryKey: [...keys.platformCompanies, 'settings', company.id],
    queryFn: () => must(api.GET('/companySettings/{companyId}', { params: { path: { companyId: company.id } } })),
  });
  const text = (key: string) => (typeof settings.data?.[key] === 'string' ? (settings.data[key] as string) : undefined);
  return (
    <Dialog.Root open onOpenChange={(open) => !open && close()}>
      <Dialog.Portal>
        <Dialog.Overlay className="overlay" />
        <Dialog.Content className="dialog platform-dialog">
          <Dialog.Title>{t('companies.hoursTitle', { name: company.name })}</Dialog.Title>
          <Dialog.Description className="muted">{t('companies.hoursIntro')}</Dialog.Description>
          {settings.error && <FormError text={errorText(t, settings.error)} />}
          {settings.isSuccess && <BusinessHours companyId={company.id} zone={text('timezone') || undefined} scheduleType={text('scheduleType')} />}
          <div className="dialog-buttons">
            <Dialog.Close asChild>
              <button type="button">{t('companies.close')}</button>
            </Dialog.Close>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

/** Creating (with its first admin) or editing one company; suspending an active one asks first and says what it does. */
function CompanyDialog({ company, close }: { company: CompanyRow | null; close: (saved: string | null) => void }) {
  const { t, i18n } = useScreenStrings('platform', strings);
  const { api } = useServices();
  const client = useQueryClient();
  const plans = usePlans();
  const [form, setForm] = useState({
    name: company?.name ?? '',
    email: company?.email ?? '',
    phone: company?.phone ?? '',
    document: company?.document ?? '',
    planId: company ? String(company.planId) : '',
    dueDate: company?.dueDate ?? '',
    recurrence: (company?.recurrence ?? 'MENSAL') as Recurrence,
    paymentMethod: company?.paymentMethod ?? '',
    status: company?.status ?? true,
    password: '',
    adminName: '',
    adminEmail: '',
  });
  const [confirmSuspend, setConfirmSuspend] = useState(false);
  const set = <K extends keyof typeof form>(key: K, value: (typeof form)[K]) => setForm((f) => ({ ...f, [key]: value }));
  const disk = useQuery({
    queryKey: [...keys.platformCompanies, 'disk', company?.id],
    queryFn: () => must(api.GET('/companies/{id}/disk-usage', { params: { path: { id: company!.id } } })),
    enabled: company !== null,
  });
  const firstPlan = plans.data?.[0]?.id;
  const save = useMutation({
    mutationFn: () => {
      const planId = Number(form.planId || firstPlan);
      const record = {
        name: form.name,
        email: form.email,
        phone: form.phone,
        document: form.document,
        dueDate: form.dueDate,
        recurrence: form.recurrence,
        paymentMethod: form.paymentMethod,
        status: form.status,
        ...(planId ? { planId } : {}),
      };
      if (company) return must(api.PUT('/companies/{id}', { params: { path: { id: company.id } }, body: record })).then((c) => c.name);
      const body = {
        ...record,
        password: form.password,
        ...(form.adminName.trim() ? { adminName: form.adminName } : {}),
        ...(form.adminEmail.trim() ? { adminEmail: form.adminEmail } : {}),
      };
      return must(api.POST('/companies', { body })).then((r) => r.company.name);
    },
    onSuccess: (name) => {
      void client.invalidateQueries({ queryKey: keys.platformCompanies });
      close(name);
    },
  });
  const fieldOf = form.adminEmail.trim() ? { ...FIELD_OF, ERR_EMAIL_ALREADY_EXISTS: 'adminEmail' as const } : FIELD_OF;
  const refusal = refusalOf<CompanyField>(t, save.error, fieldOf);
  const submit = () => {
    if (company?.status && !form.status) setConfirmSuspend(true);
    else save.mutate();
  };
  const text = (key: 'name' | 'email' | 'phone' | 'document' | 'paymentMethod', type = 'text', autoComplete = 'off') => (
    <Field label={t(`companies.${key}`)} error={refusal.byField[key]}>
      {(p) => <input {...p} type={type} value={form[key]} onChange={(e) => set(key, e.target.value)} autoComplete={autoComplete} />}
    </Field>
  );

  return (
    <FormDialog
      className="platform-dialog"
      title={company ? t('companies.editTitle', { name: company.name }) : t('companies.addTitle')}
      description={t('companies.intro')}
      lead={company && disk.data && <p className="muted">{t('companies.disk', { size: formatBytes(disk.data.totalBytes, i18n.language) })}</p>}
      after={
        <AlertDialog.Root open={confirmSuspend} onOpenChange={setConfirmSuspend}>
          <AlertDialog.Portal>
            <AlertDialog.Overlay className="overlay" />
            <AlertDialog.Content className="dialog">
              <AlertDialog.Title>{t('companies.suspendTitle', { name: company?.name ?? form.name })}</AlertDialog.Title>
              <AlertDialog.Description>{t('companies.suspendBody')}</AlertDialog.Description>
              <div className="dialog-buttons">
                <AlertDialog.Cancel asChild>
                  <button type="button">{t('actions.cancel')}</button>
                </AlertDialog.Cancel>
                <AlertDialog.Action asChild>
                  <button type="button" className="danger" onClick={() => save.mutate()}>
                    {t('companies.suspend')}
                  </button>
                </AlertDialog.Action>
              </div>
            </AlertDialog.Content>
          </AlertDialog.Portal>
        </AlertDialog.Root>
      }
      submitLabel={t('list.save')}
      onSubmit={submit}
      onClose={() => close(null)}
      pending={save.isPending}
      error={refusal.form}
    >
      {text('name')}
      {text('email', 'email')}
      {text('phone', 'tel')}
      {text('document')}
      <Field label={t('companies.plan')} error={refusal.byField.planId}>
        {(p) => (
          <select {...p} value={form.planId || String(firstPlan ?? '')} onChange={(e) => set('planId', e.target.value)}>
            {(plans.data ?? []).map((plan: Plan) => (
              <option key={plan.id} value={plan.id}>
                {plan.name}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field label={t('companies.dueDate')} error={refusal.byField.dueDate}>
        {(p) => <input {...p} type="date" value={form.dueDate} onChange={(e) => set('dueDate', e.target.value)} />}
      </Field>
      <Field label={t('companies.recurrence')} error={refusal.byField.recurrence}>
        {(p) => (
          <select {...p} value={form.recurrence} onChange={(e) => set('recurrence', e.target.value as Recurrence)}>
            {RECURRENCES.map((r) => (
              <option key={r} value={r}>
                {t(`recurrences.${r}`)}
              </option>
            ))}
          </select>
        )}
      </Field>
      {text('paymentMethod')}
      <label className="check">
        <input
          type="checkbox"
          checked={form.status}
          onChange={(e) => set('status', e.target.checked)}
          aria-invalid={refusal.byField.status ? true : undefined}
          aria-describedby={refusal.byField.status ? 'company-status-error' : undefined}
        />
        {t('companies.status')}
      </label>
      {refusal.byField.status && (
        <span id="company-status-error" className="form-error" role="alert">
          {refusal.byField.status}
        </span>
      )}
      {!company && (
        <>
          <Field label={t('companies.password')} error={refusal.byField.password} hint={t('companies.passwordHint')}>
            {(p) => <input {...p} type="password" value={form.password} onChange={(e) => set('password', e.target.value)} autoComplete="new-password" />}
          </Field>
          <Field label={t('companies.adminName')} error={refusal.byField.adminName} hint={t('companies.adminNameHint')}>
            {(p) => <input {...p} value={form.adminName} onChange={(e) => set('adminName', e.target.value)} autoComplete="off" />}
          </Field>
          <Field label={t('companies.adminEmail')} error={refusal.byField.adminEmail} hint={t('companies.adminEmailHint')}>
            {(p) => <input {...p} type="email" value={form.adminEmail} onChange={(e) => set('adminEmail', e.target.value)} autoComplete="off" />}
          </Field>
        </>
      )}
    </FormDialog>
  );
}
