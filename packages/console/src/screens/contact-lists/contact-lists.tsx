import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Dialog } from 'radix-ui';
import { type FormEvent, useState } from 'react';
import { must, type Schema } from '../../api/client.js';
import { useScreenStrings } from '../../i18n/screen-strings.js';
import { keys } from '../../realtime/apply-frame.js';
import { useServices } from '../../services.js';
import { AdminList, usePagedList } from '../../ui/admin-list.js';
import { AdminHeader, FormDialog } from '../../ui/admin-screen.js';
import { errorText } from '../../ui/errors.js';
import { ConfirmButton, Field, FormError, refusalOf } from '../../ui/form.js';
import { useDebounced } from '../../ui/use-debounced.js';
import { CampaignsGate } from './gate.js';
import { strings } from './strings.js';
import '../../ui/admin.css';
import './contact-lists.css';

type ContactList = Schema<'ContactList'>;
type Item = Schema<'ContactListItem'>;
type ListImport = Schema<'ContactListImport'>;

/** The page size of `GET /contact-list-items`. */
const PAGE_SIZE = 20;
const LIST_FIELDS = { ERR_INVALID_CONTACT_LIST_NAME: 'name' } as const;
const ITEM_FIELDS = {
  ERR_CONTACT_LIST_ITEM_DUPLICATE: 'number',
  ERR_INVALID_NUMBER: 'number',
  ERR_MISSING_NUMBER: 'number',
  ERR_INVALID_EMAIL: 'email',
} as const;

/** `/contact-lists`: the company's contact lists with their numbers and the number check's verdicts (admins, plans with campaigns). */
export function ContactLists() {
  const { t } = useScreenStrings('contactLists', strings);
  return (
    <CampaignsGate titleId="contact-lists-title" title={t('title')} adminsOnly={t('adminsOnly')} noPlan={t('noPlan')}>
      <ListsScreen />
    </CampaignsGate>
  );
}

function ListsScreen() {
  const { t } = useScreenStrings('contactLists', strings);
  const { api } = useServices();
  const client = useQueryClient();
  const [editing, setEditing] = useState<ContactList | 'new' | null>(null);
  const [openId, setOpenId] = useState<number | null>(null);
  const [notice, setNotice] = useState('');

  // Under `contactLists`: the `ContactList`/`ContactListItem` frames refetch it.
  const list = usePagedList({
    key: keys.contactLists,
    fetch: (pageNumber, searchParam) =>
      must(api.GET('/contact-lists', { params: { query: { pageNumber, ...(searchParam ? { searchParam } : {}) } as never } })),
    items: (page) => page.records,
  });
  const lists = list.items;
  const remove = useMutation({
    mutationFn: (l: ContactList) => must(api.DELETE('/contact-lists/{id}', { params: { path: { id: l.id } } })),
    onSuccess: (_, l) => {
      setNotice(t('deleted', { name: l.name }));
      if (openId === l.id) setOpenId(null);
      void client.invalidateQueries({ queryKey: keys.contactLists });
    },
  });
  const opened = openId === null ? null : (lists.find((l) => l.id === openId) ?? null);

  if (opened) return <ListPanel list={opened} back={() => setOpenId(null)} />;
  return (
    <section className="admin-screen" aria-labelledby="contact-lists-title">
      <AdminHeader
        titleId="contact-lists-title"
        title={t('title')}
        intro={t('intro')}
        search={{ label: t('search'), value: list.search, onChange: list.setSearch }}
        add={{ label: t('add'), onClick: () => setEditing('new') }}
      />
      <AdminList
        labelledBy="contact-lists-title"
        list={list}
        notice={notice}
        errors={[remove.error && errorText(t, remove.error)]}
        count={(count) => t('count', { count })}
        empty={t('empty')}
        noMatch={t('noMatch')}
        head={
          <>
            <th scope="col">{t('columns.list')}</th>
            <th scope="col" className="number">
              {t('columns.numbers')}
            </th>
            <th scope="col">{t('columns.check')}</th>
            <th scope="col">{t('list.actions')}</th>
          </>
        }
        row={(l) => (
          <tr key={l.id}>
            <th scope="row">{l.name}</th>
            <td className="number" data-label={t('columns.numbers')}>
              {l.contactsCount}
            </td>
            <td data-label={t('columns.check')} className="small-text">
              {t('validity', { valid: l.validCount, invalid: l.invalidCount, unknown: l.unknownCount, error: l.errorCount })}
            </td>
            <td className="row-actions">
              <button type="button" className="small" aria-label={t('openLabel', { name: l.name })} onClick={() => setOpenId(l.id)}>
                {t('open')}
              </button>
              <button type="button" className="small" aria-label={t('renameLabel', { name: l.name })} onClick={() => setEditing(l)}>
                {t('rename')}
              </button>
              <ConfirmButton
                className="small"
                label={t('list.delete')}
                title={t('deleteTitle', { name: l.name })}
                description={t('deleteBody')}
                confirmLabel={t('list.delete')}
                disabled={remove.isPending}
                onConfirm={() => remove.mutate(l)}
              />
            </td>
          </tr>
        )}
      />
      {editing && (
        <ListDialog
          list={editing === 'new' ? null : editing}
          close={(saved) => {
            setEditing(null);
            if (saved) {
              setNotice(t('saved', { name: saved.name }));
              if (editing === 'new') setOpenId(saved.id);
            }
          }}
        />
      )}
    </section>
  );
}

function ListDialog({ list, close }: { list: ContactList | null; close: (saved: ContactList | null) => void }) {
  const { t } = useScreenStrings('contactLists', strings);
  const { api } = useServices();
  const client = useQueryClient();
  const [name, setName] = useState(list?.name ?? '');
  const save = useMutation({
    mutationFn: () =>
      list
        ? must(api.PUT('/contact-lists/{id}', { params: { path: { id: list.id } }, body: { name } as never }))
        : must(api.POST('/contact-lists', { body: { name } as never })),
    onSuccess: (saved) => {
      void client.invalidateQueries({ queryKey: keys.contactLists });
      close(saved as ContactList);
    },
  });
  const refusal = refusalOf<'name'>(t, save.error, LIST_FIELDS);
  return (
    <FormDialog
      title={list ? t('renameTitle', { name: list.name }) : t('addTitle')}
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
    </FormDialog>
  );
}

/** One list: its numbers searched and paged (20 a page), added, edited, removed, and a file uploaded. */
function ListPanel({ list, back }: { list: ContactList; back: () => void }) {
  const { t } = useScreenStrings('contactLists', strings);
  const { api } = useServices();
  const client = useQueryClient();
  const [search, setSearch] = useState('');
  const searchParam = useDebounced(search.trim(), 250);
  const [editing, setEditing] = useState<Item | 'new' | null>(null);
  const [uploading, setUploading] = useState(false);
  const [notice, setNotice] = useState('');
  // One page of 20 at a time (a list may hold 50,000 numbers): the page shown never grows.
  const [page, setPage] = useState(1);
  const items = useQuery({
    queryKey: [...keys.contactLists, 'items', list.id, searchParam, page],
    queryFn: () =>
      must(
        api.GET('/contact-list-items', {
          params: { query: { contactListId: list.id, pageNumber: page, ...(searchParam ? { searchParam } : {}) } as never },
        }),
      ),
    placeholderData: keepPreviousData,
  });
  const rows = items.data?.contacts ?? [];
  const total = items.data?.count ?? 0;
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
  const remove = useMutation({
    mutationFn: (item: Item) => must(api.DELETE('/contact-list-items/{id}', { params: { path: { id: item.id } } })),
    onSuccess: (_, item) => {
      setNotice(t('itemDeleted', { name: item.name }));
      void client.invalidateQueries({ queryKey: keys.contactLists });
    },
  });
  const last = list.lastImport;

  return (
    <section className="admin-screen" aria-labelledby="contact-list-title">
      <header className="admin-header">
        <button type="button" className="link-button" onClick={back}>
          ← {t('back')}
        </button>
        <h1 id="contact-list-title">{list.name}</h1>
        <p className="muted small-text">
          {t('validity', { valid: list.validCount, invalid: list.invalidCount, unknown: list.unknownCount, error: list.errorCount })}
        </p>
        {last && <p className="muted small-text">{t('lastImport', { file: last.fileName, created: last.created, invalid: last.invalid })}</p>}
        <div className="admin-tools">
          <label>
            <span className="visually-hidden">{t('itemsSearch')}</span>
            <input
              type="search"
              placeholder={t('itemsSearch')}
              value={search}
              onChange={(e) => {
                setSearch(e.target.value);
                setPage(1);
              }}
            />
          </label>
          <button type="button" className="primary" onClick={() => setEditing('new')}>
            {t('addItem')}
          </button>
          <button type="button" onClick={() => setUploading(true)}>
            {t('upload')}
          </button>
        </div>
      </header>
      <p className="visually-hidden" role="status">
        {notice}
      </p>
      {remove.error && <FormError text={errorText(t, remove.error)} />}
      <p className="list-count" aria-live="polite">
        {items.isSuccess && t('itemsCount', { count: total })}
      </p>
      {items.isSuccess && rows.length === 0 ? (
        <p className="placeholder">{searchParam ? t('itemsNoMatch') : t('itemsEmpty')}</p>
      ) : (
        <table className="admin-table" aria-labelledby="contact-list-title" aria-busy={items.isLoading}>
          <thead>
            <tr>
              <th scope="col">{t('itemColumns.name')}</th>
              <th scope="col">{t('itemColumns.number')}</th>
              <th scope="col">{t('itemColumns.email')}</th>
              <th scope="col">{t('itemColumns.check')}</th>
              <th scope="col">{t('list.actions')}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((item) => (
              <tr key={item.id}>
                <th scope="row">{item.name}</th>
                <td data-label={t('itemColumns.number')}>{item.number}</td>
                <td data-label={t('itemColumns.email')}>{item.email}</td>
                <td data-label={t('itemColumns.check')}>
                  <span className={`validity validity-${item.validity}`}>{t(`check.${item.validity}`)}</span>
                  {item.validationError && <span className="muted small-text"> ({errorText(t, item.validationError)})</span>}
                </td>
                <td className="row-actions">
                  <button type="button" className="small" aria-label={t('editLabel', { name: item.name })} onClick={() => setEditing(item)}>
                    {t('list.edit')}
                  </button>
                  <ConfirmButton
                    className="small"
                    label={t('list.delete')}
                    title={t('deleteItemTitle', { name: item.name })}
                    description={t('deleteItemBody')}
                    confirmLabel={t('list.delete')}
                    disabled={remove.isPending}
                    onConfirm={() => remove.mutate(item)}
                  />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {pages > 1 && (
        <nav className="admin-tools" aria-label={t('pages')}>
          <button type="button" disabled={page <= 1} onClick={() => setPage(page - 1)}>
            {t('previous')}
          </button>
          <span aria-live="polite">{t('pageOf', { page: Math.min(page, pages), pages })}</span>
          <button type="button" disabled={page >= pages || !items.data?.hasMore} onClick={() => setPage(page + 1)}>
            {t('next')}
          </button>
        </nav>
      )}
      {editing && (
        <ItemDialog
          listId={list.id}
          item={editing === 'new' ? null : editing}
          close={(saved) => {
            setEditing(null);
            if (saved) setNotice(t('itemSaved', { name: saved.name }));
          }}
        />
      )}
      {uploading && <UploadDialog list={list} close={() => setUploading(false)} />}
    </section>
  );
}

function ItemDialog({ listId, item, close }: { listId: number; item: Item | null; close: (saved: Item | null) => void }) {
  const { t } = useScreenStrings('contactLists', strings);
  const { api } = useServices();
  const client = useQueryClient();
  const [name, setName] = useState(item?.name ?? '');
  const [number, setNumber] = useState(item?.number ?? '');
  const [email, setEmail] = useState(item?.email ?? '');
  const save = useMutation({
    mutationFn: () => {
      const body = { name, number, email };
      return item
        ? must(api.PUT('/contact-list-items/{id}', { params: { path: { id: item.id } }, body }))
        : must(api.POST('/contact-list-items', { body: { contactListId: listId, ...body } }));
    },
    onSuccess: (saved) => {
      void client.invalidateQueries({ queryKey: keys.contactLists });
      close(saved as Item);
    },
  });
  const refusal = refusalOf<'name' | 'number' | 'email'>(t, save.error, ITEM_FIELDS);
  const variables = Object.entries(item?.variables ?? {});
  return (
    <FormDialog
      title={item ? t('editItemTitle', { name: item.name }) : t('addItemTitle')}
      description={t('numberHint')}
      submitLabel={t('list.save')}
      onSubmit={() => save.mutate()}
      onClose={() => close(null)}
      pending={save.isPending}
      error={refusal.form}
    >
      <Field label={t('name')} error={refusal.byField.name}>
        {(p) => <input {...p} value={name} onChange={(e) => setName(e.target.value)} autoComplete="off" />}
      </Field>
      <Field label={t('number')} error={refusal.byField.number} hint={t('numberHint')}>
        {(p) => <input {...p} value={number} onChange={(e) => setNumber(e.target.value)} inputMode="tel" autoComplete="off" required />}
      </Field>
      <Field label={t('email')} error={refusal.byField.email}>
        {(p) => <input {...p} type="email" value={email} onChange={(e) => setEmail(e.target.value)} autoComplete="off" />}
      </Field>
      {variables.length > 0 && (
        <dl className="list-variables">
          <dt>{t('variables')}</dt>
          {variables.map(([k, v]) => (
            <dd key={k}>
              {k}: {v}
            </dd>
          ))}
        </dl>
      )}
    </FormDialog>
  );
}

/**
 * A CSV or XLSX upload (`POST /contact-lists/:id/upload`): the server answers at once (202) and
 * imports in the background; the `contactListImport` frames move the bar and list the refused rows.
 */
function UploadDialog({ list, close }: { list: ContactList; close: () => void }) {
  const { t } = useScreenStrings('contactLists', strings);
  const { api } = useServices();
  const client = useQueryClient();
  const [file, setFile] = useState<File | null>(null);
  const [started, setStarted] = useState(false);
  const upload = useMutation({
    mutationFn: (chosen: File | null) => {
      const form = new FormData();
      if (chosen) form.set('file', chosen, chosen.name);
      return must(
        api.POST('/contact-lists/{id}/upload', { params: { path: { id: list.id } }, body: form as never, bodySerializer: (b: unknown) => b as FormData }),
      );
    },
    onSuccess: (status) => {
      const s = status as unknown as ListImport;
      // A frame may have come before the answer: it is newer, keep it.
      const known = client.getQueryData<ListImport>(keys.contactListImport(list.id));
      if (!known || known.importId !== s.importId) client.setQueryData(keys.contactListImport(list.id), s);
      setStarted(true);
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    upload.mutate(file);
  };
  return (
    <Dialog.Root open onOpenChange={(open) => !open && close()}>
      <Dialog.Portal>
        <Dialog.Overlay className="overlay" />
        <Dialog.Content className="dialog import-dialog">
          <Dialog.Title>{t('uploadTitle', { name: list.name })}</Dialog.Title>
          <Dialog.Description>{t('uploadIntro')}</Dialog.Description>
          {started ? (
            <UploadProgress listId={list.id} />
          ) : (
            <form className="form" onSubmit={submit} noValidate>
              <Field label={t('file')} error={upload.error ? errorText(t, upload.error) : undefined}>
                {(p) => (
                  <input
                    {...p}
                    type="file"
                    accept=".csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
                    onChange={(e) => setFile(e.target.files?.[0] ?? null)}
                  />
                )}
              </Field>
              <div className="dialog-buttons">
                <Dialog.Close asChild>
                  <button type="button">{t('actions.cancel')}</button>
                </Dialog.Close>
                <button type="submit" className="primary" disabled={upload.isPending}>
                  {t('start')}
                </button>
              </div>
            </form>
          )}
          {started && (
            <div className="dialog-buttons">
              <Dialog.Close asChild>
                <button type="button">{t('close')}</button>
              </Dialog.Close>
            </div>
          )}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

function UploadProgress({ listId }: { listId: number }) {
  const { t } = useScreenStrings('contactLists', strings);
  // Seeded by the upload's answer and moved by the frames (no route reads an import again).
  const status = useQuery<ListImport | null>({ queryKey: keys.contactListImport(listId), queryFn: () => null, enabled: false });
  const s = status.data;
  if (!s) return null;
  const finished = s.status === 'done' || s.status === 'failed';
  return (
    <div className="import-progress">
      <label className="progress-label">
        {t('progress')}
        <progress max={Math.max(s.total, 1)} value={finished ? Math.max(s.total, 1) : s.processed} />
      </label>
      <p data-testid="import-count">{t('progressText', { processed: s.processed, total: s.total })}</p>
      <p role="status" data-testid="import-state">
        {!finished
          ? t('importRunning')
          : s.status === 'done'
            ? t('importDone', { created: s.created, duplicates: s.duplicates, invalid: s.invalid })
            : t('importFailed', { reason: t(`errors.codes.${s.error ?? 'ERR_IMPORT_FAILED'}`, { defaultValue: s.error ?? '' }) })}
      </p>
      {s.errors.length > 0 && (
        <table className="admin-table">
          <caption>{t('badRows')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('row')}</th>
              <th scope="col">{t('reason')}</th>
            </tr>
          </thead>
          <tbody>
            {s.errors.map((e) => (
              <tr key={e.row}>
                <th scope="row">{e.row}</th>
                <td data-label={t('reason')}>{t(`errors.codes.${e.reason}`, { defaultValue: t('errors.generic', { code: e.reason }) })}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
