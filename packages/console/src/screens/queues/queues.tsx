import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { must, type Schema } from '../../api/client.js';
import { useScreenStrings } from '../../i18n/screen-strings.js';
import { keys } from '../../realtime/apply-frame.js';
import { useServices } from '../../services.js';
import { errorText } from '../../ui/errors.js';
import { AdminList } from '../../ui/admin-list.js';
import { AdminHeader, FormDialog } from '../../ui/admin-screen.js';
import { ColorField, ConfirmButton, Field, refusalOf } from '../../ui/form.js';
import { useQueues, useUserNames } from './data.js';
import { QueueMenus } from './menu-tree.js';
import { strings } from './strings.js';
import '../../ui/admin.css';
import './queues.css';

type Queue = Schema<'QueueWithUsers'>;
type DayHours = Schema<'DayHours'>;
type Weekday = DayHours['weekdayEn'];

const WEEKDAYS: readonly Weekday[] = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];

/** The refusals of the queue routes that name a field of the form. */
const FIELD_OF = {
  ERR_QUEUE_NAME_ALREADY_EXISTS: 'name',
  ERR_INVALID_QUEUE_NAME: 'name',
  ERR_INVALID_QUEUE_COLOR: 'color',
  ERR_INVALID_QUEUE_ORDER: 'orderQueue',
  ERR_INVALID_SCHEDULES: 'schedules',
  ERR_TOO_MANY_QUEUE_USERS: 'userIds',
  ERR_NO_USER_FOUND: 'userIds',
  ERR_PLAN_FEATURE_DISABLED: 'integrationId',
  ERR_INTEGRATION_NOT_FOUND: 'integrationId',
  ERR_NO_PROMPT_FOUND: 'promptId',
} as const;
type QueueField = (typeof FIELD_OF)[keyof typeof FIELD_OF] | 'greetingMessage' | 'outOfHoursMessage';

/**
 * `/queues`: the company's queues (departments) in menu order, live from `queue` frames; admins
 * create, edit and delete them and edit each queue's menus (options and chatbots) with a preview.
 */
export function Queues() {
  const { t } = useScreenStrings('queues', strings);
  const { api } = useServices();
  const client = useQueryClient();
  const list = useQueues();
  const [editing, setEditing] = useState<Queue | 'new' | null>(null);
  const [menusOf, setMenusOf] = useState<number | null>(null);
  const [notice, setNotice] = useState('');
  const queues = list.data ?? [];
  const shownMenus = queues.find((q) => q.id === menusOf) ?? null;

  const remove = useMutation({
    mutationFn: (queue: Queue) => must(api.DELETE('/queue/{queueId}', { params: { path: { queueId: queue.id } } })),
    onSuccess: (_, queue) => {
      setNotice(t('deleted', { name: queue.name }));
      if (menusOf === queue.id) setMenusOf(null);
      void client.invalidateQueries({ queryKey: keys.queues });
    },
  });

  return (
    <section className="admin-screen" aria-labelledby="queues-title">
      <AdminHeader titleId="queues-title" title={t('title')} intro={t('intro')} add={{ label: t('add'), onClick: () => setEditing('new') }} />
      <AdminList
        labelledBy="queues-title"
        list={{ items: queues, count: queues.length, isSuccess: list.isSuccess, isLoading: list.isLoading }}
        notice={notice}
        errors={[remove.error && errorText(t, remove.error), list.error && errorText(t, list.error)]}
        count={(count) => t('count', { count })}
        empty={t('empty')}
        head={
          <>
            <th scope="col">{t('columns.queue')}</th>
            <th scope="col" className="number">
              {t('columns.order')}
            </th>
            <th scope="col">{t('columns.users')}</th>
            <th scope="col">{t('columns.greeting')}</th>
            <th scope="col">{t('list.actions')}</th>
          </>
        }
        row={(queue) => (
          <tr key={queue.id} data-testid={`queue-${queue.id}`}>
            <th scope="row">
              <span className="swatch" style={{ background: queue.color }} aria-hidden="true" />
              {queue.name}
            </th>
            <td className="number" data-label={t('columns.order')}>
              {queue.orderQueue}
            </td>
            <td data-label={t('columns.users')}>{queue.users.length > 0 ? queue.users.map((u) => u.name).join(', ') : t('noUsers')}</td>
            <td data-label={t('columns.greeting')} className="queue-greeting">
              {queue.greetingMessage ?? t('noGreeting')}
            </td>
            <td className="row-actions">
              <button type="button" className="small" aria-label={t('editLabel', { name: queue.name })} onClick={() => setEditing(queue)}>
                {t('list.edit')}
              </button>
              <button
                type="button"
                className="small"
                aria-label={t('menusLabel', { name: queue.name })}
                aria-pressed={menusOf === queue.id}
                onClick={() => setMenusOf(menusOf === queue.id ? null : queue.id)}
              >
                {t('menus')}
              </button>
              <ConfirmButton
                className="small"
                label={t('list.delete')}
                title={t('deleteTitle', { name: queue.name })}
                description={t('deleteBody')}
                confirmLabel={t('list.delete')}
                disabled={remove.isPending}
                onConfirm={() => remove.mutate(queue)}
              />
            </td>
          </tr>
        )}
      />
      {shownMenus && <QueueMenus queue={shownMenus} queues={queues} />}
      {editing && (
        <QueueDialog
          queue={editing === 'new' ? null : editing}
          close={(saved) => {
            setEditing(null);
            if (saved) setNotice(t('saved', { name: saved.name }));
          }}
        />
      )}
    </section>
  );
}

/** A day of the form: blank times are "no range". */
function dayOf(schedules: readonly DayHours[] | undefined, day: Weekday): Omit<DayHours, 'weekday' | 'weekdayEn'> {
  const found = schedules?.find((d) => d.weekdayEn === day);
  return {
    startTimeA: found?.startTimeA ?? '',
    endTimeA: found?.endTimeA ?? '',
    startTimeB: found?.startTimeB ?? '',
    endTimeB: found?.endTimeB ?? '',
  };
}

/** Creating or editing one queue; the server's refusals at their fields, nothing typed lost on a refusal. */
function QueueDialog({ queue, close }: { queue: Queue | null; close: (saved: Queue | null) => void }) {
  const { t } = useScreenStrings('queues', strings);
  const { api } = useServices();
  const client = useQueryClient();
  const users = useUserNames();
  const prompts = useQuery({ queryKey: [...keys.queues, 'prompts'], queryFn: () => must(api.GET('/prompt', { params: { query: { pageNumber: 1 } } })) });
  const integrations = useQuery({
    queryKey: [...keys.queues, 'integrations'],
    queryFn: () => must(api.GET('/queueIntegration', { params: { query: { pageNumber: 1 } } })),
  });
  const timeZone = useQuery({
    queryKey: keys.setting('timezone'),
    queryFn: () => must(api.GET('/settings/{settingKey}', { params: { path: { settingKey: 'timezone' } } })),
    staleTime: Number.POSITIVE_INFINITY,
  });
  const scheduleType = useQuery({
    queryKey: keys.setting('scheduleType'),
    queryFn: () => must(api.GET('/settings/{settingKey}', { params: { path: { settingKey: 'scheduleType' } } })),
  });
  const [name, setName] = useState(queue?.name ?? '');
  const [color, setColor] = useState(queue?.color ?? '#7c7c7c');
  const [orderQueue, setOrderQueue] = useState(queue ? String(queue.orderQueue) : '');
  const [greeting, setGreeting] = useState(queue?.greetingMessage ?? '');
  const [outOfHours, setOutOfHours] = useState(queue?.outOfHoursMessage ?? '');
  const [hours, setHours] = useState(
    () => Object.fromEntries(WEEKDAYS.map((d) => [d, dayOf(queue?.schedules, d)])) as Record<Weekday, ReturnType<typeof dayOf>>,
  );
  const [userIds, setUserIds] = useState<number[]>(queue?.users.map((u) => u.id) ?? []);
  const [promptId, setPromptId] = useState(queue?.promptId ? String(queue.promptId) : '');
  const [integrationId, setIntegrationId] = useState(queue?.integrationId ? String(queue.integrationId) : '');

  const save = useMutation({
    mutationFn: () => {
      const body = {
        name,
        color,
        orderQueue: orderQueue.trim(),
        greetingMessage: greeting,
        outOfHoursMessage: outOfHours,
        schedules: WEEKDAYS.map((d) => ({ weekday: t(`days.${d}`), weekdayEn: d, ...hours[d] })),
        userIds,
        promptId: promptId ? Number(promptId) : null,
        integrationId: integrationId ? Number(integrationId) : null,
      };
      return queue ? must(api.PUT('/queue/{queueId}', { params: { path: { queueId: queue.id } }, body })) : must(api.POST('/queue', { body }));
    },
    onSuccess: (saved) => {
      void client.invalidateQueries({ queryKey: keys.queues });
      close(saved);
    },
  });
  const refusal = refusalOf<QueueField>(t, save.error, FIELD_OF);
  const setTime = (day: Weekday, which: keyof ReturnType<typeof dayOf>, value: string) => setHours((h) => ({ ...h, [day]: { ...h[day], [which]: value } }));
  const zone = timeZone.data?.value || Intl.DateTimeFormat().resolvedOptions().timeZone;

  return (
    <FormDialog
      className="queue-dialog"
      title={queue ? t('editTitle', { name: queue.name }) : t('addTitle')}
      description={t('intro')}
      submitLabel={t('list.save')}
      onSubmit={() => save.mutate()}
      onClose={() => close(null)}
      pending={save.isPending}
      error={refusal.form}
    >
      <Field label={t('name')} error={refusal.byField.name}>
        {(p) => <input {...p} value={name} onChange={(e) => setName(e.target.value)} autoComplete="off" required />}
      </Field>
      <ColorField label={t('color')} error={refusal.byField.color} hint={t('colorHint')} value={color} onChange={setColor} fallback="#7c7c7c" />
      <Field label={t('order')} error={refusal.byField.orderQueue} hint={t('orderHint')}>
        {(p) => <input {...p} type="number" min={0} max={100000} step={1} value={orderQueue} onChange={(e) => setOrderQueue(e.target.value)} />}
      </Field>
      <Field label={t('greeting')} error={refusal.byField.greetingMessage} hint={t('greetingHint')}>
        {(p) => <textarea {...p} rows={3} value={greeting} onChange={(e) => setGreeting(e.target.value)} />}
      </Field>
      <fieldset className="queue-hours" aria-describedby="queue-hours-hint" aria-invalid={refusal.byField.schedules ? true : undefined}>
        <legend>{t('hours')}</legend>
        <p id="queue-hours-hint" className="hint">
          {t('hoursHint', { zone })} {scheduleType.data?.value === 'queue' ? t('hoursUsed') : t('hoursUnused')}
        </p>
        {refusal.byField.schedules && (
          <p className="form-error" role="alert">
            {refusal.byField.schedules}
          </p>
        )}
        <table className="hours-table">
          <thead>
            <tr>
              <th scope="col">{t('day')}</th>
              <th scope="col">{t('rangeA')}</th>
              <th scope="col">{t('rangeB')}</th>
            </tr>
          </thead>
          <tbody>
            {WEEKDAYS.map((d) => (
              <tr key={d}>
                <th scope="row">{t(`days.${d}`)}</th>
                {(['A', 'B'] as const).map((r) => (
                  <td key={r}>
                    <span className="time-range">
                      <input
                        type="time"
                        aria-label={t('from', { day: t(`days.${d}`), range: r === 'A' ? t('rangeA') : t('rangeB') })}
                        value={hours[d][`startTime${r}`]}
                        onChange={(e) => setTime(d, `startTime${r}`, e.target.value)}
                      />
                      <span aria-hidden="true">–</span>
                      <input
                        type="time"
                        aria-label={t('to', { day: t(`days.${d}`), range: r === 'A' ? t('rangeA') : t('rangeB') })}
                        value={hours[d][`endTime${r}`]}
                        onChange={(e) => setTime(d, `endTime${r}`, e.target.value)}
                      />
                    </span>
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </fieldset>
      <Field label={t('outOfHours')} error={refusal.byField.outOfHoursMessage} hint={t('outOfHoursHint')}>
        {(p) => <textarea {...p} rows={2} value={outOfHours} onChange={(e) => setOutOfHours(e.target.value)} />}
      </Field>
      <fieldset className="queue-users" aria-invalid={refusal.byField.userIds ? true : undefined}>
        <legend>{t('users')}</legend>
        {refusal.byField.userIds && (
          <p className="form-error" role="alert">
            {refusal.byField.userIds}
          </p>
        )}
        {(users.data ?? []).map((u) => (
          <label key={u.id} className="check">
            <input
              type="checkbox"
              checked={userIds.includes(u.id)}
              onChange={(e) => setUserIds((ids) => (e.target.checked ? [...ids, u.id] : ids.filter((i) => i !== u.id)))}
            />
            {u.name}
          </label>
        ))}
      </fieldset>
      <Field label={t('prompt')} error={refusal.byField.promptId} hint={t('promptHint')}>
        {(p) => (
          <select {...p} value={promptId} onChange={(e) => setPromptId(e.target.value)}>
            <option value="">{t('none')}</option>
            {(prompts.data?.prompts ?? []).map((pr) => (
              <option key={pr.id} value={pr.id}>
                {pr.name}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field label={t('integration')} error={refusal.byField.integrationId} hint={t('integrationHint')}>
        {(p) => (
          <select {...p} value={integrationId} onChange={(e) => setIntegrationId(e.target.value)}>
            <option value="">{t('none')}</option>
            {(integrations.data?.queueIntegrations ?? []).map((i) => (
              <option key={i.id} value={i.id}>
                {i.name}
              </option>
            ))}
          </select>
        )}
      </Field>
      <p className="small-text">
        <Link to="/queue-integrations">{t('manageIntegrations')}</Link>
      </p>
    </FormDialog>
  );
}
