import { useMutation, useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { type ChangeEvent, type FormEvent, useId, useRef, useState } from 'react';
import { ApiError, must, type Schema } from '../../api/client.js';
import { useScreenStrings } from '../../i18n/screen-strings.js';
import { useServices } from '../../services.js';
import { postLogin } from '../../session/login.js';
import { codeOf, errorText } from '../../ui/errors.js';
import { Field, FormError, refusalOf } from '../../ui/form.js';
import { money } from '../billing/billing-format.js';
import { PlatformLogo, usePublicSetting } from './public-settings.js';
import { checkSignup, documentDigits, SIGNUP_FIELDS, type SignupField, type SignupForm } from './signup-check.js';
import { SIGNUP_NS, signupStrings } from './strings.js';
import '../../ui/admin.css';

type Plan = Schema<'Plan'>;
type LoginResult = Schema<'LoginResult'>;
type FieldName = SignupField;
type Form = SignupForm;

/** The refusals of `POST /auth/signup` that name a field of the form. */
const FIELD_OF = {
  ERR_EMAIL_ALREADY_EXISTS: 'email',
  ERR_INVALID_EMAIL: 'email',
  ERR_INVALID_DOCUMENT: 'document',
  ERR_PASSWORD_TOO_SHORT: 'password',
  ERR_INVALID_COMPANY_NAME: 'companyName',
  ERR_INVALID_NAME: 'name',
  ERR_NO_PLAN_FOUND: 'planId',
} as const satisfies Record<string, FieldName>;

const EMPTY: Form = { companyName: '', document: '', phone: '', name: '', email: '', password: '', confirm: '' };

/**
 * `/signup`, public: a company signs itself up on a public plan with its first admin
 * (`POST /auth/signup`), then is signed in as that admin. Offered only while the platform allows
 * it (`userCreation`); otherwise the page says sign-up is closed.
 */
export function SignUp() {
  const { t } = useScreenStrings(SIGNUP_NS, signupStrings);
  const open = usePublicSetting('userCreation');
  if (open.isPending) {
    return (
      <main className="auth-page">
        <p className="loading" role="status">
          {t('loading')}
        </p>
      </main>
    );
  }
  // A server that cannot be reached now still gets the form: sending it says so.
  if (open.data !== undefined && open.data !== 'enabled') {
    return (
      <main className="auth-page">
        <section className="auth-card" aria-labelledby="signup-title">
          <PlatformLogo />
          <h1 id="signup-title">{t('closedTitle')}</h1>
          <p role="status">{t('closed')}</p>
          <Link to="/login">{t('backToSignIn')}</Link>
        </section>
      </main>
    );
  }
  return <SignUpForm />;
}

function SignUpForm() {
  const { t, i18n } = useScreenStrings(SIGNUP_NS, signupStrings);
  const { api, config, session } = useServices();
  const navigate = useNavigate();
  const plans = useQuery({ queryKey: ['public-plans'], queryFn: () => must(api.GET('/plans/list')) });
  const [form, setForm] = useState<Form>(EMPTY);
  const [planChoice, setPlanChoice] = useState<number | null>(null);
  const [mine, setMine] = useState<Partial<Record<FieldName, string>>>({});
  const [createdFor, setCreatedFor] = useState<string | null>(null);
  const inputs = useRef<Partial<Record<FieldName, HTMLElement | null>>>({});
  const planErrorId = useId();
  const lookupStatusId = useId();
  // The first plan is chosen until another one is (one plan needs no choice), and again when the chosen one is no longer offered.
  const planId = (plans.data?.some((p) => p.id === planChoice) ? planChoice : plans.data?.[0]?.id) ?? null;

  const signup = useMutation({
    mutationFn: async (body: { planId: number; companyName: string; name: string; email: string; password: string; phone?: string; document?: string }) => {
      await must(api.POST('/auth/signup', { body }));
      // The new admin signs in at once; should that fail, the page says to sign in.
      const res = await postLogin(config.backendUrl, body.email, body.password).catch(() => null);
      return res?.ok ? ((await res.json()) as LoginResult) : null;
    },
    onSuccess: (result, body) => {
      if (!result || result.mustChangePassword) return setCreatedFor(body.email);
      session.signedIn({ token: result.token, user: result.user });
      void navigate({ to: '/tickets', replace: true });
    },
    onError: (err) => {
      if (codeOf(err) === 'ERR_NO_PLAN_FOUND') void plans.refetch();
      // The focus moves to the first field the refusal names.
      const named = refusalOf(t, err, FIELD_OF).byField as Partial<Record<FieldName, string>>;
      const first = SIGNUP_FIELDS.find((f) => named[f]);
      if (first) inputs.current[first]?.focus();
    },
  });
  const lookup = useMutation({
    mutationFn: (cnpj: string) => must(api.GET('/auth/consulta-cnpj/{cnpj}', { params: { path: { cnpj } } })),
    onSuccess: (record) => setForm((f) => ({ ...f, companyName: record.tradeName || record.name })),
  });

  const refusal =
    signup.error instanceof ApiError
      ? refusalOf(t, signup.error, FIELD_OF)
      : { byField: {} as Partial<Record<FieldName, string>>, form: signup.error ? t('unreachable') : null };
  const lookupInvalid = lookup.error && codeOf(lookup.error) === 'ERR_INVALID_CNPJ' ? errorText(t, lookup.error) : undefined;
  const errorOf = (field: FieldName): string | undefined =>
    mine[field] ?? (field === 'document' ? lookupInvalid : undefined) ?? (refusal.byField as Partial<Record<FieldName, string>>)[field];

  const set = (field: keyof Form) => (e: ChangeEvent<HTMLInputElement>) => {
    const value = e.target.value;
    setForm((f) => ({ ...f, [field]: value }));
    if (field === 'document') lookup.reset();
  };
  const ref = (field: FieldName) => (el: HTMLElement | null) => {
    inputs.current[field] = el;
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (signup.isPending) return;
    const found = checkSignup(form, planId);
    const problems = Object.fromEntries(Object.entries(found).map(([field, problem]) => [field, t(problem)])) as Partial<Record<FieldName, string>>;
    setMine(problems);
    const first = SIGNUP_FIELDS.find((f) => problems[f]);
    if (first) {
      signup.reset();
      inputs.current[first]?.focus();
      return;
    }
    const phone = form.phone.trim();
    const document = form.document.trim();
    signup.mutate({
      planId: planId!,
      companyName: form.companyName.trim(),
      name: form.name.trim(),
      email: form.email.trim(),
      password: form.password,
      ...(phone ? { phone } : {}),
      ...(document ? { document } : {}),
    });
  };

  const cnpj = documentDigits(form.document);
  const lookupText = lookup.isPending
    ? t('lookingUp')
    : lookup.data
      ? lookup.data.status
        ? t('found', { name: lookup.data.name, status: lookup.data.status })
        : t('foundNoStatus', { name: lookup.data.name })
      : lookup.error && codeOf(lookup.error) === 'ERR_CNPJ_NOT_FOUND'
        ? t('notFound')
        : lookup.error && !lookupInvalid
          ? t('registryDown')
          : '';

  const price = (plan: Plan) =>
    Number(plan.amount) === 0
      ? t('free')
      : t('price', { amount: money(plan.amount, i18n.language), period: t(`every.${plan.recurrence}`, { defaultValue: plan.recurrence }) });

  if (createdFor !== null) {
    return (
      <main className="auth-page">
        <section className="auth-card" aria-labelledby="signup-title">
          <PlatformLogo />
          <h1 id="signup-title">{t('title')}</h1>
          <p role="status">{t('created', { email: createdFor })}</p>
          <Link to="/login">{t('signIn')}</Link>
        </section>
      </main>
    );
  }

  const planError = errorOf('planId');
  return (
    <main className="auth-page">
      <form className="auth-card signup-card" onSubmit={submit} aria-labelledby="signup-title" noValidate>
        <PlatformLogo />
        <h1 id="signup-title">{t('title')}</h1>
        <p className="muted">{t('intro')}</p>

        <fieldset className="signup-group" aria-describedby={planError ? planErrorId : undefined}>
          <legend>{t('plan')}</legend>
          {plans.isPending && <p role="status">{t('loading')}</p>}
          {plans.isError && <FormError text={t('unreachable')} />}
          {plans.data?.length === 0 && <p role="status">{t('noPlans')}</p>}
          <div className="signup-plans">
            {plans.data?.map((plan, index) => (
              <label key={plan.id} className="signup-plan">
                <input
                  ref={index === 0 ? ref('planId') : undefined}
                  type="radio"
                  name="plan"
                  value={plan.id}
                  checked={planId === plan.id}
                  onChange={() => setPlanChoice(plan.id)}
                />
                <span className="signup-plan-text">
                  <strong>{plan.name}</strong>
                  <span>{price(plan)}</span>
                  <span className="muted">
                    {[t('users', { count: plan.users }), t('connections', { count: plan.connections }), t('queues', { count: plan.queues })].join(' · ')}
                  </span>
                  {plan.trial && plan.trialDays > 0 && <span className="signup-trial">{t('trial', { count: plan.trialDays })}</span>}
                </span>
              </label>
            ))}
          </div>
          {planError && (
            <p id={planErrorId} className="form-error" role="alert">
              {planError}
            </p>
          )}
        </fieldset>

        <fieldset className="signup-group">
          <legend>{t('company')}</legend>
          <Field label={t('document')} error={errorOf('document')} hint={t('documentHint')}>
            {(p) => (
              <div className="signup-lookup">
                <input {...p} ref={ref('document')} value={form.document} onChange={set('document')} inputMode="numeric" autoComplete="off" />
                <button type="button" disabled={cnpj.length !== 14 || lookup.isPending} onClick={() => lookup.mutate(cnpj)} aria-describedby={lookupStatusId}>
                  {t('lookUp')}
                </button>
              </div>
            )}
          </Field>
          <p id={lookupStatusId} className="signup-lookup-status" role="status">
            {lookupText}
          </p>
          <Field label={t('companyName')} error={errorOf('companyName')}>
            {(p) => <input {...p} ref={ref('companyName')} value={form.companyName} onChange={set('companyName')} autoComplete="organization" required />}
          </Field>
          <Field label={t('phone')} error={errorOf('phone')}>
            {(p) => <input {...p} ref={ref('phone')} type="tel" value={form.phone} onChange={set('phone')} autoComplete="tel" />}
          </Field>
        </fieldset>

        <fieldset className="signup-group">
          <legend>{t('you')}</legend>
          <Field label={t('name')} error={errorOf('name')}>
            {(p) => <input {...p} ref={ref('name')} value={form.name} onChange={set('name')} autoComplete="name" required />}
          </Field>
          <Field label={t('email')} error={errorOf('email')} hint={t('emailHint')}>
            {(p) => <input {...p} ref={ref('email')} type="email" value={form.email} onChange={set('email')} autoComplete="username" required />}
          </Field>
          <Field label={t('password')} error={errorOf('password')} hint={t('passwordHint')}>
            {(p) => (
              <input {...p} ref={ref('password')} type="password" value={form.password} onChange={set('password')} autoComplete="new-password" required />
            )}
          </Field>
          <Field label={t('confirm')} error={errorOf('confirm')}>
            {(p) => <input {...p} ref={ref('confirm')} type="password" value={form.confirm} onChange={set('confirm')} autoComplete="new-password" required />}
          </Field>
        </fieldset>

        <FormError text={refusal.form} />
        <button type="submit" className="primary" disabled={signup.isPending || plans.data?.length === 0}>
          {signup.isPending ? t('submitting') : t('submit')}
        </button>
        <Link to="/login">{t('haveAccount')}</Link>
      </form>
    </main>
  );
}
