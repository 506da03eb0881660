import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { type FormEvent, useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Schema } from '../api/client.js';
import { useScreenStrings } from '../i18n/screen-strings.js';
import { useServices } from '../services.js';
import { PASSWORD_RESET_NS, passwordResetStrings } from './password-reset/strings.js';
import { inboxScreen } from './preload.js';
import { postLogin } from '../session/login.js';
import { PlatformLogo, usePublicSetting } from './signup/public-settings.js';
import { SIGNUP_NS, signupStrings } from './signup/strings.js';

type LoginResult = Schema<'LoginResult'>;

/**
 * Sign-in (with the platform's logo, the way to a forgotten password, and to sign up while the
 * platform allows it), and the first access's forced password change, which signs in again with the new password.
 */
export function SignIn() {
  const { t } = useTranslation();
  const reset = useScreenStrings(PASSWORD_RESET_NS, passwordResetStrings).t;
  const signup = useScreenStrings(SIGNUP_NS, signupStrings).t;
  const signupOpen = usePublicSetting('userCreation').data === 'enabled';
  const { config, session } = useServices();
  const navigate = useNavigate();
  const { next } = useSearch({ from: '/login' });
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [pending, setPending] = useState<LoginResult | null>(null);
  const errorId = useId();
  // What the sign-in opens, fetched while the operator types.
  useEffect(() => void inboxScreen.load().catch(() => undefined), []);

  const login = async (pass: string): Promise<LoginResult | null> => {
    let res: Response;
    try {
      res = await postLogin(config.backendUrl, email, pass);
    } catch {
      setError(t('signIn.unreachable'));
      return null;
    }
    if (res.ok) return (await res.json()) as LoginResult;
    const code = ((await res.json().catch(() => ({}))) as { error?: string }).error;
    if (res.status === 429) setError(t('signIn.throttled', { seconds: Number(res.headers.get('retry-after') ?? 60) }));
    else if (code === 'ERR_COMPANY_SUSPENDED' || code === 'ERR_COMPANY_INACTIVE') setError(t('signIn.suspended'));
    else if (res.status === 401) setError(t('signIn.wrong'));
    else setError(t('errors.generic', { code: code ?? res.status }));
    return null;
  };

  const enter = (result: LoginResult) => {
    session.signedIn({ token: result.token, user: result.user });
    void navigate({ to: next ?? '/tickets', replace: true });
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    const result = await login(password);
    setBusy(false);
    if (!result) return;
    if (result.mustChangePassword) setPending(result);
    else enter(result);
  };

  if (pending) return <ChangePassword first={pending} email={email} login={login} onDone={enter} />;

  return (
    <main className="auth-page">
      <form className="auth-card" onSubmit={submit} aria-describedby={error ? errorId : undefined} noValidate>
        <PlatformLogo />
        <h1>{t('signIn.title')}</h1>
        <label>
          {t('signIn.email')}
          <input type="email" autoComplete="username" required value={email} onChange={(e) => setEmail(e.target.value)} />
        </label>
        <label>
          {t('signIn.password')}
          <input type="password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.target.value)} />
        </label>
        {error && (
          <p id={errorId} className="form-error" role="alert">
            {error}
          </p>
        )}
        <button type="submit" className="primary" disabled={busy || !email || !password}>
          {busy ? t('signIn.busy') : t('signIn.submit')}
        </button>
        <Link to="/forgot-password">{reset('forgotLink')}</Link>
        {signupOpen && <Link to="/signup">{signup('createLink')}</Link>}
      </form>
    </main>
  );
}

function ChangePassword(props: {
  first: LoginResult;
  email: string;
  login: (password: string) => Promise<LoginResult | null>;
  onDone: (r: LoginResult) => void;
}) {
  const { t } = useTranslation();
  const { config } = useServices();
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (password.length < 8) return setError(t('password.tooShort'));
    if (password !== confirm) return setError(t('password.mismatch'));
    setBusy(true);
    setError(null);
    const res = await fetch(`${config.backendUrl}/users/${props.first.user.id}`, {
      method: 'PUT',
      credentials: 'include',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${props.first.token}` },
      body: JSON.stringify({ password }),
    }).catch(() => null);
    if (!res?.ok) {
      setBusy(false);
      const code = res ? ((await res.json().catch(() => ({}))) as { error?: string }).error : undefined;
      return setError(res ? t('errors.generic', { code: code ?? res.status }) : t('signIn.unreachable'));
    }
    const again = await props.login(password);
    setBusy(false);
    if (again) props.onDone(again);
  };

  return (
    <main className="auth-page">
      <form className="auth-card" onSubmit={submit} noValidate>
        <h1>{t('password.title')}</h1>
        <p>{t('password.intro')}</p>
        <label>
          {t('password.new')}
          <input type="password" autoComplete="new-password" value={password} onChange={(e) => setPassword(e.target.value)} />
        </label>
        <label>
          {t('password.confirm')}
          <input type="password" autoComplete="new-password" value={confirm} onChange={(e) => setConfirm(e.target.value)} />
        </label>
        {error && (
          <p className="form-error" role="alert">
            {error}
          </p>
        )}
        <button type="submit" className="primary" disabled={busy || !password}>
          {t('password.submit')}
        </button>
      </form>
    </main>
  );
}
