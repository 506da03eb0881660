import type { TFunction } from 'i18next';
import { useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { Dialog } from 'radix-ui';
import { useId, useMemo, useState } from 'react';
import { must, type Schema } from '../../api/client.js';
import { useScreenStrings } from '../../i18n/screen-strings.js';
import { keys } from '../../realtime/apply-frame.js';
import { useServices } from '../../services.js';
import { AdminList, usePagedList } from '../../ui/admin-list.js';
import { AdminHeader, FormDialog } from '../../ui/admin-screen.js';
import { errorText, failureText } from '../../ui/errors.js';
import { ConfirmButton, Field, FormError, refusalOf } from '../../ui/form.js';
import { useDebounced } from '../../ui/use-debounced.js';
import { recurrenceOf, stateOf } from '../schedules/calendar.js';
import { localMoment, useCompanyTimeZone } from '../ticket-actions.js';
import { strings } from './strings.js';
import '../../ui/admin.css';
import '../schedules/schedules.css';
import './scheduled-messages.css';

type ScheduledMessage = Schema<'ScheduledMessage'>;
type Occurrence = Schema<'ScheduleOccurrence'>;
type Connection = Schema<'Connection'>;
type T = TFunction;

/** The refusals of the `/schedules-message` routes that name a field of the form (the fields are the route's own names). */
const FIELD_OF = {
  ERR_SCHEDULE_INVALID_NAME: 'nome',
  ERR_SCHEDULE_INVALID_BODY: 'mensagem',
  ERR_SCHEDULE_IN_PAST: 'data_mensagem_programada',
  ERR_SCHEDULE_INVALID_TIME: 'data_mensagem_programada',
  ERR_SCHEDULE_INVALID_RECURRENCE: 'valor_intervalo',
  ERR_SCHEDULE_NO_RECIPIENTS: 'contatos',
  ERR_SCHEDULE_TOO_MANY_RECIPIENTS: 'contatos',
  ERR_NO_CONTACT_FOUND: 'contatos',
  ERR_NO_TAG_FOUND: 'tags',
  ERR_NO_CONNECTION_FOUND: 'id_conexao',
  ERR_NO_USER_FOUND: 'usuario_envio',
  ERR_FILE_TOO_LARGE: 'file',
  ERR_EMPTY_FILE: 'file',
} as const;
type MessageField = (typeof FIELD_OF)[keyof typeof FIELD_OF] | 'enviar_quantas_vezes' | 'repeatUntil';

/** The variables the server fills in for each recipient (core `schedules/message-variables.ts`). */
const VARIABLES = '{{firstName}}, {{name}}, {{userName}}, {{date}}, {{hour}}, {{ms}}, {{protocol}}, {{queue}}, {{connection}}, {{name_company}}';
/** Chosen contacts named in the form (each read with `GET /contacts/:id`); the rest are counted. */
const NAMED_CONTACTS = 50;

const browserZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;

/**
 * `/scheduled-messages`: the company's scheduled messages (one text, and a file, to chosen contacts
 * and tagged ones, once or on a recurrence), searched and paged, live through `scheduledMessage`
 * frames; each created or edited in a dialog, its sends with their counts, deleted after asking.
 */
export function ScheduledMessages() {
  const { t, i18n } = useScreenStrings('scheduledMessages', strings);
  const { api } = useServices();
  const client = useQueryClient();
  const zone = useCompanyTimeZone() ?? browserZone();
  const [editing, setEditing] = useState<ScheduledMessage | 'new' | null>(null);
  const [showing, setShowing] = useState<ScheduledMessage | null>(null);
  const [notice, setNotice] = useState('');
  const when = useMemo(() => new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short', timeZone: zone }), [i18n.language, zone]);

  const list = usePagedList({
    key: keys.scheduledMessages,
    fetch: (pageNumber, searchParam) => must(api.GET('/schedules-message', { params: { query: { pageNumber, ...(searchParam ? { searchParam } : {}) } } })),
    items: (page) => page.schedules,
  });
  const messages = list.items;
  const tags = useQuery({ queryKey: [...keys.tags, 'list'], queryFn: () => must(api.GET('/tags/list')) });
  const tagName = useMemo(() => new Map((tags.data ?? []).map((tag) => [tag.id, tag.name])), [tags.data]);

  const remove = useMutation({
    mutationFn: (m: ScheduledMessage) => must(api.DELETE('/schedules-message/{scheduleId}', { params: { path: { scheduleId: m.id } } })),
    onSuccess: (_, m) => {
      setNotice(t('deleted', { name: m.nome }));
      void client.invalidateQueries({ queryKey: keys.scheduledMessages });
    },
  });

  return (
    <section className="admin-screen scheduled-messages" aria-labelledby="scheduled-messages-title">
      <AdminHeader
        titleId="scheduled-messages-title"
        title={t('title')}
        intro={t('intro', { zone })}
        search={{ label: t('search'), value: list.search, onChange: list.setSearch }}
        add={{ label: t('add'), onClick: () => setEditing('new') }}
      />
      <AdminList
        labelledBy="scheduled-messages-title"
        list={list}
        notice={notice}
        errors={[remove.error && errorText(t, remove.error), list.error ? errorText(t, list.error) : null]}
        count={(count) => t('count', { count })}
        empty={t('empty')}
        noMatch={t('noMatch')}
        head={
          <>
            <th scope="col">{t('columns.name')}</th>
            <th scope="col">{t('columns.when')}</th>
            <th scope="col">{t('columns.recurrence')}</th>
            <th scope="col">{t('columns.audience')}</th>
            <th scope="col">{t('columns.state')}</th>
            <th scope="col">{t('list.actions')}</th>
          </>
        }
        row={(m) => {
          const state = stateOf(m.status);
          return (
            <tr key={m.id} data-testid={`scheduled-message-${m.id}`}>
              <th scope="row">{m.nome}</th>
              <td data-label={t('columns.when')}>
                {when.format(new Date(m.data_mensagem_programada))}
                <span className="muted small-text"> · {state === 'pending' ? t('nextTag') : t('lastTag')}</span>
              </td>
              <td data-label={t('columns.recurrence')}>{recurrenceText(t, m, when)}</td>
              <td data-label={t('columns.audience')}>{audienceText(t, m, tagName)}</td>
              <td data-label={t('columns.state')}>
                <span className={`schedule-state state-${state}`}>
                  {t(`state.${state}`)}
                  {state === 'failed' && m.lastError && <span className="schedule-reason">: {failureText(t, m.lastError)}</span>}
                </span>
              </td>
              <td className="row-actions">
                <button type="button" className="small" aria-label={t('detailsLabel', { name: m.nome })} onClick={() => setShowing(m)}>
                  {t('details')}
                </button>
                <button type="button" className="small" aria-label={t('editLabel', { name: m.nome })} onClick={() => setEditing(m)}>
                  {t('list.edit')}
                </button>
                <ConfirmButton
                  className="small"
                  label={t('list.delete')}
                  title={t('deleteTitle', { name: m.nome })}
                  description={t('deleteBody')}
                  confirmLabel={t('list.delete')}
                  disabled={remove.isPending}
                  onConfirm={() => remove.mutate(m)}
                />
              </td>
            </tr>
          );
        }}
      />
      {showing && <SendsDialog message={showing} zone={zone} close={() => setShowing(null)} />}
      {editing && (
        <MessageDialog
          message={editing === 'new' ? null : editing}
          zone={zone}
          close={(saved) => {
            setEditing(null);
            if (saved) setNotice(t('saved', { name: saved.nome, when: when.format(new Date(saved.data_mensagem_programada)) }));
          }}
        />
      )}
    </section>
  );
}

/** Its recurrence in words: "Once", or "Every 2 weeks, 4 sends in all, until …, weekends moved to the Monday after". */
function recurrenceText(t: T, m: ScheduledMessage, when: Intl.DateTimeFormat): string {
  const r = recurrenceOf({
    intervalo: m.intervalo,
    every: m.valor_intervalo,
    count: m.enviar_quantas_vezes,
    weekend: m.tipo_dias_envio,
    until: m.repeatUntil,
  });
  if (!r) return t('once');
  const parts = [t(`every.${r.unit}`, { count: r.every }), r.count > 0 ? t('times', { count: r.count }) : t('noLimit')];
  if (r.until) parts.push(t('until', { when: when.format(new Date(r.until)) }));
  if (r.weekend !== 'send') parts.push(t(`weekendRule.${r.weekend}`));
  return parts.join(', ');
}

/** Who it goes to: "2 contacts, tags: VIP, Feriado", and whether it carries a file. */
function audienceText(t: T, m: ScheduledMessage, tagName: Map<number, string>): string {
  const parts: string[] = [];
  if (m.contatos.length > 0) parts.push(t('contactsCount', { count: m.contatos.length }));
  if (m.tags.length > 0) parts.push(t('tagsNamed', { names: m.tags.map((id) => tagName.get(id) ?? `#${id}`).join(', ') }));
  if (m.mediaName) parts.push(t('withFile'));
  return parts.join('; ');
}

/** Its latest sends (`GET /schedules-message/:id`), each with its recipients sent and failed; refetched by its frames. */
function SendsDialog({ message, zone, close }: { message: ScheduledMessage; zone: string; close: () => void }) {
  const { t, i18n } = useScreenStrings('scheduledMessages', strings);
  const { api } = useServices();
  const shown = useQuery({
    queryKey: [...keys.scheduledMessages, 'one', message.id],
    queryFn: () => must(api.GET('/schedules-message/{scheduleId}', { params: { path: { scheduleId: message.id } } })),
  });
  const when = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'short', timeStyle: 'short', timeZone: zone });
  const occurrences = shown.data?.occurrences ?? [];
  const name = shown.data?.nome ?? message.nome;
  return (
    <Dialog.Root open onOpenChange={(open) => !open && close()}>
      <Dialog.Portal>
        <Dialog.Overlay className="overlay" />
        <Dialog.Content className="dialog scheduled-sends">
          <Dialog.Title>{t('detailsTitle', { name })}</Dialog.Title>
          <Dialog.Description className="muted">{t('detailsIntro')}</Dialog.Description>
          {shown.error && <FormError text={errorText(t, shown.error)} />}
          {shown.isSuccess && occurrences.length === 0 ? (
            <p className="placeholder">{t('noOccurrences')}</p>
          ) : (
            <table className="admin-table" aria-label={t('detailsLabel', { name })} aria-busy={shown.isLoading}>
              <thead>
                <tr>
                  <th scope="col">{t('occurrence.when')}</th>
                  <th scope="col">{t('occurrence.state')}</th>
                  <th scope="col" className="number">
                    {t('occurrence.recipients')}
                  </th>
                  <th scope="col" className="number">
                    {t('occurrence.sent')}
                  </th>
                  <th scope="col" className="number">
                    {t('occurrence.failed')}
                  </th>
                </tr>
              </thead>
              <tbody>
                {occurrences.map((o) => (
                  <OccurrenceRow key={o.id} t={t} o={o} when={when} />
                ))}
              </tbody>
            </table>
          )}
          <div className="dialog-buttons">
            <Dialog.Close asChild>
              <button type="button">{t('close')}</button>
            </Dialog.Close>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

function OccurrenceRow({ t, o, when }: { t: T; o: Occurrence; when: Intl.DateTimeFormat }) {
  return (
    <tr data-testid={`occurrence-${o.sequence}`}>
      <th scope="row">{when.format(new Date(o.dueAt))}</th>
      <td data-label={t('occurrence.state')}>
        <span className={`schedule-state state-${o.status}`}>{t(`state.${o.status}`)}</span>
        {o.failureReason && <span className="schedule-reason"> ({failureText(t, o.failureReason)})</span>}
      </td>
      <td className="number" data-label={t('occurrence.recipients')}>
        {o.recipients}
      </td>
      <td className="number" data-label={t('occurrence.sent')}>
        {o.sent}
      </td>
      <td className="number" data-label={t('occurrence.failed')}>
        {o.failed}
      </td>
    </tr>
  );
}

/** The next full hour on the company's clock, as a datetime-local value. */
const nextHour = (zone: string) => localMoment(new Date(Date.now() + 3_600_000), zone).replace(/\d\d$/, '00');

/**
 * Creating or editing one scheduled message: JSON, or multipart when a file goes with it (the
 * route takes both). On an edit only a moved first send is sent as such (the same moment sent back
 * would start a new series of one that ended). Refusals at their fields, nothing typed lost.
 */
function MessageDialog({ message, zone, close }: { message: ScheduledMessage | null; zone: string; close: (saved: ScheduledMessage | null) => void }) {
  const { t } = useScreenStrings('scheduledMessages', strings);
  const { api } = useServices();
  const client = useQueryClient();
  const initialSendAt = useMemo(() => (message ? localMoment(new Date(message.data_mensagem_programada), zone) : nextHour(zone)), [message, zone]);
  const [nome, setNome] = useState(message?.nome ?? '');
  const [mensagem, setMensagem] = useState(message?.mensagem ?? '');
  const [sendAt, setSendAt] = useState(initialSendAt);
  const [connection, setConnection] = useState(message?.id_conexao ? String(message.id_conexao) : '');
  const [intervalo, setIntervalo] = useState(message && message.valor_intervalo > 0 ? String(message.intervalo) : 'once');
  const [every, setEvery] = useState(String(message && message.valor_intervalo > 0 ? message.valor_intervalo : 1));
  const [count, setCount] = useState(String(message && message.valor_intervalo > 0 ? message.enviar_quantas_vezes : 0));
  const [weekend, setWeekend] = useState(String(message?.tipo_dias_envio ?? 4));
  const [until, setUntil] = useState(message?.repeatUntil ? localMoment(new Date(message.repeatUntil), zone) : '');
  const [contactIds, setContactIds] = useState<number[]>(message?.contatos ?? []);
  const [picked, setPicked] = useState<Map<number, string>>(new Map());
  const [tagIds, setTagIds] = useState<number[]>(message?.tags ?? []);
  const [sign, setSign] = useState(message?.mostrar_usuario_mensagem ?? false);
  const [signUser, setSignUser] = useState(message?.usuario_envio ? String(message.usuario_envio) : '');
  const [openTicket, setOpenTicket] = useState(message?.criar_ticket ?? false);
  const [file, setFile] = useState<File | null>(null);
  const [search, setSearch] = useState('');
  const searchParam = useDebounced(search.trim(), 250);
  const tagsLegend = useId();
  const chosenId = useId();

  const connections = useQuery({ queryKey: keys.connections, queryFn: () => must(api.GET('/chatapp/')) as Promise<Connection[]> });
  const tags = useQuery({ queryKey: [...keys.tags, 'list'], queryFn: () => must(api.GET('/tags/list')) });
  const users = useQuery({ queryKey: [...keys.users, 'list'], queryFn: () => must(api.GET('/users/list')) });
  const found = useQuery({
    queryKey: [...keys.contacts, 'scheduled-message-picker', searchParam],
    queryFn: () => must(api.GET('/contacts', { params: { query: { searchParam, pageNumber: 1 } } })),
    enabled: searchParam.length > 0,
  });
  // The names of contacts chosen before this dialog opened (the route keeps their ids only).
  const unnamed = contactIds.filter((id) => !picked.has(id)).slice(0, NAMED_CONTACTS);
  const named = useQueries({
    queries: unnamed.map((id) => ({
      queryKey: keys.contact(id),
      queryFn: () => must(api.GET('/contacts/{contactId}', { params: { path: { contactId: id } } })),
      staleTime: 60_000,
    })),
  });
  const nameOf = (id: number) => {
    const given = picked.get(id);
    if (given) return given;
    const c = named[unnamed.indexOf(id)]?.data;
    return c ? c.name || c.number : `#${id}`;
  };
  const defaultConnection = (connections.data ?? []).find((c) => c.isDefault);

  const save = useMutation({
    mutationFn: async (): Promise<ScheduledMessage> => {
      const once = intervalo === 'once';
      const fields = {
        nome,
        mensagem,
        ...(!message || sendAt !== initialSendAt ? { data_mensagem_programada: sendAt } : {}),
        id_conexao: connection ? Number(connection) : null,
        intervalo: once ? 1 : Number(intervalo),
        valor_intervalo: once ? 0 : every.trim() === '' ? 0 : Number(every),
        enviar_quantas_vezes: once ? 1 : count.trim() === '' ? 0 : Number(count),
        tipo_dias_envio: Number(weekend),
        repeatUntil: once || !until ? null : until,
        contatos: contactIds,
        tags: tagIds,
        mostrar_usuario_mensagem: sign,
        usuario_envio: sign && signUser ? Number(signUser) : null,
        criar_ticket: openTicket,
      };
      let body: typeof fields | FormData = fields;
      if (file) {
        const form = new FormData();
        for (const [k, v] of Object.entries(fields)) form.set(k, v === null ? '' : Array.isArray(v) ? v.join(',') : String(v));
        form.set('file', file, file.name);
        body = form;
      }
      const serializer = file ? { bodySerializer: (b: unknown) => b as FormData } : {};
      return message
        ? must(api.PUT('/schedules-message/{scheduleId}', { params: { path: { scheduleId: message.id } }, body: body as never, ...serializer }))
        : must(api.POST('/schedules-message', { body: body as never, ...serializer }));
    },
    onSuccess: (saved) => {
      void client.invalidateQueries({ queryKey: keys.scheduledMessages });
      close(saved);
    },
  });
  const refusal = refusalOf<MessageField>(t, save.error, FIELD_OF);
  const recurring = intervalo !== 'once';
  const choose = (id: number, label: string) => {
    setPicked((p) => new Map(p).set(id, label));
    setContactIds((ids) => (ids.includes(id) ? ids.filter((x) => x !== id) : [...ids, id]));
  };

  return (
    <FormDialog
      title={message ? t('editTitle', { name: message.nome }) : t('addTitle')}
      description={t('formIntro')}
      submitLabel={t('list.save')}
      onSubmit={() => save.mutate()}
      onClose={() => close(null)}
      pending={save.isPending}
      error={refusal.form}
      className="scheduled-message-dialog"
    >
      <Field label={t('name')} error={refusal.byField.nome}>
        {(p) => <input {...p} value={nome} maxLength={255} onChange={(e) => setNome(e.target.value)} />}
      </Field>
      <Field label={t('message')} error={refusal.byField.mensagem} hint={t('messageHint', { vars: VARIABLES, interpolation: { escapeValue: false } })}>
        {(p) => <textarea {...p} value={mensagem} rows={4} maxLength={4096} onChange={(e) => setMensagem(e.target.value)} />}
      </Field>
      <Field label={t('sendAt')} error={refusal.byField.data_mensagem_programada} hint={t('sendAtHint', { zone })}>
        {(p) => <input {...p} type="datetime-local" value={sendAt} onChange={(e) => setSendAt(e.target.value)} />}
      </Field>
      <Field label={t('connection')} error={refusal.byField.id_conexao}>
        {(p) => (
          <select {...p} value={connection} onChange={(e) => setConnection(e.target.value)}>
            <option value="">{defaultConnection ? t('defaultConnectionNamed', { name: defaultConnection.name }) : t('defaultConnection')}</option>
            {(connections.data ?? []).map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}
              </option>
            ))}
          </select>
        )}
      </Field>
      <div className="schedule-recurrence">
        <Field label={t('interval')}>
          {(p) => (
            <select {...p} value={intervalo} onChange={(e) => setIntervalo(e.target.value)}>
              {(['once', '1', '2', '3', '4', '5'] as const).map((v) => (
                <option key={v} value={v}>
                  {t(`intervalOptions.${v}`)}
                </option>
              ))}
            </select>
          )}
        </Field>
        {recurring && (
          <>
            <Field label={t('everyHowMany')} error={refusal.byField.valor_intervalo}>
              {(p) => <input {...p} type="number" min={1} max={1000} value={every} onChange={(e) => setEvery(e.target.value)} />}
            </Field>
            <Field label={t('times')} error={refusal.byField.enviar_quantas_vezes}>
              {(p) => <input {...p} type="number" min={0} max={10000} value={count} onChange={(e) => setCount(e.target.value)} />}
            </Field>
            <Field label={t('weekend')}>
              {(p) => (
                <select {...p} value={weekend} onChange={(e) => setWeekend(e.target.value)}>
                  {(['4', '5', '6'] as const).map((v) => (
                    <option key={v} value={v}>
                      {t(`weekendOptions.${v}`)}
                    </option>
                  ))}
                </select>
              )}
            </Field>
            <Field label={t('repeatUntil')} error={refusal.byField.repeatUntil} hint={t('repeatUntilHint')}>
              {(p) => <input {...p} type="datetime-local" value={until} onChange={(e) => setUntil(e.target.value)} />}
            </Field>
          </>
        )}
      </div>
      <Field label={t('contacts')} error={refusal.byField.contatos} hint={t('contactsHint')}>
        {(p) => (
          <input
            {...p}
            type="search"
            value={search}
            placeholder={t('contactsSearch')}
            autoComplete="off"
            aria-describedby={[p['aria-describedby'], chosenId].filter(Boolean).join(' ')}
            onChange={(e) => setSearch(e.target.value)}
          />
        )}
      </Field>
      {searchParam && found.data && (
        <ul className="contact-choices" aria-label={t('chooseContacts')}>
          {found.data.contacts.slice(0, 8).map((c) => (
            <li key={c.id}>
              <button type="button" className="small" aria-pressed={contactIds.includes(c.id)} onClick={() => choose(c.id, c.name || c.number)}>
                {contactIds.includes(c.id) && <span aria-hidden="true">✓ </span>}
                {c.name} <span className="muted">{c.number}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
      <div id={chosenId} className="chosen-contacts">
        {contactIds.length === 0 ? (
          <p className="muted small-text">{t('noContacts')}</p>
        ) : (
          <ul aria-label={t('chosenContacts')}>
            {contactIds.slice(0, NAMED_CONTACTS).map((id) => (
              <li key={id}>
                {nameOf(id)}
                <button
                  type="button"
                  className="small"
                  aria-label={t('removeContact', { name: nameOf(id) })}
                  onClick={() => setContactIds((ids) => ids.filter((x) => x !== id))}
                >
                  ×
                </button>
              </li>
            ))}
            {contactIds.length > NAMED_CONTACTS && <li className="muted">{t('moreContacts', { count: contactIds.length - NAMED_CONTACTS })}</li>}
          </ul>
        )}
      </div>
      <fieldset className="scheduled-tags" aria-describedby={`${tagsLegend}-hint`}>
        <legend id={tagsLegend}>{t('tags')}</legend>
        <span id={`${tagsLegend}-hint`} className="hint">
          {t('tagsHint')}
        </span>
        {tags.isSuccess && tags.data.length === 0 && <p className="muted small-text">{t('noTags')}</p>}
        {(tags.data ?? []).map((tag) => (
          <label key={tag.id} className="check">
            <input
              type="checkbox"
              checked={tagIds.includes(tag.id)}
              onChange={(e) => setTagIds((ids) => (e.target.checked ? [...ids, tag.id] : ids.filter((x) => x !== tag.id)))}
            />
            <span className="swatch" style={{ background: tag.color }} aria-hidden="true" />
            {tag.name}
          </label>
        ))}
        {refusal.byField.tags && (
          <span className="form-error" role="alert">
            {refusal.byField.tags}
          </span>
        )}
      </fieldset>
      <label className="check">
        <input type="checkbox" checked={sign} onChange={(e) => setSign(e.target.checked)} />
        {t('sign')}
      </label>
      {sign && (
        <Field label={t('signUser')} error={refusal.byField.usuario_envio}>
          {(p) => (
            <select {...p} value={signUser} onChange={(e) => setSignUser(e.target.value)}>
              <option value="">{t('signUserDefault')}</option>
              {(users.data ?? []).map((u) => (
                <option key={u.id} value={u.id}>
                  {u.name}
                </option>
              ))}
            </select>
          )}
        </Field>
      )}
      <label className="check">
        <input type="checkbox" checked={openTicket} onChange={(e) => setOpenTicket(e.target.checked)} />
        {t('openTicket')}
      </label>
      {openTicket && <p className="hint small-text">{t('openTicketHint')}</p>}
      {message?.mediaName && !file && <p className="small-text">{t('currentFile', { name: message.mediaName })}</p>}
      <Field label={t('file')} error={refusal.byField.file} hint={t('fileHint')}>
        {(p) => <input {...p} type="file" onChange={(e) => setFile(e.target.files?.[0] ?? null)} />}
      </Field>
    </FormDialog>
  );
}
