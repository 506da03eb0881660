import { useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { must, type Schema } from '../../api/client.js';
import { useScreenStrings } from '../../i18n/screen-strings.js';
import { keys } from '../../realtime/apply-frame.js';
import { useServices, useSession } from '../../services.js';
import { errorText } from '../../ui/errors.js';
import { ConfirmButton, FormError } from '../../ui/form.js';
import { useDebounced } from '../../ui/use-debounced.js';
import { useStartConversation } from '../start-conversation.js';
import { ContactDialog } from './contact-dialog.js';
import { type ContactFilter, contactPageQuery, PAGE_SIZE } from './contact-pages.js';
import { ExportButton } from './export.js';
import { ImportDialog } from './import-dialog.js';
import { PhoneImportDialog } from './phone-import.js';
import { strings } from './strings.js';
import '../../ui/admin.css';
import './contacts.css';

type Row = Schema<'ContactPage'>['contacts'][number];

/**
 * A row's height on a wide screen, fixed by contacts.css (one line per cell, cut with an ellipsis):
 * the list is placed from it alone, without measuring each row as it comes into view (which forced
 * the table's layout once per row while scrolling).
 */
const ROW_HEIGHT = 56;
/** At a phone's width each contact is a card of its own height: those are measured. */
const PHONE = '(max-width: 640px)';
const CARD_ESTIMATE = 180;

let phoneList: MediaQueryList | null | undefined;
/** One media query list for the page's life (it follows the window itself). */
const phoneQuery = () => {
  if (phoneList === undefined) phoneList = window.matchMedia?.(PHONE) ?? null;
  return phoneList;
};
function subscribePhone(changed: () => void) {
  const query = phoneQuery();
  query?.addEventListener('change', changed);
  return () => query?.removeEventListener('change', changed);
}
/** Whether the screen is a phone's width, following the window as it is resized. */
function usePhoneWidth(): boolean {
  return useSyncExternalStore(subscribePhone, () => phoneQuery()?.matches ?? false);
}

/**
 * `/contacts`: the company's address book, searched and filtered by tag, as one virtualised list
 * of every match (each page of 20 fetched when its rows come into view), live; create and edit
 * with the contact's settings, responsible and linked user, delete after asking (admins), start a
 * conversation, import a file with its progress, export the filter as CSV.
 */
export function Contacts() {
  const { t, i18n } = useScreenStrings('contacts', strings);
  const { api } = useServices();
  const session = useSession();
  const client = useQueryClient();
  const isAdmin = session?.user.profile === 'admin' || session?.user.super === true;
  const [search, setSearch] = useState('');
  const [tagId, setTagId] = useState<number | null>(null);
  const searchParam = useDebounced(search.trim(), 250);
  const filter: ContactFilter = useMemo(() => ({ searchParam, tagId }), [searchParam, tagId]);
  const [editing, setEditing] = useState<number | 'new' | null>(null);
  const [importing, setImporting] = useState(false);
  const [phoneImport, setPhoneImport] = useState(false);
  const [notice, setNotice] = useState('');

  const tags = useQuery({ queryKey: keys.tags, queryFn: () => must(api.GET('/tags/list')) });
  // While another filter's first page loads, the list keeps the one shown.
  const first = useQuery({ ...contactPageQuery(api, filter, 1), placeholderData: (previous) => previous });
  const total = first.data?.count ?? 0;

  const remove = useMutation({
    mutationFn: (c: Row) => must(api.DELETE('/contacts/{contactId}', { params: { path: { contactId: c.id } } })),
    onSuccess: (_, c) => {
      setNotice(t('deleted', { name: c.name }));
      void client.invalidateQueries({ queryKey: keys.contacts });
    },
  });
  const talk = useStartConversation();
  // The rows' actions, one object for the screen's life: a row re-renders when its contact changes, not at each render of the list.
  const latest = useRef({ talk, remove });
  latest.current = { talk, remove };
  const [actions] = useState<RowActions>(() => ({
    edit: (id) => setEditing(id),
    talk: (c) => void latest.current.talk.start(c),
    remove: (c) => latest.current.remove.mutate(c),
  }));

  return (
    <section className="admin-screen contacts-screen" aria-labelledby="contacts-title">
      <header className="admin-header">
        <h1 id="contacts-title">{t('title')}</h1>
        <p className="muted">{t('intro')}</p>
        <div className="admin-tools">
          <label>
            <span className="visually-hidden">{t('search')}</span>
            <input type="search" placeholder={t('search')} value={search} onChange={(e) => setSearch(e.target.value)} />
          </label>
          <label className="inline-label">
            {t('tag')}
            <select value={tagId ?? ''} onChange={(e) => setTagId(e.target.value ? Number(e.target.value) : null)}>
              <option value="">{t('anyTag')}</option>
              {(tags.data ?? []).map((tag) => (
                <option key={tag.id} value={tag.id}>
                  {tag.name}
                </option>
              ))}
            </select>
          </label>
          <button type="button" className="primary" onClick={() => setEditing('new')}>
            {t('add')}
          </button>
          <button type="button" onClick={() => setImporting(true)}>
            {t('import')}
          </button>
          <button type="button" onClick={() => setPhoneImport(true)}>
            {t('phoneBook.button')}
          </button>
          <ExportButton filter={filter} total={total} />
        </div>
      </header>
      <p className="visually-hidden" role="status">
        {notice}
      </p>
      {remove.error && <FormError text={errorText(t, remove.error)} />}
      <FormError text={talk.error} />
      {talk.dialog}
      {first.error && <FormError text={errorText(t, first.error)} />}
      <p className="list-count" aria-live="polite">
        {first.isSuccess && t('count', { count: total, n: total.toLocaleString(i18n.language) })}
      </p>
      {first.isSuccess && total === 0 ? (
        <p className="placeholder">{searchParam || tagId ? t('noMatch') : t('empty')}</p>
      ) : (
        <ContactList
          filter={filter}
          firstPage={first.data}
          busy={first.isLoading}
          isAdmin={isAdmin}
          talkPending={talk.pending}
          removing={remove.isPending}
          actions={actions}
        />
      )}
      {!isAdmin && <p className="muted small-text">{t('readOnlyDelete')}</p>}
      {editing !== null && (
        <ContactDialog
          contactId={editing === 'new' ? null : editing}
          isAdmin={isAdmin}
          close={(saved) => {
            setEditing(null);
            if (saved) setNotice(t('saved', { name: saved }));
          }}
        />
      )}
      {importing && <ImportDialog close={() => setImporting(false)} />}
      {phoneImport && <PhoneImportDialog close={() => setPhoneImport(false)} />}
    </section>
  );
}

interface RowActions {
  edit(id: number): void;
  talk(c: Row): void;
  remove(c: Row): void;
}

/**
 * The virtualised table of a filter's contacts. It re-renders as the rows in view change (every
 * row's height of scrolling), apart from the screen's header and dialogs; the rows themselves only
 * when their contact, or what their buttons depend on, changes.
 */
function ContactList(props: {
  filter: ContactFilter;
  firstPage: Schema<'ContactPage'> | undefined;
  busy: boolean;
  isAdmin: boolean;
  talkPending: boolean;
  removing: boolean;
  actions: RowActions;
}) {
  const { filter, firstPage } = props;
  const { t } = useScreenStrings('contacts', strings);
  const { api } = useServices();
  const client = useQueryClient();
  const scroller = useRef<HTMLDivElement>(null);
  const phone = usePhoneWidth();
  const total = firstPage?.count ?? 0;
  const labels = useMemo(() => rowLabels(t), [t]);

  const virtualizer = useVirtualizer({
    count: total,
    getScrollElement: () => scroller.current,
    estimateSize: () => (phone ? CARD_ESTIMATE : ROW_HEIGHT),
    overscan: 5,
    // No `getItemKey`: the default (the index) is one function for the list's life, where a new
    // one at each render made the virtualiser place all 100,000 rows again at every row scrolled.
  });
  // Cards measured at a phone's width, fixed rows on a wide screen: what was measured no longer holds when the width crosses.
  // biome-ignore lint/correctness/useExhaustiveDependencies: re-measured when `phone` changes, which the estimate reads
  useEffect(() => virtualizer.measure(), [phone, virtualizer]);
  const items = virtualizer.getVirtualItems();
  // The pages the rows in view fall on, asked once the scrolling pauses (a fling does not fetch every page it passes).
  const wanted = useDebounced([...new Set(items.map((i) => Math.floor(i.index / PAGE_SIZE) + 1))].filter((p) => p > 1).join(','), 120);
  const wantedPages = wanted ? wanted.split(',').map(Number) : [];
  const pages = useQueries({ queries: wantedPages.map((p) => contactPageQuery(api, filter, p)) });
  const loaded = new Map<number, Schema<'ContactPage'>>();
  if (firstPage) loaded.set(1, firstPage);
  wantedPages.forEach((p, i) => {
    const data = pages[i]?.data;
    if (data) loaded.set(p, data);
  });
  /** The contact at a place of the list: from its page once fetched (or already in the cache from an earlier scroll). */
  const rowAt = (index: number): Row | undefined => {
    const page = Math.floor(index / PAGE_SIZE) + 1;
    const data = loaded.get(page) ?? client.getQueryData<Schema<'ContactPage'>>([...keys.contacts, filter, page]);
    return data?.contacts[index % PAGE_SIZE];
  };

  const padTop = items[0]?.start ?? 0;
  const padBottom = items.length ? virtualizer.getTotalSize() - items[items.length - 1]!.end : 0;
  const measure = phone ? virtualizer.measureElement : undefined;

  return (
    <div ref={scroller} className="contacts-scroll" data-testid="contacts-scroll">
      <table className="admin-table contacts-table" aria-labelledby="contacts-title" aria-rowcount={total + 1} aria-busy={props.busy}>
        <thead>
          <tr aria-rowindex={1}>
            <th scope="col">{labels.columnContact}</th>
            <th scope="col">{labels.number}</th>
            <th scope="col">{labels.email}</th>
            <th scope="col">{labels.tags}</th>
            <th scope="col">{labels.state}</th>
            <th scope="col">{labels.columnActions}</th>
          </tr>
        </thead>
        <tbody>
          {padTop > 0 && (
            // biome-ignore lint/a11y/noAriaHiddenOnFocusable: an empty row that only keeps the scrolled-past height; nothing in it takes focus
            <tr className="spacer" aria-hidden="true" style={{ height: padTop }}>
              <td colSpan={6} />
            </tr>
          )}
          {items.map((item) => {
            const c = rowAt(item.index);
            return c ? (
              <ContactRow
                key={item.key}
                c={c}
                index={item.index}
                measure={measure}
                isAdmin={props.isAdmin}
                talkPending={props.talkPending}
                removing={props.removing}
                actions={props.actions}
                labels={labels}
              />
            ) : (
              <tr key={item.key} data-index={item.index} ref={measure} aria-rowindex={item.index + 2} className="loading-row">
                <td colSpan={6}>{labels.loadingRow}</td>
              </tr>
            );
          })}
          {padBottom > 0 && (
            // biome-ignore lint/a11y/noAriaHiddenOnFocusable: an empty row that only keeps the scrolled-past height; nothing in it takes focus
            <tr className="spacer" aria-hidden="true" style={{ height: padBottom }}>
              <td colSpan={6} />
            </tr>
          )}
        </tbody>
      </table>
    </div>
  );
}

/** A name put in a sentence: the sentence translated once, the name placed where the translation put it. */
const NAME = '\u0000';
function withName(t: ScreenT, key: string): (name: string) => string {
  const [before = '', after = ''] = t(key, { name: NAME }).split(NAME);
  return (name) => before + name + after;
}

type ScreenT = ReturnType<typeof useScreenStrings>['t'];

/** Every text of a row, translated once per list (not once per cell of each row that scrolls into view). */
function rowLabels(t: ScreenT) {
  return {
    columnContact: t('columns.contact'),
    columnActions: t('columns.actions'),
    loadingRow: t('loadingRow'),
    number: t('columns.number'),
    email: t('columns.email'),
    tags: t('columns.tags'),
    state: t('columns.state'),
    blocked: t('state.blocked'),
    noAudio: t('state.noAudio'),
    botOff: t('state.botOff'),
    edit: t('edit'),
    editLabel: withName(t, 'editLabel'),
    talk: t('talk'),
    talkLabel: withName(t, 'talkLabel'),
    delete: t('delete'),
    deleteTitle: withName(t, 'deleteTitle'),
    deleteBody: t('deleteBody'),
  };
}
type RowLabels = ReturnType<typeof rowLabels>;

/** One contact's row: the same contact (from the page's cache) renders nothing again as the list scrolls. */
const ContactRow = memo(function ContactRow(props: {
  c: Row;
  index: number;
  measure: ((el: HTMLTableRowElement | null) => void) | undefined;
  isAdmin: boolean;
  talkPending: boolean;
  removing: boolean;
  actions: RowActions;
  labels: RowLabels;
}) {
  const { c, labels: l, actions } = props;
  const state = [c.blocked && l.blocked, !c.acceptAudioMessage && l.noAudio, c.disableBot && l.botOff].filter(Boolean).join(' · ') || '—';
  return (
    <tr data-index={props.index} ref={props.measure} aria-rowindex={props.index + 2} data-testid={`contact-${c.id}`}>
      {/* A wide screen cuts each cell to one line: the title keeps the whole text a pointer away. */}
      <th scope="row" title={c.name}>
        {c.name}
      </th>
      <td data-label={l.number}>{c.number}</td>
      <td data-label={l.email} title={c.email || undefined}>
        {c.email || '—'}
      </td>
      <td data-label={l.tags} title={c.tags?.length ? c.tags.map((tag) => tag.name).join(', ') : undefined}>
        {c.tags?.length
          ? c.tags.map((tag) => (
              <span key={tag.id} className="contact-tag">
                <span className="swatch" style={{ background: tag.color }} aria-hidden="true" />
                {tag.name}
              </span>
            ))
          : '—'}
      </td>
      <td data-label={l.state} title={state === '—' ? undefined : state}>
        {state}
      </td>
      <td className="row-actions">
        <button type="button" className="small" aria-label={l.editLabel(c.name)} onClick={() => actions.edit(c.id)}>
          {l.edit}
        </button>
        <button type="button" className="small" aria-label={l.talkLabel(c.name)} disabled={props.talkPending} onClick={() => actions.talk(c)}>
          {l.talk}
        </button>
        {props.isAdmin && (
          <ConfirmButton
            className="small"
            label={l.delete}
            title={l.deleteTitle(c.name)}
            description={l.deleteBody}
            confirmLabel={l.delete}
            disabled={props.removing}
            onConfirm={() => actions.remove(c)}
          />
        )}
      </td>
    </tr>
  );
});
