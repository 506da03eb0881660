import { type InfiniteData, useMutation, useQuery } from '@tanstack/react-query';
import { type FormEvent, useEffect, useId, useState, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { must, type Schema } from '../api/client.js';
import { keys } from '../realtime/apply-frame.js';
import { SERVICE_WINDOW_MS, type ServiceWindow, serviceWindow } from '../replies/service-window.js';
import { useServices } from '../services.js';
import { errorText } from '../ui/errors.js';
import { timeOfDay } from '../ui/format.js';

type Ticket = Schema<'TicketDetails'>;
type MessagePage = Schema<'TicketMessagePage'>;
type Template = Schema<'BizchatTemplate'>;

/**
 * The 24-hour window of a bizchat conversation, from the messages the conversation loaded (kept
 * current by the realtime frames), the clock (checked every 30 s) and the server's last word: a
 * reply it refused with ERR_BIZCHAT_WINDOW_CLOSED closes it until the contact writes again.
 */
export function useServiceWindow(ticket: Ticket, refusedAt: number | null): ServiceWindow | null {
  const { queryClient } = useServices();
  const bizchat = ticket.channel === 'bizchat';
  const data = useSyncExternalStore(
    (change) => queryClient.getQueryCache().subscribe(change),
    () => queryClient.getQueryData<InfiniteData<MessagePage>>(keys.messages(ticket.id)),
  );
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!bizchat) return;
    const timer = setInterval(() => setNow(Date.now()), 30_000);
    return () => clearInterval(timer);
  }, [bizchat]);
  if (!bizchat) return null;
  const state = serviceWindow(data?.pages.flatMap((p) => p.messages) ?? [], now);
  // The contact wrote after the refusal: the window opened again.
  if (refusedAt !== null && !(state.kind === 'open' && state.closesAt - SERVICE_WINDOW_MS > refusedAt)) {
    return { kind: 'closed', since: state.kind === 'closed' ? state.since : refusedAt };
  }
  return state;
}

/** Whether free text may go, in words, above the reply box of a bizchat conversation. */
export function ServiceWindowNotice({ state }: { state: ServiceWindow }) {
  const { t, i18n } = useTranslation();
  const text =
    state.kind === 'open'
      ? t('reply.window.open', { time: timeOfDay(new Date(state.closesAt).toISOString(), i18n.language) })
      : state.kind === 'closed'
        ? t('reply.window.closed')
        : t('reply.window.unknown');
  return (
    <p className={`window-notice window-${state.kind}`} data-testid="service-window">
      {text}
    </p>
  );
}

type Values = { header: string[]; body: string[]; buttons: string[] };
const emptyValues = (tpl: Template | undefined): Values => ({
  header: Array.from({ length: tpl?.variables.header ?? 0 }, () => ''),
  body: (tpl?.variables.body ?? []).map(() => ''),
  buttons: (tpl?.variables.buttons ?? []).map(() => ''),
});

/** The template's body with the values typed so far in place of its variables. */
function preview(tpl: Template, values: Values): string {
  const body = tpl.components.find((c) => c.type === 'BODY')?.text ?? '';
  return body.replace(/\{\{\s*([^}\s]+)\s*\}\}/g, (whole, name: string) => {
    const at = tpl.variables.body.indexOf(name);
    return at >= 0 && values.body[at] ? values.body[at]! : whole;
  });
}

/**
 * Outside the window only an approved template may go (`POST /send-bizchat-template`): the
 * connection's approved templates (`GET /bizchat-templates`), a field per variable, the text as it
 * will read, and the server's refusals in words.
 */
export function BizchatTemplateSender({ ticket }: { ticket: Ticket }) {
  const { t } = useTranslation();
  const { api, queryClient } = useServices();
  const id = useId();
  const [chosen, setChosen] = useState('');
  const [values, setValues] = useState<Values>(emptyValues(undefined));
  const [sent, setSent] = useState<string | null>(null);
  const list = useQuery({
    queryKey: keys.bizchatTemplates(ticket.chatappId),
    queryFn: () => must(api.GET('/bizchat-templates', { params: { query: { chatappId: ticket.chatappId } } })),
  });
  const refresh = useMutation({
    mutationFn: () => must(api.GET('/bizchat-templates', { params: { query: { chatappId: ticket.chatappId, refresh: true } } })),
    onSuccess: (data) => queryClient.setQueryData(keys.bizchatTemplates(ticket.chatappId), data),
  });
  const approved = (list.data?.templates ?? []).filter((tpl) => tpl.status === 'APPROVED');
  const template = approved.find((tpl) => `${tpl.name}|${tpl.language}` === chosen);
  const send = useMutation({
    mutationFn: (tpl: Template) => {
      const parameters = {
        ...(values.header.length ? { header: values.header } : {}),
        ...(values.body.length ? { body: values.body } : {}),
        ...(values.buttons.length ? { buttons: values.buttons } : {}),
      };
      return must(api.POST('/send-bizchat-template', { body: { ticketId: ticket.id, templateName: tpl.name, language: tpl.language, parameters } }));
    },
    onSuccess: (answer) => {
      setSent(answer.template.name);
      setChosen('');
      setValues(emptyValues(undefined));
    },
  });
  const choose = (key: string) => {
    setChosen(key);
    setSent(null);
    send.reset();
    setValues(emptyValues(approved.find((tpl) => `${tpl.name}|${tpl.language}` === key)));
  };
  const set = (part: keyof Values, i: number, value: string) => setValues((v) => ({ ...v, [part]: v[part].map((x, j) => (j === i ? value : x)) }));
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (template) send.mutate(template);
  };
  const mediaHeader = template && template.variables.header > 0 && template.variables.headerFormat && template.variables.headerFormat !== 'TEXT';

  return (
    <form className="bizchat-template form" onSubmit={onSubmit} aria-labelledby={`${id}-title`} data-testid="bizchat-template">
      <h3 id={`${id}-title`} className="small-heading">
        {t('reply.template.title')}
      </h3>
      {list.error ? (
        <p className="form-error" role="alert">
          {errorText(t, list.error)}
        </p>
      ) : list.isLoading ? (
        <p className="muted small-text">{t('app.loading')}</p>
      ) : approved.length === 0 ? (
        <p className="muted small-text">{t('reply.template.none')}</p>
      ) : (
        <label>
          {t('reply.template.pick')}
          <select value={chosen} onChange={(e) => choose(e.target.value)}>
            <option value="">{t('reply.template.choose')}</option>
            {approved.map((tpl) => (
              <option key={`${tpl.name}|${tpl.language}`} value={`${tpl.name}|${tpl.language}`}>
                {tpl.name} ({tpl.language})
              </option>
            ))}
          </select>
        </label>
      )}
      {template && (
        <>
          {values.header.map((v, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: the template's header values are positional
            <label key={`h${i}`}>
              {mediaHeader ? t('reply.template.headerLink') : t('reply.template.header', { n: i + 1 })}
              <input value={v} onChange={(e) => set('header', i, e.target.value)} required type={mediaHeader ? 'url' : 'text'} maxLength={1024} />
            </label>
          ))}
          {values.body.map((v, i) => (
            <label key={`b${template.variables.body[i]}`}>
              {t('reply.template.variable', { name: template.variables.body[i] })}
              <input value={v} onChange={(e) => set('body', i, e.target.value)} required maxLength={1024} />
            </label>
          ))}
          {values.buttons.map((v, i) => (
            <label key={`k${template.variables.buttons[i]}`}>
              {t('reply.template.button', { n: (template.variables.buttons[i] ?? i) + 1 })}
              <input value={v} onChange={(e) => set('buttons', i, e.target.value)} required maxLength={1024} />
            </label>
          ))}
          <div className="template-preview">
            <p className="muted small-text">{t('reply.template.preview')}</p>
            <p data-testid="template-preview">{preview(template, values)}</p>
          </div>
        </>
      )}
      {send.error && (
        <p className="form-error" role="alert">
          {errorText(t, send.error)}
        </p>
      )}
      {refresh.error && (
        <p className="form-error" role="alert">
          {errorText(t, refresh.error)}
        </p>
      )}
      {sent && (
        <p className="form-ok" role="status">
          {t('reply.template.sent', { name: sent })}
        </p>
      )}
      <div className="reply-tools">
        <button type="button" onClick={() => refresh.mutate()} disabled={refresh.isPending}>
          {t('reply.template.refresh')}
        </button>
        <button type="submit" className="primary" disabled={!template || send.isPending}>
          {t('reply.template.send')}
        </button>
      </div>
    </form>
  );
}
