import { Link } from '@tanstack/react-router';
import { type FormEvent, useId, useRef, useState } from 'react';
import { useScreenStrings } from '../../i18n/screen-strings.js';
import { useServices } from '../../services.js';
import { PASSWORD_RESET_NS, passwordResetStrings } from './strings.js';

/**
 * "Forgot your password?": asks for the e-mail and says the same whatever it is (the server does
 * too); says when the server has no e-mail set up, so the user asks an administrator instead.
 */
export function ForgotPassword() {
  const { t, i18n } = useScreenStrings(PASSWORD_RESET_NS, passwordResetStrings);
  const { config } = useServices();
  const [email, setEmail] = useState('');
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const errorId = useId();
  const input = useRef<HTMLInputElement>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const typed = email.trim();
    if (!/^[^\s@]+@[^\s@]+$/.test(typed)) {
      setError(t('invalidEmail'));
      input.current?.focus();
      return;
    }
    setBusy(true);
    setError(null);
    const res = await fetch(`${config.backendUrl}/auth/forgot-password`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'accept-language': i18n.language },
      body: JSON.stringify({ email: typed }),
    }).catch(() => null);
    setBusy(false);
    if (!res) return setError(t('unreachable'));
    if (res.status === 202) return setSentTo(typed);
    const code = ((await res.json().catch(() => ({}))) as { error?: string }).error;
    if (code === 'ERR_MAIL_NOT_CONFIGURED') setError(t('notConfigured'));
    else if (res.status === 429) setError(t('throttled', { minutes: Math.max(1, Math.ceil(Number(res.headers.get('retry-after') ?? 60) / 60)) }));
    else setError(t('generic', { code: code ?? res.status }));
  };

  return (
    <main className="auth-page">
      {sentTo ? (
        <section className="auth-card" aria-labelledby="forgot-title">
          <h1 id="forgot-title">{t('forgotTitle')}</h1>
          <p role="status">{t('sent', { email: sentTo })}</p>
          <Link to="/login">{t('backToSignIn')}</Link>
        </section>
      ) : (
        <form className="auth-card" onSubmit={submit} aria-labelledby="forgot-title" noValidate>
          <h1 id="forgot-title">{t('forgotTitle')}</h1>
          <p>{t('forgotIntro')}</p>
          <label>
            {t('email')}
            <input
              ref={input}
              type="email"
              autoComplete="username"
              required
              value={email}
              onChange={(e) => setEmail(e.target.value)}
              aria-invalid={error === t('invalidEmail') || undefined}
              aria-describedby={error ? errorId : undefined}
            />
          </label>
          {error && (
            <p id={errorId} className="form-error" role="alert">
              {error}
            </p>
          )}
          <button type="submit" className="primary" disabled={busy || !email.trim()}>
            {busy ? t('sending') : t('send')}
          </button>
          <Link to="/login">{t('backToSignIn')}</Link>
        </form>
      )}
    </main>
  );
}
