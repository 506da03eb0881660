import { keepPreviousData, useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Dialog } from 'radix-ui';
import { type FormEvent, useState } from 'react';
import { must, type Schema } from '../../api/client.js';
import { useScreenStrings } from '../../i18n/screen-strings.js';
import { keys } from '../../realtime/apply-frame.js';
import { useServices } from '../../services.js';
import { errorText } from '../../ui/errors.js';
import { ConfirmButton, Field, FormError, refusalOf } from '../../ui/form.js';
import { useDebounced } from '../../ui/use-debounced.js';
import { CampaignsGate } from '../contact-lists/gate.js';
import { toCsv } from '../contacts/csv.js';
import { useCompanyTimeZone } from '../ticket-actions.js';
import { PacingSettings } from './pacing.js';
import { strings } from './strings.js';
import '../../ui/admin.css';
import './campaigns.css';

type Campaign = Schema<'Campaign'>;
type Report = Schema<'CampaignReport'>;
type Status = Campaign['status'];
type RecipientState = Schema<'CampaignRecipient'>['state'];

const VARIANTS = [1, 2, 3, 4, 5] as const;
type MessageKey = `message${(typeof VARIANTS)[number]}`;
type ConfirmationKey = `confirmationMessage${(typeof VARIANTS)[number]}`;
type FormField = 'name' | 'chatappId' | 'contactListId' | 'scheduledAt' | MessageKey;
const FIELD_OF = {
  ERR_CAMPAIGN_INVALID_NAME: 'name',
  ERR_CAMPAIGN_NO_CONNECTION: 'chatappId',
  ERR_CAMPAIGN_TEMPLATE_REQUIRED: 'chatappId',
  ERR_CAMPAIGN_NO_AUDIENCE: 'contactListId',
  ERR_CAMPAIGN_INVALID_SCHEDULE: 'scheduledAt',
  ERR_CAMPAIGN_NO_MESSAGE: 'message1',
} as const satisfies Record<string, FormField>;
const EDITABLE: readonly Status[] = ['INATIVA', 'PROGRAMADA'];
const STATES: readonly RecipientState[] = ['pending', 'sent', 'delivered', 'read', 'failed', 'skipped'];

/** `/campaigns`: the company's campaigns, their live progress and report, and the pacing settings (admins, plans with campaigns). */
export function Campaigns() {
  const { t } = useScreenStrings('campaigns', strings);
  return (
    <CampaignsGate titleId="campaigns-title" title={t('title')} adminsOnly={t('adminsOnly')} noPlan={t('noPlan')}>
      <CampaignsScreen />
    </CampaignsGate>
  );
}

function CampaignsScreen() {
  const { t } = useScreenStrings('campaigns', strings);
  const [tab, setTab] = useState<'list' | 'settings'>('list');
  const [openId, setOpenId] = useState<number | null>(null);
  if (openId !== null) return <CampaignPanel id={openId} back={() => setOpenId(null)} />;
  return (
    <section className="admin-screen" aria-labelledby="campaigns-title">
      <header className="admin-header">
        <h1 id="campaigns-title">{t('title')}</h1>
        <p className="muted">{t('intro')}</p>
        <nav className="campaign-tabs" aria-label={t('title')}>
          {(['list', 'settings'] as const).map((k) => (
            <button key={k} type="button" aria-pressed={tab === k} onClick={() => setTab(k)}>
              {t(`tabs.${k}`)}
            </button>
          ))}
        </nav>
      </header>
      {tab === 'list' ? <CampaignList open={setOpenId} /> : <PacingSettings />}
    </section>
  );
}

function CampaignList({ open }: { open: (id: number) => void }) {
  const { t } = useScreenStrings('campaigns', strings);
  const { api } = useServices();
  const [search, setSearch] = useState('');
  const searchParam = useDebounced(search.trim(), 250);
  const [creating, setCreating] = useState(false);
  const [notice, setNotice] = useState('');
  // Under `campaigns`: a `campaign` frame (any status change, another admin's edit) refetches it.
  const list = useInfiniteQuery({
    queryKey: [...keys.campaigns, 'page', searchParam],
    initialPageParam: 1,
    queryFn: ({ pageParam }) => must(api.GET('/campaigns', { params: { query: { pageNumber: pageParam, ...(searchParam ? { searchParam } : {}) } as never } })),
    getNextPageParam: (last, pages) => (last.hasMore ? pages.length + 1 : undefined),
  });
  const rows = list.data?.pages.flatMap((p) => p.records) ?? [];
  const total = list.data?.pages[0]?.count ?? 0;
  return (
    <>
      <div className="admin-tools">
        <label>
          <span className="visually-hidden">{t('search')}</span>
          <input type="search" placeholder={t('search')} value={search} onChange={(e) => setSearch(e.target.value)} />
        </label>
        <button type="button" className="primary" onClick={() => setCreating(true)}>
          {t('add')}
        </button>
      </div>
      <p className="visually-hidden" role="status">
        {notice}
      </p>
      <p className="list-count" aria-live="polite">
        {list.isSuccess && t('count', { count: total })}
      </p>
      {list.isSuccess && rows.length === 0 ? (
        <p className="placeholder">{t('empty')}</p>
      ) : (
        <table className="admin-table" aria-labelledby="campaigns-title" aria-busy={list.isLoading}>
          <thead>
            <tr>
              <th scope="col">{t('columns.name')}</th>
              <th scope="col">{t('columns.status')}</th>
              <th scope="col">{t('columns.audience')}</th>
              <th scope="col">{t('columns.connection')}</th>
              <th scope="col">{t('columns.scheduled')}</th>
              <th scope="col">{t('columns.actions')}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((c) => (
              <tr key={c.id}>
                <th scope="row">{c.name}</th>
                <td data-label={t('columns.status')}>
                  <span className={`campaign-status status-${c.status}`}>{t(`status.${c.status}`)}</span>
                </td>
                <td data-label={t('columns.audience')}>{[c.contactList?.name, c.tagList?.name].filter(Boolean).join(' + ') || '—'}</td>
                <td data-label={t('columns.connection')}>{c.chatapp?.name ?? '—'}</td>
                <td data-label={t('columns.scheduled')}>{c.scheduledAt ? new Date(c.scheduledAt).toLocaleString() : '—'}</td>
                <td className="row-actions">
                  <button type="button" className="small" aria-label={t('openLabel', { name: c.name })} onClick={() => open(c.id)}>
                    {t('open')}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {list.hasNextPage && (
        <button type="button" onClick={() => void list.fetchNextPage()} disabled={list.isFetchingNextPage}>
          {t('more')}
        </button>
      )}
      {creating && (
        <CampaignDialog
          campaign={null}
          close={(saved) => {
            setCreating(false);
            if (saved) {
              setNotice(t('saved', { name: saved.name }));
              open(saved.id);
            }
          }}
        />
      )}
    </>
  );
}

/** The campaign's `scheduledAt` as the `datetime-local` value on the company's clock. */
function wallValue(iso: string | null, zone: string | undefined): string {
  if (!iso) return '';
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', {
      timeZone: zone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(new Date(iso))
      .map((p) => [p.type, p.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}`;
}

/** Creating or editing a draft or scheduled campaign; refusals at their fields, nothing typed lost. */
function CampaignDialog({ campaign, close }: { campaign: Campaign | null; close: (saved: Campaign | null) => void }) {
  const { t } = useScreenStrings('campaigns', strings);
  const { api } = useServices();
  const client = useQueryClient();
  const zone = useCompanyTimeZone();
  const connections = useQuery({ queryKey: keys.connections, queryFn: () => must(api.GET('/chatapp/')) });
  const lists = useQuery({ queryKey: [...keys.contactLists, 'all'], queryFn: () => must(api.GET('/contact-lists/list')) });
  const tags = useQuery({ queryKey: [...keys.tags, 'list'], queryFn: () => must(api.GET('/tags/list')) });
  const [name, setName] = useState(campaign?.name ?? '');
  const [chatappId, setChatappId] = useState(campaign?.chatappId ? String(campaign.chatappId) : '');
  const [contactListId, setContactListId] = useState(campaign?.contactListId ? String(campaign.contactListId) : '');
  const [tagListId, setTagListId] = useState(campaign?.tagListId ? String(campaign.tagListId) : '');
  const [messages, setMessages] = useState<string[]>(VARIANTS.map((n) => campaign?.[`message${n}` as MessageKey] ?? ''));
  const [confirmation, setConfirmation] = useState(campaign?.confirmation ?? false);
  const [confirmations, setConfirmations] = useState<string[]>(VARIANTS.map((n) => campaign?.[`confirmationMessage${n}` as ConfirmationKey] ?? ''));
  const [openTicket, setOpenTicket] = useState(campaign?.openTicket === 'enabled');
  const [scheduledAt, setScheduledAt] = useState(wallValue(campaign?.scheduledAt ?? null, zone));
  const save = useMutation({
    mutationFn: () => {
      const body = {
        name,
        chatappId: chatappId ? Number(chatappId) : null,
        contactListId: contactListId ? Number(contactListId) : null,
        tagListId: tagListId ? Number(tagListId) : null,
        confirmation,
        openTicket: openTicket ? ('enabled' as const) : ('disabled' as const),
        // The company's wall clock, as the server reads `YYYY-MM-DD HH:mm:ss`.
        scheduledAt: scheduledAt ? `${scheduledAt.replace('T', ' ')}:00` : null,
        ...Object.fromEntries(VARIANTS.map((n, i) => [`message${n}`, messages[i] ?? ''])),
        ...Object.fromEntries(VARIANTS.map((n, i) => [`confirmationMessage${n}`, confirmations[i] ?? ''])),
      };
      return campaign
        ? must(api.PUT('/campaigns/{id}', { params: { path: { id: campaign.id } }, body: body as never }))
        : must(api.POST('/campaigns', { body: body as never }));
    },
    onSuccess: (saved) => {
      void client.invalidateQueries({ queryKey: keys.campaigns });
      close(saved as Campaign);
    },
  });
  const refusal = refusalOf<FormField>(t, save.error, FIELD_OF);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate();
  };
  return (
    <Dialog.Root open onOpenChange={(o) => !o && close(null)}>
      <Dialog.Portal>
        <Dialog.Overlay className="overlay" />
        <Dialog.Content className="dialog campaign-dialog">
          <Dialog.Title>{campaign ? t('editTitle', { name: campaign.name }) : t('addTitle')}</Dialog.Title>
          <Dialog.Description className="visually-hidden">{t('intro')}</Dialog.Description>
          <form className="form" onSubmit={submit} noValidate>
            <Field label={t('name')} error={refusal.byField.name}>
              {(p) => <input {...p} value={name} onChange={(e) => setName(e.target.value)} autoComplete="off" required />}
            </Field>
            <Field label={t('connection')} error={refusal.byField.chatappId}>
              {(p) => (
                <select {...p} value={chatappId} onChange={(e) => setChatappId(e.target.value)}>
                  <option value="">{t('none')}</option>
                  {(connections.data ?? []).map((c) => (
                    <option key={c.id} value={c.id}>
                      {c.name}
                    </option>
                  ))}
                </select>
              )}
            </Field>
            <Field label={t('contactList')} error={refusal.byField.contactListId} hint={t('audienceHint')}>
              {(p) => (
                <select {...p} value={contactListId} onChange={(e) => setContactListId(e.target.value)}>
                  <option value="">{t('none')}</option>
                  {(lists.data ?? []).map((l) => (
                    <option key={l.id} value={l.id}>
                      {l.name}
                    </option>
                  ))}
                </select>
              )}
            </Field>
            <Field label={t('tag')}>
              {(p) => (
                <select {...p} value={tagListId} onChange={(e) => setTagListId(e.target.value)}>
                  <option value="">{t('none')}</option>
                  {(tags.data ?? []).map((tag) => (
                    <option key={tag.id} value={tag.id}>
                      {tag.name}
                    </option>
                  ))}
                </select>
              )}
            </Field>
            {VARIANTS.map((n, i) => (
              <Field key={n} label={t('message', { n })} error={refusal.byField[`message${n}`]} hint={n === 1 ? t('messageHint') : undefined}>
                {(p) => (
                  <textarea
                    {...p}
                    rows={n === 1 ? 3 : 2}
                    value={messages[i]}
                    onChange={(e) => setMessages((m) => m.map((v, j) => (j === i ? e.target.value : v)))}
                  />
                )}
              </Field>
            ))}
            <label className="check">
              <input type="checkbox" checked={confirmation} onChange={(e) => setConfirmation(e.target.checked)} />
              {t('confirmation')}
            </label>
            <p className="hint">{t('confirmationHint')}</p>
            {confirmation &&
              VARIANTS.map((n, i) => (
                <Field key={n} label={t('confirmationMessage', { n })}>
                  {(p) => (
                    <textarea
                      {...p}
                      rows={2}
                      value={confirmations[i]}
                      onChange={(e) => setConfirmations((m) => m.map((v, j) => (j === i ? e.target.value : v)))}
                    />
                  )}
                </Field>
              ))}
            <label className="check">
              <input type="checkbox" checked={openTicket} onChange={(e) => setOpenTicket(e.target.checked)} />
              {t('openTicket')}
            </label>
            <Field label={t('scheduledAt', { zone: zone ?? '' })} error={refusal.byField.scheduledAt} hint={t('scheduledHint')}>
              {(p) => <input {...p} type="datetime-local" value={scheduledAt} onChange={(e) => setScheduledAt(e.target.value)} />}
            </Field>
            <FormError text={refusal.form} />
            <div className="dialog-buttons">
              <Dialog.Close asChild>
                <button type="button">{t('actions.cancel')}</button>
              </Dialog.Close>
              <button type="submit" className="primary" disabled={save.isPending}>
                {t('save')}
              </button>
            </div>
          </form>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

/** One campaign: its state and live progress (`campaignProgress` frames), the actions its state allows, its attachment and report. */
function CampaignPanel({ id, back }: { id: number; back: () => void }) {
  const { t } = useScreenStrings('campaigns', strings);
  const { api } = useServices();
  const client = useQueryClient();
  const [editing, setEditing] = useState(false);
  const [notice, setNotice] = useState('');
  // Under `campaigns`: refetched by the `campaign` frames, its `progress` patched by `campaignProgress`.
  const one = useQuery({
    queryKey: keys.campaign(id),
    queryFn: () => must(api.GET('/campaigns/{id}', { params: { path: { id } } })) as Promise<Report>,
  });
  const act = useMutation({
    mutationFn: async (what: 'restart' | 'cancel' | 'pause' | 'delete' | 'unmedia') => {
      const path = { params: { path: { id } } };
      if (what === 'restart') await must(api.POST('/campaigns/{id}/restart', path));
      else if (what === 'cancel') await must(api.POST('/campaigns/{id}/cancel', path));
      else if (what === 'pause') await must(api.PUT('/campaigns/{id}', { ...path, body: { status: 'PAUSADA' } as never }));
      else if (what === 'unmedia') await must(api.DELETE('/campaigns/{id}/media-upload', path));
      else await must(api.DELETE('/campaigns/{id}', path));
      return what;
    },
    onSuccess: (what) => {
      if (what === 'delete') {
        client.removeQueries({ queryKey: keys.campaign(id) });
        void client.invalidateQueries({ queryKey: keys.campaigns });
        back();
        return;
      }
      void client.invalidateQueries({ queryKey: keys.campaigns });
    },
  });
  const media = useMutation({
    mutationFn: (file: File) => {
      const form = new FormData();
      form.set('file', file, file.name);
      return must(api.POST('/campaigns/{id}/media-upload', { params: { path: { id } }, body: form as never, bodySerializer: (b: unknown) => b as FormData }));
    },
    onSuccess: () => void client.invalidateQueries({ queryKey: keys.campaigns }),
  });
  const c = one.data;
  if (!c) {
    return (
      <section className="admin-screen" aria-labelledby="campaign-title">
        <button type="button" className="link-button" onClick={back}>
          ← {t('back')}
        </button>
        <h1 id="campaign-title">{t('title')}</h1>
        {one.error && <FormError text={errorText(t, one.error)} />}
      </section>
    );
  }
  const status = c.status;
  const editable = EDITABLE.includes(status);
  const p = c.progress;
  const done = p.total - p.pending - p.awaitingConfirmation;
  return (
    <section className="admin-screen" aria-labelledby="campaign-title">
      <header className="admin-header">
        <button type="button" className="link-button" onClick={back}>
          ← {t('back')}
        </button>
        <h1 id="campaign-title">{c.name}</h1>
        <p>
          <span className={`campaign-status status-${status}`} data-testid="campaign-status">
            {t(`status.${status}`)}
          </span>{' '}
          <span className="muted small-text">
            {[c.contactList?.name, c.tagList?.name].filter(Boolean).join(' + ')} · {c.chatapp?.name ?? '—'}
          </span>
        </p>
        {c.failureReason && <p className="form-error">{t('failureReason', { reason: errorText(t, c.failureReason) })}</p>}
        <div className="admin-tools">
          {editable && (
            <button type="button" onClick={() => setEditing(true)}>
              {t('edit')}
            </button>
          )}
          {(editable || status === 'PAUSADA' || status === 'CANCELADA' || status === 'FALHOU') && (
            <button type="button" className="primary" disabled={act.isPending} onClick={() => act.mutate('restart')}>
              {editable ? t('start') : status === 'PAUSADA' ? t('resume') : t('runAgain')}
            </button>
          )}
          {status === 'EM_ANDAMENTO' && (
            <button type="button" disabled={act.isPending} onClick={() => act.mutate('pause')}>
              {t('pause')}
            </button>
          )}
          {(status === 'EM_ANDAMENTO' || status === 'PAUSADA' || status === 'PROGRAMADA') && (
            <ConfirmButton
              label={t('cancel')}
              title={t('cancelTitle', { name: c.name })}
              description={t('cancelBody')}
              confirmLabel={t('cancel')}
              disabled={act.isPending}
              onConfirm={() => act.mutate('cancel')}
            />
          )}
          {status !== 'EM_ANDAMENTO' && (
            <ConfirmButton
              label={t('delete')}
              title={t('deleteTitle', { name: c.name })}
              description={t('deleteBody')}
              confirmLabel={t('delete')}
              disabled={act.isPending}
              onConfirm={() => act.mutate('delete')}
            />
          )}
        </div>
      </header>
      <p className="visually-hidden" role="status">
        {notice}
      </p>
      {act.error && <FormError text={errorText(t, act.error)} />}
      {editable && (
        <div className="campaign-media">
          <Field label={t('media')} hint={c.mediaName ?? t('mediaNone')} error={media.error ? errorText(t, media.error) : undefined}>
            {(fp) => <input {...fp} type="file" onChange={(e) => e.target.files?.[0] && media.mutate(e.target.files[0])} />}
          </Field>
          {c.mediaName && (
            <button type="button" className="small" onClick={() => act.mutate('unmedia')}>
              {t('mediaRemove')}
            </button>
          )}
        </div>
      )}
      <section aria-labelledby="campaign-progress-title" className="campaign-progress">
        <h2 id="campaign-progress-title">{t('progressTitle')}</h2>
        <progress max={Math.max(p.total, 1)} value={p.total === 0 ? 0 : done} aria-labelledby="campaign-progress-title" />
        <p aria-live="polite" data-testid="campaign-progress">
          {t('progressOf', { done, total: p.total })}
        </p>
        <dl className="campaign-counts">
          {STATES.map((s) => (
            <div key={s}>
              <dt>{t(`states.${s}`)}</dt>
              <dd data-testid={`count-${s}`}>{p[s]}</dd>
            </div>
          ))}
          {c.confirmation && (
            <div>
              <dt>{t('states.replied')}</dt>
              <dd>{p.confirmed}</dd>
            </div>
          )}
        </dl>
        {c.confirmation && p.awaitingConfirmation > 0 && <p>{t('awaiting', { count: p.awaitingConfirmation })}</p>}
        <ul className="campaign-reasons">
          {Object.entries(p.skippedByReason).map(([reason, count]) => (
            <li key={`s-${reason}`}>
              {t('states.skipped')} — {t('byReason', { reason: t(`reasons.${reason}`, { defaultValue: reason }), count })}
            </li>
          ))}
          {Object.entries(p.failedByReason).map(([reason, count]) => (
            <li key={`f-${reason}`}>
              {t('states.failed')} — {t('byReason', { reason: errorText(t, reason), count })}
            </li>
          ))}
        </ul>
      </section>
      <RecipientReport campaign={c} />
      {editing && (
        <CampaignDialog
          campaign={c}
          close={(saved) => {
            setEditing(false);
            if (saved) setNotice(t('saved', { name: saved.name }));
          }}
        />
      )}
    </section>
  );
}

/** The per-recipient report (`GET /campaigns/:id?state=&pageNumber=`, 20 a page), refetched with the campaign's frames; exported as CSV by reading every page. */
function RecipientReport({ campaign }: { campaign: Report }) {
  const { t } = useScreenStrings('campaigns', strings);
  const { api } = useServices();
  const [state, setState] = useState<RecipientState | ''>('');
  const [page, setPage] = useState(1);
  const [exporting, setExporting] = useState(false);
  const read = (pageNumber: number) =>
    must(api.GET('/campaigns/{id}', { params: { path: { id: campaign.id }, query: { pageNumber, ...(state ? { state } : {}) } as never } })) as Promise<Report>;
  const report = useQuery({
    queryKey: [...keys.campaigns, 'report', campaign.id, state, page, campaign.status, campaign.progress.total - campaign.progress.pending],
    queryFn: () => read(page).then((r) => r.recipients),
    placeholderData: keepPreviousData,
  });
  const rows = report.data?.records ?? [];
  const exportCsv = async () => {
    setExporting(true);
    try {
      const all: Schema<'CampaignRecipient'>[] = [];
      for (let n = 1; ; n++) {
        const r = (await read(n)).recipients;
        all.push(...r.records);
        if (!r.hasMore) break;
      }
      const csv = toCsv(
        ['name', 'number', 'state', 'variant', 'sentAt', 'deliveredAt', 'readAt', 'reason'],
        all.map((r) => [r.name, r.number, r.state, r.variant, r.sentAt, r.deliveredAt, r.readAt, r.reason]),
      );
      const url = URL.createObjectURL(new Blob([csv], { type: 'text/csv;charset=utf-8' }));
      const a = document.createElement('a');
      a.href = url;
      a.download = `campaign-${campaign.id}.csv`;
      a.click();
      setTimeout(() => URL.revokeObjectURL(url), 1000);
    } finally {
      setExporting(false);
    }
  };
  return (
    <section aria-labelledby="campaign-report-title">
      <h2 id="campaign-report-title">{t('report')}</h2>
      <div className="admin-tools">
        <label>
          {t('reportState')}{' '}
          <select
            value={state}
            onChange={(e) => {
              setState(e.target.value as RecipientState | '');
              setPage(1);
            }}
          >
            <option value="">{t('all')}</option>
            {STATES.map((s) => (
              <option key={s} value={s}>
                {t(`states.${s}`)}
              </option>
            ))}
          </select>
        </label>
        <button type="button" onClick={() => void exportCsv()} disabled={exporting || rows.length === 0}>
          {t('exportCsv')}
        </button>
      </div>
      {report.isSuccess && rows.length === 0 ? (
        <p className="placeholder">{t('reportEmpty')}</p>
      ) : (
        <table className="admin-table" aria-labelledby="campaign-report-title">
          <thead>
            <tr>
              <th scope="col">{t('reportColumns.name')}</th>
              <th scope="col">{t('reportColumns.number')}</th>
              <th scope="col">{t('reportColumns.state')}</th>
              <th scope="col">{t('reportColumns.variant')}</th>
              <th scope="col">{t('reportColumns.sentAt')}</th>
              <th scope="col">{t('reportColumns.reason')}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.id}>
                <th scope="row">{r.name}</th>
                <td data-label={t('reportColumns.number')}>{r.number}</td>
                <td data-label={t('reportColumns.state')}>{t(`states.${r.state}`)}</td>
                <td data-label={t('reportColumns.variant')}>{r.variant}</td>
                <td data-label={t('reportColumns.sentAt')}>{r.sentAt ? new Date(r.sentAt).toLocaleString() : '—'}</td>
                <td data-label={t('reportColumns.reason')}>
                  {r.reason ? (r.state === 'skipped' ? t(`reasons.${r.reason}`, { defaultValue: r.reason }) : errorText(t, r.reason)) : ''}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <div className="admin-tools">
        {page > 1 && (
          <button type="button" onClick={() => setPage(page - 1)}>
            ←
          </button>
        )}
        {report.data?.hasMore && (
          <button type="button" onClick={() => setPage(page + 1)}>
            {t('more')}
          </button>
        )}
      </div>
    </section>
  );
}
