import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { must } from '../../api/client.js';
import { useScreenStrings } from '../../i18n/screen-strings.js';
import { keys } from '../../realtime/apply-frame.js';
import { useServices } from '../../services.js';
import { Field, refusalOf } from '../../ui/form.js';
import { useCompanyTimeZone } from '../ticket-actions.js';
import { estimateFinish, type Pacing, pacingOf } from './estimate.js';
import { strings } from './strings.js';

const NUMBERS = [
  'messageInterval',
  'messageIntervalMax',
  'longerIntervalAfter',
  'greaterInterval',
  'capHourly',
  'capDaily',
  'backoffErrorThreshold',
  'backoffPauseMinutes',
  'confirmationTimeoutHours',
] as const;
type Key = (typeof NUMBERS)[number] | 'startHour' | 'endHour' | 'sabado' | 'domingo';

/** The company's wall clock now, in its time zone. */
function wallNow(zone: string | undefined) {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', { timeZone: zone, weekday: 'short', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' })
      .formatToParts(new Date())
      .map((p) => [p.type, p.value]),
  );
  const weekday = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'].indexOf(parts.weekday ?? 'Mon');
  return { weekday, seconds: Number(parts.hour) * 3600 + Number(parts.minute) * 60 + Number(parts.second) };
}

/**
 * The pacing settings (`GET|POST /campaign-settings`), each explained and saved when it changes
 * (one key a request, so a refusal belongs to that field; the two gaps go together since the server
 * checks one against the other), with an estimate of when N recipients would be done.
 */
export function PacingSettings() {
  const { t, i18n } = useScreenStrings('campaigns', strings);
  const { api } = useServices();
  const client = useQueryClient();
  const zone = useCompanyTimeZone();
  const rows = useQuery({ queryKey: keys.campaignSettings, queryFn: () => must(api.GET('/campaign-settings')) });
  const stored = pacingOf(rows.data ?? []);
  const storedRaw = new Map((rows.data ?? []).map((r) => [r.key, r.value]));
  const [draft, setDraft] = useState<Partial<Record<Key, string | boolean>>>({});
  const [savedKey, setSavedKey] = useState<Key | null>(null);
  const [failedKey, setFailedKey] = useState<Key | null>(null);
  const [recipients, setRecipients] = useState('100');
  const defaults: Record<string, number> = { backoffErrorThreshold: 3, backoffPauseMinutes: 15, confirmationTimeoutHours: 24 };
  const valueOf = (key: Key): string | boolean => {
    if (key in draft) return draft[key]!;
    if (key === 'sabado' || key === 'domingo') return stored[key];
    if (key === 'startHour' || key === 'endHour') return stored[key];
    return storedRaw.get(key) ?? String((stored as unknown as Record<string, number>)[key] ?? defaults[key] ?? '');
  };
  /** The body for a change of `key`, from what is typed (`override` for a switch, whose new state is not rendered yet). */
  const bodyFor = (key: Key, override?: boolean) => {
    const toValue = (k: Key) => {
      const v = k === key && override !== undefined ? override : valueOf(k);
      return typeof v === 'boolean' ? v : NUMBERS.includes(k as never) && /^\d+$/.test(v.trim()) ? Number(v) : v;
    };
    const keysToSend: Key[] = key === 'messageInterval' || key === 'messageIntervalMax' ? ['messageInterval', 'messageIntervalMax'] : [key];
    return Object.fromEntries(keysToSend.map((k) => [k, toValue(k)]));
  };
  const save = useMutation({
    mutationFn: ({ settings }: { key: Key; settings: Record<string, unknown> }) => must(api.POST('/campaign-settings', { body: { settings } })),
    onMutate: ({ key }) => {
      setSavedKey(null);
      setFailedKey(key);
    },
    onSuccess: (rows, { key }) => {
      // The answer is every stored row: shown at once, so a switch never flips back while the list is read again.
      client.setQueryData(keys.campaignSettings, rows);
      setFailedKey(null);
      setSavedKey(key);
      const done: Key[] = key === 'messageInterval' || key === 'messageIntervalMax' ? ['messageInterval', 'messageIntervalMax'] : [key];
      setDraft((d) => Object.fromEntries(Object.entries(d).filter(([k]) => !done.includes(k as Key))));
    },
  });
  const refusal = refusalOf<Key>(t, save.error);
  const errorAt = (key: Key) => (failedKey === key && save.error ? (refusal.byField[key] ?? refusal.form ?? undefined) : undefined);
  const pacing: Pacing = {
    ...stored,
    ...Object.fromEntries(Object.entries(draft).map(([k, v]) => [k, typeof v === 'boolean' || k === 'startHour' || k === 'endHour' ? v : Number(v) || 0])),
  };
  const n = Math.max(0, Math.min(1_000_000, Math.floor(Number(recipients) || 0)));
  const estimate = n > 0 ? estimateFinish(n, pacing, wallNow(zone)) : null;
  const duration = (s: number) => {
    const parts: string[] = [];
    const d = Math.floor(s / 86400);
    const h = Math.floor((s % 86400) / 3600);
    const m = Math.floor((s % 3600) / 60);
    if (d) parts.push(t('duration.days', { count: d }));
    if (h) parts.push(t('duration.hours', { count: h }));
    if (m || parts.length === 0) parts.push(s < 60 ? t('duration.seconds', { count: Math.round(s) }) : t('duration.minutes', { count: m }));
    return parts.join(' ');
  };
  const weekdayName = (w: number) => new Intl.DateTimeFormat(i18n.language, { weekday: 'long', timeZone: 'UTC' }).format(new Date(Date.UTC(2024, 0, 7 + w)));
  const clock = (s: number) => `${String(Math.floor(s / 3600)).padStart(2, '0')}:${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}`;

  const commit = (key: Key) => {
    if (key in draft) save.mutate({ key, settings: bodyFor(key) });
  };
  return (
    <section aria-labelledby="pacing-title" className="pacing">
      <h2 id="pacing-title">{t('settingsTitle')}</h2>
      <p className="muted">{t('settingsIntro')}</p>
      <form className="form pacing-form" onSubmit={(e) => e.preventDefault()} noValidate>
        {(['messageInterval', 'messageIntervalMax', 'longerIntervalAfter', 'greaterInterval'] as const).map((key) => (
          <NumberSetting key={key} k={key} value={String(valueOf(key))} error={errorAt(key)} saved={savedKey === key} set={setDraft} commit={commit} />
        ))}
        {(['startHour', 'endHour'] as const).map((key) => (
          <Field key={key} label={t(`settings.${key}.label`)} hint={t(`settings.${key}.help`)} error={errorAt(key)}>
            {(p) => (
              <span className="setting-line">
                <input
                  {...p}
                  value={String(valueOf(key))}
                  inputMode="numeric"
                  placeholder="HH:mm"
                  onChange={(e) => setDraft((d) => ({ ...d, [key]: e.target.value }))}
                  onBlur={() => commit(key)}
                />
                {savedKey === key && <span role="status">{t('settingSaved')}</span>}
              </span>
            )}
          </Field>
        ))}
        {(['sabado', 'domingo'] as const).map((key) => (
          <label key={key} className="check">
            <input
              type="checkbox"
              checked={valueOf(key) === true}
              onChange={(e) => {
                setDraft((d) => ({ ...d, [key]: e.target.checked }));
                save.mutate({ key, settings: bodyFor(key, e.target.checked) });
              }}
            />
            {t(`settings.${key}.label`)}
          </label>
        ))}
        {(['capHourly', 'capDaily', 'backoffErrorThreshold', 'backoffPauseMinutes', 'confirmationTimeoutHours'] as const).map((key) => (
          <NumberSetting key={key} k={key} value={String(valueOf(key))} error={errorAt(key)} saved={savedKey === key} set={setDraft} commit={commit} />
        ))}
      </form>
      <section aria-labelledby="estimate-title" className="estimate">
        <h3 id="estimate-title">{t('estimateTitle')}</h3>
        <Field label={t('estimateRecipients')}>
          {(p) => <input {...p} type="number" min={1} step={1} value={recipients} onChange={(e) => setRecipients(e.target.value)} />}
        </Field>
        <p aria-live="polite" data-testid="estimate">
          {n > 0 &&
            (estimate
              ? t('estimateResult', { duration: duration(estimate.seconds), weekday: weekdayName(estimate.end.weekday), time: clock(estimate.end.seconds) })
              : t('estimateNever'))}
        </p>
        <p className="muted small-text">{t('estimateNote')}</p>
      </section>
    </section>
  );
}

function NumberSetting(props: {
  k: (typeof NUMBERS)[number];
  value: string;
  error: string | undefined;
  saved: boolean;
  set: (f: (d: Partial<Record<Key, string | boolean>>) => Partial<Record<Key, string | boolean>>) => void;
  commit: (key: Key) => void;
}) {
  const { t } = useScreenStrings('campaigns', strings);
  const { k } = props;
  return (
    <Field label={t(`settings.${k}.label`)} hint={t(`settings.${k}.help`)} error={props.error}>
      {(p) => (
        <span className="setting-line">
          <input
            {...p}
            inputMode="numeric"
            value={props.value}
            onChange={(e) => props.set((d) => ({ ...d, [k]: e.target.value }))}
            onBlur={() => props.commit(k)}
            onKeyDown={(e) => e.key === 'Enter' && props.commit(k)}
          />
          {props.saved && <span role="status">{t('settingSaved')}</span>}
        </span>
      )}
    </Field>
  );
}
