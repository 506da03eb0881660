import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type ChangeEvent, useState } from 'react';
import { must, type Schema } from '../../api/client.js';
import { useScreenStrings } from '../../i18n/screen-strings.js';
import { keys } from '../../realtime/apply-frame.js';
import { useServices } from '../../services.js';
import { AdminHeader, FormDialog } from '../../ui/admin-screen.js';
import { AdminList, usePagedList } from '../../ui/admin-list.js';
import { errorText } from '../../ui/errors.js';
import { ConfirmButton, Field, refusalOf } from '../../ui/form.js';
import { SupersOnly } from './companies.js';
import { strings } from './strings.js';
import '../../ui/admin.css';
import './platform.css';

type Announcement = Schema<'Announcement'>;

const FIELD_OF = {
  ERR_ANNOUNCEMENT_INVALID_TITLE: 'title',
  ERR_ANNOUNCEMENT_TEXT_TOO_LONG: 'text',
  ERR_ANNOUNCEMENT_INVALID_PRIORITY: 'priority',
  ERR_ANNOUNCEMENT_INVALID_WINDOW: 'endsAt',
  ERR_ANNOUNCEMENT_INVALID_TARGET: 'company',
  ERR_NO_COMPANY_FOUND: 'company',
  ERR_FILE_TYPE_NOT_ALLOWED: 'media',
  ERR_FILE_TOO_LARGE: 'media',
} as const;
type AnnouncementField = (typeof FIELD_OF)[keyof typeof FIELD_OF] | 'startsAt';

/** An ISO time as a `datetime-local` input shows it, on this browser's clock. */
function localInput(iso: string | null): string {
  if (!iso) return '';
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}
/** A `datetime-local` value (this browser's clock) as the ISO time with an offset the API takes; empty: none. */
const isoOf = (local: string) => (local ? new Date(local).toISOString() : null);

/** `/platform/announcements`: the platform's announcements, active or not; super users write, aim, schedule and delete them. */
export function Announcements() {
  const { t } = useScreenStrings('platform', strings);
  return <SupersOnly title={t('announcements.title')}>{() => <AnnouncementList />}</SupersOnly>;
}

function AnnouncementList() {
  const { t, i18n } = useScreenStrings('platform', strings);
  const { api } = useServices();
  const client = useQueryClient();
  const [editing, setEditing] = useState<Announcement | 'new' | null>(null);
  const [notice, setNotice] = useState('');
  // Under `announcements`: a `company-announcement` frame (another super user's change) refetches it.
  const list = usePagedList({
    key: keys.announcements,
    fetch: (pageNumber, searchParam) => must(api.GET('/announcements', { params: { query: { pageNumber, ...(searchParam ? { searchParam } : {}) } } })),
    items: (page) => page.records,
  });
  const records = list.items;
  const remove = useMutation({
    mutationFn: (a: Announcement) => must(api.DELETE('/announcements/{id}', { params: { path: { id: a.id } } })),
    onSuccess: (_, a) => {
      setNotice(t('announcements.deleted', { name: a.title }));
      void client.invalidateQueries({ queryKey: keys.announcements });
    },
  });
  const when = (iso: string) => new Date(iso).toLocaleString(i18n.language, { dateStyle: 'short', timeStyle: 'short' });
  const window = (a: Announcement) => {
    if (a.startsAt && a.endsAt) return t('announcements.between', { from: when(a.startsAt), until: when(a.endsAt) });
    if (a.startsAt) return t('announcements.from', { date: when(a.startsAt) });
    if (a.endsAt) return t('announcements.until', { date: when(a.endsAt) });
    return t('announcements.always');
  };

  return (
    <section className="admin-screen" aria-labelledby="announcements-title">
      <AdminHeader
        titleId="announcements-title"
        title={t('announcements.title')}
        intro={t('announcements.intro')}
        search={{ label: t('search'), value: list.search, onChange: list.setSearch }}
        add={{ label: t('announcements.add'), onClick: () => setEditing('new') }}
      />
      <AdminList
        labelledBy="announcements-title"
        list={list}
        notice={notice}
        errors={[remove.error && errorText(t, remove.error)]}
        count={(count) => t('announcements.count', { count })}
        empty={t('announcements.empty')}
        head={
          <>
            <th scope="col">{t('announcements.columns.title')}</th>
            <th scope="col">{t('announcements.columns.priority')}</th>
            <th scope="col">{t('announcements.columns.status')}</th>
            <th scope="col">{t('announcements.columns.audience')}</th>
            <th scope="col">{t('announcements.columns.window')}</th>
            <th scope="col">{t('list.actions')}</th>
          </>
        }
        row={(a) => (
          <tr key={a.id} data-testid={`announcement-${a.id}`}>
            <th scope="row">{a.title}</th>
            <td data-label={t('announcements.columns.priority')}>{t(`announcements.priorities.${a.priority}`)}</td>
            <td data-label={t('announcements.columns.status')}>
              <span className={a.status ? 'pill ok' : 'pill off'}>{a.status ? t('active') : t('announcements.inactive')}</span>
            </td>
            <td data-label={t('announcements.columns.audience')}>
              {a.targetCompanyIds ? t('announcements.companiesCount', { count: a.targetCompanyIds.length }) : t('announcements.everyCompany')}
            </td>
            <td data-label={t('announcements.columns.window')}>{window(a)}</td>
            <td className="row-actions">
              <button type="button" className="small" aria-label={t('editLabel', { name: a.title })} onClick={() => setEditing(a)}>
                {t('list.edit')}
              </button>
              <ConfirmButton
                className="small"
                label={t('list.delete')}
                title={t('announcements.deleteTitle', { name: a.title })}
                description={t('announcements.deleteBody')}
                confirmLabel={t('list.delete')}
                disabled={remove.isPending}
                onConfirm={() => remove.mutate(a)}
              />
            </td>
          </tr>
        )}
      />
      {editing && (
        <AnnouncementDialog
          announcement={editing === 'new' ? null : editing}
          close={(saved) => {
            setEditing(null);
            if (saved) setNotice(t('announcements.saved', { name: saved }));
          }}
        />
      )}
    </section>
  );
}

/** Writing or editing one announcement: its audience (every company or one), priority, window and attachment. */
function AnnouncementDialog({ announcement, close }: { announcement: Announcement | null; close: (saved: string | null) => void }) {
  const { t } = useScreenStrings('platform', strings);
  const { api } = useServices();
  const client = useQueryClient();
  const [title, setTitle] = useState(announcement?.title ?? '');
  const [text, setText] = useState(announcement?.text ?? '');
  const [priority, setPriority] = useState<1 | 2 | 3>(announcement?.priority ?? 3);
  const [status, setStatus] = useState(announcement?.status ?? true);
  const [audience, setAudience] = useState<'all' | 'one'>(announcement?.targetCompanyIds ? 'one' : 'all');
  const [companyId, setCompanyId] = useState(announcement?.targetCompanyIds?.[0] ? String(announcement.targetCompanyIds[0]) : '');
  const [startsAt, setStartsAt] = useState(localInput(announcement?.startsAt ?? null));
  const [endsAt, setEndsAt] = useState(localInput(announcement?.endsAt ?? null));
  const [file, setFile] = useState<File | null>(null);
  const [mediaName, setMediaName] = useState(announcement?.mediaName ?? null);
  // Created but its attachment refused: saving again edits it rather than writing a second one.
  const [createdId, setCreatedId] = useState<number | null>(null);
  const companies = useQuery({
    queryKey: [...keys.platformCompanies, 'all'],
    queryFn: () => must(api.GET('/companies/list')),
    enabled: audience === 'one',
  });
  const save = useMutation({
    mutationFn: async () => {
      const body = {
        title,
        text,
        priority,
        status,
        targetCompanyIds: audience === 'all' ? null : companyId ? [Number(companyId)] : [],
        startsAt: isoOf(startsAt),
        endsAt: isoOf(endsAt),
      };
      const id = announcement?.id ?? createdId;
      const saved = id ? await must(api.PUT('/announcements/{id}', { params: { path: { id } }, body })) : await must(api.POST('/announcements', { body }));
      setCreatedId(saved.id);
      if (file) {
        const form = new FormData();
        form.set('file', file, file.name);
        await must(
          api.POST('/announcements/{id}/media-upload', {
            params: { path: { id: saved.id } },
            body: form as never,
            bodySerializer: (b: unknown) => b as FormData,
          }),
        );
      }
      return saved.title;
    },
    onSettled: () => void client.invalidateQueries({ queryKey: keys.announcements }),
    onSuccess: (name) => close(name),
  });
  const unattach = useMutation({
    mutationFn: () => must(api.DELETE('/announcements/{id}/media-upload', { params: { path: { id: announcement!.id } } })),
    onSuccess: () => {
      setMediaName(null);
      void client.invalidateQueries({ queryKey: keys.announcements });
    },
  });
  const refusal = refusalOf<AnnouncementField>(t, save.error ?? unattach.error, FIELD_OF);
  const choose = (e: ChangeEvent<HTMLInputElement>) => setFile(e.target.files?.[0] ?? null);

  return (
    <FormDialog
      className="platform-dialog"
      title={announcement ? t('announcements.editTitle', { name: announcement.title }) : t('announcements.addTitle')}
      description={t('announcements.intro')}
      submitLabel={t('list.save')}
      onSubmit={() => save.mutate()}
      onClose={() => close(null)}
      pending={save.isPending}
      error={refusal.form}
    >
      <Field label={t('announcements.titleField')} error={refusal.byField.title}>
        {(p) => <input {...p} value={title} onChange={(e) => setTitle(e.target.value)} autoComplete="off" required />}
      </Field>
      <Field label={t('announcements.text')} error={refusal.byField.text}>
        {(p) => <textarea {...p} rows={4} value={text} onChange={(e) => setText(e.target.value)} />}
      </Field>
      <Field label={t('announcements.priority')} error={refusal.byField.priority}>
        {(p) => (
          <select {...p} value={priority} onChange={(e) => setPriority(Number(e.target.value) as 1 | 2 | 3)}>
            {([1, 2, 3] as const).map((n) => (
              <option key={n} value={n}>
                {t(`announcements.priorities.${n}`)}
              </option>
            ))}
          </select>
        )}
      </Field>
      <label className="check">
        <input type="checkbox" checked={status} onChange={(e) => setStatus(e.target.checked)} />
        {t('announcements.status')}
      </label>
      <fieldset className="platform-group">
        <legend>{t('announcements.audience')}</legend>
        <label className="check">
          <input type="radio" name="audience" checked={audience === 'all'} onChange={() => setAudience('all')} />
          {t('announcements.everyCompany')}
        </label>
        <label className="check">
          <input type="radio" name="audience" checked={audience === 'one'} onChange={() => setAudience('one')} />
          {t('announcements.oneCompany')}
        </label>
        {audience === 'one' && (
          <Field label={t('announcements.company')} error={refusal.byField.company}>
            {(p) => (
              <select {...p} value={companyId} onChange={(e) => setCompanyId(e.target.value)}>
                <option value="">—</option>
                {(companies.data ?? []).map((c) => (
                  <option key={c.id} value={c.id}>
                    {c.name}
                  </option>
                ))}
              </select>
            )}
          </Field>
        )}
      </fieldset>
      <Field label={t('announcements.startsAt')} error={refusal.byField.startsAt} hint={t('announcements.startsAtHint')}>
        {(p) => <input {...p} type="datetime-local" value={startsAt} onChange={(e) => setStartsAt(e.target.value)} />}
      </Field>
      <Field label={t('announcements.endsAt')} error={refusal.byField.endsAt} hint={t('announcements.endsAtHint')}>
        {(p) => <input {...p} type="datetime-local" value={endsAt} onChange={(e) => setEndsAt(e.target.value)} />}
      </Field>
      <Field label={t('announcements.media')} error={refusal.byField.media} hint={mediaName ? t('announcements.mediaCurrent', { name: mediaName }) : undefined}>
        {(p) => <input {...p} type="file" accept="image/png,image/jpeg,image/webp,image/gif,application/pdf" onChange={choose} />}
      </Field>
      {announcement && mediaName && (
        <button type="button" className="small" onClick={() => unattach.mutate()} disabled={unattach.isPending}>
          {t('announcements.removeMedia')}
        </button>
      )}
    </FormDialog>
  );
}
