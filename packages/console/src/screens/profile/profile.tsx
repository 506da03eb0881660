import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import { must, type Schema } from '../../api/client.js';
import { LANGUAGES, setLanguage } from '../../i18n/index.js';
import { useScreenStrings } from '../../i18n/screen-strings.js';
import { keys } from '../../realtime/apply-frame.js';
import { useServices, useSession } from '../../services.js';
import { Field, FormError, refusalOf } from '../../ui/form.js';
import { isMuted, notificationsSupported, setMuted } from '../../ui/notifications.js';
import { applyTheme, currentTheme, PREFERENCES_CHANGED, type Theme } from '../../ui/theme.js';
import { PictureField } from '../users/users.js';
import { strings } from './strings.js';
import '../../ui/admin.css';
import { postLogin } from '../../session/login.js';

type LoginResult = Schema<'LoginResult'>;

/** The refusals of `PUT /users/:userId` that name a field of this screen. */
const FIELD_OF = {
  ERR_EMAIL_ALREADY_EXISTS: 'email',
  ERR_INVALID_EMAIL: 'email',
  ERR_INVALID_NAME: 'name',
  ERR_PASSWORD_TOO_SHORT: 'password',
  ERR_PASSWORD_TOO_LONG: 'password',
} as const;

/**
 * `/profile`: one's own name, sign-in e-mail, picture and password (`PUT /users/:userId`, as anyone
 * may for themself), and this browser's preferences (language, theme, notifications), which the
 * top bar also shows. A new password ends every session of the user on the server; this tab then
 * signs in again with it, so only the others end. Below, the backend's version (`GET /version`).
 */
export function Profile() {
  const { t } = useScreenStrings('profile', strings);
  const { api } = useServices();
  const session = useSession();
  const userId = session?.user.id ?? 0;
  const me = useQuery({ queryKey: [...keys.users, 'me', userId], queryFn: () => must(api.GET('/users/{userId}', { params: { path: { userId } } })) });

  return (
    <section className="admin-screen profile-screen" aria-labelledby="profile-title">
      <header className="admin-header">
        <h1 id="profile-title">{t('title')}</h1>
        <p className="muted">{t('intro')}</p>
      </header>
      {me.data && <Details key={me.data.updatedAt} user={me.data} />}
      {me.data && <PictureField user={me.data} />}
      {me.data && <Password email={me.data.email} userId={userId} />}
      <Preferences userId={userId} />
      <About />
    </section>
  );
}

function Details({ user }: { user: Schema<'UserDetails'> }) {
  const { t } = useScreenStrings('profile', strings);
  const { api } = useServices();
  const client = useQueryClient();
  const [name, setName] = useState(user.name);
  const [email, setEmail] = useState(user.email);
  const save = useMutation({
    mutationFn: () => must(api.PUT('/users/{userId}', { params: { path: { userId: user.id } }, body: { name, email } })),
    onSuccess: () => void client.invalidateQueries({ queryKey: keys.users }),
  });
  const refusal = refusalOf(t, save.error, FIELD_OF);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate();
  };
  return (
    <form className="form admin-form" onSubmit={submit} aria-labelledby="profile-details" noValidate>
      <h2 id="profile-details">{t('details')}</h2>
      <Field label={t('name')} error={refusal.byField.name}>
        {(p) => <input {...p} value={name} onChange={(e) => setName(e.target.value)} autoComplete="name" required />}
      </Field>
      <Field label={t('email')} error={refusal.byField.email}>
        {(p) => <input {...p} type="email" value={email} onChange={(e) => setEmail(e.target.value)} autoComplete="username" required />}
      </Field>
      <FormError text={refusal.form} />
      <p className="small-text" role="status">
        {save.isSuccess ? t('saved') : ''}
      </p>
      <div className="dialog-buttons">
        <button type="submit" className="primary" disabled={save.isPending}>
          {t('save')}
        </button>
      </div>
    </form>
  );
}

function Password({ email, userId }: { email: string; userId: number }) {
  const { t } = useScreenStrings('profile', strings);
  const { api, config, session } = useServices();
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [mine, setMine] = useState<string | null>(null);
  const change = useMutation({
    mutationFn: () =>
      session.renewWith(async () => {
        await must(api.PUT('/users/{userId}', { params: { path: { userId } }, body: { password } }));
        // The server ended every session of the user, this one too: sign in again with the new password.
        const res = await postLogin(config.backendUrl, email, password).catch(() => null);
        if (!res?.ok) throw new Error(t('signInAgainFailed'));
        const again = (await res.json()) as LoginResult;
        return { token: again.token, user: again.user };
      }),
    onSuccess: () => {
      setPassword('');
      setConfirm('');
    },
  });
  const refusal = refusalOf(t, change.error, FIELD_OF);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (password.length < 8) return setMine(t('tooShort'));
    if (password !== confirm) return setMine(t('mismatch'));
    setMine(null);
    change.mutate();
  };
  const failure = change.error && !(change.error instanceof Error && change.error.message === t('signInAgainFailed')) ? refusal.form : change.error?.message;
  return (
    <form className="form admin-form" onSubmit={submit} aria-labelledby="profile-password" noValidate>
      <h2 id="profile-password">{t('password')}</h2>
      <p className="muted small-text">{t('passwordIntro')}</p>
      <Field label={t('newPassword')} error={mine === t('tooShort') ? mine : refusal.byField.password}>
        {(p) => <input {...p} type="password" value={password} onChange={(e) => setPassword(e.target.value)} autoComplete="new-password" />}
      </Field>
      <Field label={t('confirm')} error={mine === t('mismatch') ? mine : undefined}>
        {(p) => <input {...p} type="password" value={confirm} onChange={(e) => setConfirm(e.target.value)} autoComplete="new-password" />}
      </Field>
      <FormError text={failure ?? null} />
      <p className="small-text" role="status">
        {change.isSuccess ? t('changed') : ''}
      </p>
      <div className="dialog-buttons">
        <button type="submit" className="primary" disabled={change.isPending}>
          {t('change')}
        </button>
      </div>
    </form>
  );
}

function Preferences({ userId }: { userId: number }) {
  const { t, i18n } = useScreenStrings('profile', strings);
  const [theme, setTheme] = useState<Theme>(currentTheme());
  const [muted, setMutedState] = useState(() => isMuted(userId));
  const [permission, setPermission] = useState(() => (notificationsSupported() ? Notification.permission : 'denied'));
  // The top bar changes these too: this screen follows.
  useEffect(() => {
    const follow = () => {
      setTheme(currentTheme());
      setMutedState(isMuted(userId));
    };
    window.addEventListener(PREFERENCES_CHANGED, follow);
    return () => window.removeEventListener(PREFERENCES_CHANGED, follow);
  }, [userId]);
  return (
    <fieldset className="form admin-form profile-preferences">
      <legend>
        <h2>{t('preferences')}</h2>
      </legend>
      <Field label={t('language')}>
        {(p) => (
          <select {...p} value={i18n.resolvedLanguage} onChange={(e) => void setLanguage(e.target.value)}>
            {LANGUAGES.map((l) => (
              <option key={l.code} value={l.code}>
                {l.name}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field label={t('theme')}>
        {(p) => (
          <select {...p} value={theme} onChange={(e) => applyTheme(e.target.value as Theme)}>
            <option value="light">{t('light')}</option>
            <option value="dark">{t('dark')}</option>
          </select>
        )}
      </Field>
      <label className="check">
        <input type="checkbox" checked={!muted} disabled={permission === 'denied'} onChange={(e) => setMuted(userId, !e.target.checked)} />
        {t('notifications')}
      </label>
      {permission === 'denied' && notificationsSupported() && <p className="muted small-text">{t('notificationsBlocked')}</p>}
      {permission === 'default' && (
        <button type="button" onClick={() => void Notification.requestPermission().then(setPermission)}>
          {t('ask')}
        </button>
      )}
    </fieldset>
  );
}

/** The backend's version and since when it runs, as `GET /version` answers it (read once per page load). */
function About() {
  const { t, i18n } = useScreenStrings('profile', strings);
  const { api } = useServices();
  const version = useQuery({ queryKey: ['version'], queryFn: () => must(api.GET('/version')), staleTime: Number.POSITIVE_INFINITY });
  const since = version.data
    ? new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(version.data.startedAt))
    : '';
  return (
    <section className="profile-about" aria-labelledby="profile-about">
      <h2 id="profile-about">{t('about')}</h2>
      <p className="muted small-text" data-testid="backend-version">
        {version.data ? t('version', { version: version.data.version, name: version.data.name, since }) : version.isError ? t('versionUnknown') : ''}
      </p>
    </section>
  );
}
