import { DEFAULT_TIME_ZONE } from '@servicedesk/core/tenancy/business-hours';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { must, type Schema } from '../../api/client.js';
import { useScreenStrings } from '../../i18n/screen-strings.js';
import { keys } from '../../realtime/apply-frame.js';
import { useServices } from '../../services.js';
import { errorText } from '../../ui/errors.js';
import { strings } from './strings.js';

type DayHours = Schema<'BusinessHours'>;
type Weekday = DayHours['weekdayEn'];
type Day = Pick<DayHours, 'startTimeA' | 'endTimeA' | 'startTimeB' | 'endTimeB'>;
type Week = Record<Weekday, Day>;

const WEEKDAYS: readonly Weekday[] = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
const RANGES = ['A', 'B'] as const;

function weekOf(schedules: readonly DayHours[] | undefined): Week {
  const day = (d: Weekday): Day => {
    const found = schedules?.find((s) => s.weekdayEn === d);
    return { startTimeA: found?.startTimeA ?? '', endTimeA: found?.endTimeA ?? '', startTimeB: found?.startTimeB ?? '', endTimeB: found?.endTimeB ?? '' };
  };
  return Object.fromEntries(WEEKDAYS.map((d) => [d, day(d)])) as Week;
}

/**
 * A company's business hours (its record's `schedules`, `PUT /companies/:id/schedules`), read and
 * typed on the company's clock (its setting `timezone`, given as `zone`; `scheduleType` says whether
 * the company routes by them). Its own admins' screen follows another admin's save through the
 * company's frame, shown unless this admin is editing the hours; a super user edits another
 * company's from the platform screen (no frame of that company reaches them).
 */
export function BusinessHours({ companyId, zone = DEFAULT_TIME_ZONE, scheduleType }: { companyId: number; zone?: string; scheduleType?: string }) {
  const titleId = useId();
  const hintId = useId();
  const { t } = useScreenStrings('settings', strings);
  const { api } = useServices();
  const client = useQueryClient();
  const company = useQuery({ queryKey: keys.company(companyId), queryFn: () => must(api.GET('/companies/{id}', { params: { path: { id: companyId } } })) });
  const [draft, setDraft] = useState<Week | null>(null);
  const save = useMutation({
    mutationFn: (week: Week) =>
      must(
        api.PUT('/companies/{id}/schedules', {
          params: { path: { id: companyId } },
          body: { schedules: WEEKDAYS.map((d) => ({ weekday: t(`hours.days.${d}`), weekdayEn: d, ...week[d] })) },
        }),
      ),
    onSuccess: (saved) => {
      client.setQueryData(keys.company(companyId), saved);
      setDraft(null);
    },
  });
  const week = draft ?? weekOf(company.data?.schedules);
  const setTime = (day: Weekday, field: keyof Day, value: string) => {
    save.reset();
    setDraft({ ...week, [day]: { ...week[day], [field]: value } });
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate(week);
  };
  const error = save.error ? errorText(t, save.error) : null;

  return (
    <form className="settings-hours" onSubmit={submit} noValidate aria-labelledby={titleId}>
      <h3 id={titleId}>{t('subjects.hours')}</h3>
      <p id={hintId} className="hint">
        {t('hours.intro', { zone: zone.replaceAll('_', ' ') })} {scheduleType === 'company' ? t('hours.used') : t('hours.unused')}
      </p>
      <table className="hours-table" aria-describedby={hintId} aria-busy={company.isLoading}>
        <thead>
          <tr>
            <th scope="col">{t('hours.day')}</th>
            <th scope="col">{t('hours.rangeA')}</th>
            <th scope="col">{t('hours.rangeB')}</th>
          </tr>
        </thead>
        <tbody>
          {WEEKDAYS.map((d) => (
            <tr key={d}>
              <th scope="row">{t(`hours.days.${d}`)}</th>
              {RANGES.map((r) => {
                const range = r === 'A' ? t('hours.rangeA') : t('hours.rangeB');
                return (
                  <td key={r} data-label={range}>
                    <span className="time-range">
                      <input
                        type="time"
                        aria-label={t('hours.from', { day: t(`hours.days.${d}`), range })}
                        aria-invalid={error ? true : undefined}
                        value={week[d][`startTime${r}`]}
                        onChange={(e) => setTime(d, `startTime${r}`, e.target.value)}
                      />
                      <span aria-hidden="true">–</span>
                      <input
                        type="time"
                        aria-label={t('hours.to', { day: t(`hours.days.${d}`), range })}
                        aria-invalid={error ? true : undefined}
                        value={week[d][`endTime${r}`]}
                        onChange={(e) => setTime(d, `endTime${r}`, e.target.value)}
                      />
                    </span>
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      <div className="settings-actions">
        <button type="submit" className="primary" disabled={!company.isSuccess || save.isPending}>
          {t('hours.save')}
        </button>
        <span className="small-text" role="status">
          {save.isSuccess ? t('hours.saved') : ''}
        </span>
      </div>
    </form>
  );
}
