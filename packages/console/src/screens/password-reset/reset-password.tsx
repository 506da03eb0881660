import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { type FormEvent, useEffect, useId, useState } from 'react';
import type { Schema } from '../../api/client.js';
import { useScreenStrings } from '../../i18n/screen-strings.js';
import { useServices } from '../../services.js';
import { PASSWORD_RESET_NS, passwordResetStrings } from './strings.js';

/** Why a reset link cannot be used: already used or replaced, expired, or no token at all. */
type LinkProblem = 'invalidLink' | 'expiredLink' | 'missingLink';

/**
 * The page of an e-mailed reset link (`/reset-password?token=…`, the token then taken out of the
 * address bar): the new password twice, then a link to sign in with it. A used, replaced or expired link is explained, with a way to ask again.
 */
export function ResetPassword() {
  const { t } = useScreenStrings(PASSWORD_RESET_NS, passwordResetStrings);
  const { config } = useServices();
  const search = useSearch({ from: '/reset-password' });
  const navigate = useNavigate();
  // Kept here, and taken out of the address bar (and so of the history) as soon as it is read.
  const [token] = useState(search.token);
  useEffect(() => {
    if (search.token) void navigate({ to: '/reset-password', search: {}, replace: true });
  }, [search.token, navigate]);
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [error, setError] = useState<{ field: 'password' | 'confirm' | null; text: string } | null>(null);
  const [problem, setProblem] = useState<LinkProblem | null>(token ? null : 'missingLink');
  const [doneFor, setDoneFor] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const errorId = useId();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (password.length < 8) return setError({ field: 'password', text: t('tooShort') });
    if (password.length > 128) return setError({ field: 'password', text: t('tooLong') });
    if (password !== confirm) return setError({ field: 'confirm', text: t('mismatch') });
    setBusy(true);
    setError(null);
    const res = await fetch(`${config.backendUrl}/auth/reset-password`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token, password }),
    }).catch(() => null);
    setBusy(false);
    if (!res) return setError({ field: null, text: t('unreachable') });
    const body = (await res.json().catch(() => ({}))) as Partial<Schema<'PasswordReset'>> & { error?: string };
    if (res.ok) return setDoneFor(body.email ?? '');
    if (body.error === 'ERR_RESET_TOKEN_INVALID') return setProblem('invalidLink');
    if (body.error === 'ERR_RESET_TOKEN_EXPIRED') return setProblem('expiredLink');
    if (body.error === 'ERR_PASSWORD_TOO_SHORT') return setError({ field: 'password', text: t('tooShort') });
    if (body.error === 'ERR_PASSWORD_TOO_LONG') return setError({ field: 'password', text: t('tooLong') });
    setError({ field: null, text: t('generic', { code: body.error ?? res.status }) });
  };

  if (doneFor !== null || problem) {
    return (
      <main className="auth-page">
        <section className="auth-card" aria-labelledby="reset-title">
          <h1 id="reset-title">{t('resetTitle')}</h1>
          {doneFor !== null ? (
            <>
              <p role="status">{t('done')}</p>
              <Link to="/login">{t('signIn')}</Link>
            </>
          ) : (
            <>
              <p role="alert">{t(problem!)}</p>
              <Link to="/forgot-password">{t('askAgain')}</Link>
              <Link to="/login">{t('backToSignIn')}</Link>
            </>
          )}
        </section>
      </main>
    );
  }

  const described = (field: 'password' | 'confirm') => (error && (error.field === field || error.field === null) ? errorId : undefined);
  return (
    <main className="auth-page">
      <form className="auth-card" onSubmit={submit} aria-labelledby="reset-title" noValidate>
        <h1 id="reset-title">{t('resetTitle')}</h1>
        <p>{t('resetIntro')}</p>
        <label>
          {t('newPassword')}
          <input
            type="password"
            autoComplete="new-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            aria-invalid={error?.field === 'password' || undefined}
            aria-describedby={described('password')}
          />
        </label>
        <label>
          {t('confirm')}
          <input
            type="password"
            autoComplete="new-password"
            value={confirm}
            onChange={(e) => setConfirm(e.target.value)}
            aria-invalid={error?.field === 'confirm' || undefined}
            aria-describedby={described('confirm')}
          />
        </label>
        {error && (
          <p id={errorId} className="form-error" role="alert">
            {error.text}
          </p>
        )}
        <button type="submit" className="primary" disabled={busy || !password}>
          {busy ? t('saving') : t('save')}
        </button>
      </form>
    </main>
  );
}
