import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { must, type Schema } from '../../api/client.js';
import { useScreenStrings } from '../../i18n/screen-strings.js';
import { keys } from '../../realtime/apply-frame.js';
import { useServices, useSession } from '../../services.js';
import { AdminHeader, FormDialog } from '../../ui/admin-screen.js';
import { errorText } from '../../ui/errors.js';
import { ConfirmButton, Field, FormError, refusalOf } from '../../ui/form.js';
import { relativeTime } from '../../ui/format.js';
import { useDebounced } from '../../ui/use-debounced.js';
import { strings } from './strings.js';

type FlowSummary = Schema<'FlowSummary'>;

/** The refusals of the flow routes that name the form's one field. */
const FIELD_OF = { ERR_FLOW_NAME_IN_USE: 'name', ERR_FLOW_INVALID_NAME: 'name' } as const;

/** `/flows`: the company's flows (admins): their state and published version, created, renamed, deleted, opened; live from `flow` frames. */
export function Flows() {
  const { t, i18n } = useScreenStrings('flows', strings);
  const { api } = useServices();
  const session = useSession();
  const client = useQueryClient();
  const isAdmin = session?.user.profile === 'admin' || session?.user.super === true;
  const [search, setSearch] = useState('');
  const searchParam = useDebounced(search.trim(), 250);
  const [editing, setEditing] = useState<FlowSummary | 'new' | null>(null);
  const [notice, setNotice] = useState('');

  const list = useInfiniteQuery({
    queryKey: [...keys.flows, 'page', searchParam],
    initialPageParam: 1,
    enabled: isAdmin,
    queryFn: ({ pageParam }) => must(api.GET('/flows', { params: { query: { pageNumber: pageParam, ...(searchParam ? { searchParam } : {}) } } })),
    getNextPageParam: (last, pages) => (last.hasMore ? pages.length + 1 : undefined),
  });
  const flows = list.data?.pages.flatMap((p) => p.flows) ?? [];
  const total = list.data?.pages[0]?.count ?? 0;

  const remove = useMutation({
    mutationFn: (flow: FlowSummary) => must(api.DELETE('/flows/{flowId}', { params: { path: { flowId: flow.id } } })),
    onSuccess: (_, flow) => {
      setNotice(t('list.deleted', { name: flow.name }));
      void client.invalidateQueries({ queryKey: keys.flows });
    },
  });

  if (!isAdmin) {
    return (
      <section className="admin-screen" aria-labelledby="flows-title">
        <h1 id="flows-title">{t('list.title')}</h1>
        <p className="placeholder">{t('list.adminsOnly')}</p>
      </section>
    );
  }

  return (
    <section className="admin-screen" aria-labelledby="flows-title">
      <AdminHeader
        titleId="flows-title"
        title={t('list.title')}
        intro={t('list.intro')}
        search={{ label: t('list.search'), value: search, onChange: setSearch }}
        add={{ label: t('list.add'), onClick: () => setEditing('new') }}
      />
      <p className="visually-hidden" role="status">
        {notice}
      </p>
      {remove.error && <FormError text={errorText(t, remove.error)} />}
      {list.error && <FormError text={errorText(t, list.error)} />}
      <p className="list-count" aria-live="polite">
        {list.isSuccess && t('list.count', { count: total })}
      </p>
      {list.isSuccess && flows.length === 0 ? (
        <p className="placeholder">{searchParam ? t('list.noMatch') : t('list.empty')}</p>
      ) : (
        <table className="admin-table" aria-labelledby="flows-title" aria-busy={list.isLoading}>
          <thead>
            <tr>
              <th scope="col">{t('list.columns.flow')}</th>
              <th scope="col">{t('list.columns.state')}</th>
              <th scope="col" className="number">
                {t('list.columns.nodes')}
              </th>
              <th scope="col">{t('list.columns.updated')}</th>
              <th scope="col">{t('list.columns.actions')}</th>
            </tr>
          </thead>
          <tbody>
            {flows.map((flow) => (
              <tr key={flow.id} data-testid={`flow-${flow.id}`}>
                <th scope="row">
                  <Link to="/flows/$flowId" params={{ flowId: String(flow.id) }}>
                    {flow.name}
                  </Link>
                </th>
                <td data-label={t('list.columns.state')}>
                  {flow.publishedVersion === null ? t('list.unpublished') : t('list.published', { version: flow.publishedVersion })}
                  {' · '}
                  {flow.active ? t('list.active') : t('list.inactive')}
                </td>
                <td className="number" data-label={t('list.columns.nodes')}>
                  {flow.nodeCount}
                </td>
                <td data-label={t('list.columns.updated')}>{relativeTime(flow.updatedAt, i18n.language)}</td>
                <td className="row-actions">
                  <button type="button" className="small" aria-label={t('list.renameLabel', { name: flow.name })} onClick={() => setEditing(flow)}>
                    {t('list.rename')}
                  </button>
                  <ConfirmButton
                    className="small"
                    label={t('list.delete')}
                    title={t('list.deleteTitle', { name: flow.name })}
                    description={t('list.deleteBody')}
                    confirmLabel={t('list.delete')}
                    disabled={remove.isPending}
                    onConfirm={() => remove.mutate(flow)}
                  />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {list.hasNextPage && (
        <button type="button" onClick={() => void list.fetchNextPage()} disabled={list.isFetchingNextPage}>
          {t('list.more')}
        </button>
      )}
      {editing && (
        <FlowNameDialog
          flow={editing === 'new' ? null : editing}
          close={(saved) => {
            setEditing(null);
            if (saved) setNotice(t('list.saved', { name: saved.name }));
          }}
        />
      )}
    </section>
  );
}

/** A new flow (then opened in the editor) or a rename; the refusal at the name, what was typed kept. */
function FlowNameDialog({ flow, close }: { flow: FlowSummary | null; close: (saved: FlowSummary | null) => void }) {
  const { t } = useScreenStrings('flows', strings);
  const { api } = useServices();
  const client = useQueryClient();
  const navigate = useNavigate();
  const [name, setName] = useState(flow?.name ?? '');
  const save = useMutation({
    mutationFn: () =>
      flow
        ? must(api.PUT('/flows/{flowId}', { params: { path: { flowId: flow.id } }, body: { name: name.trim() } }))
        : must(api.POST('/flows', { body: { name: name.trim() } })),
    onSuccess: (saved) => {
      void client.invalidateQueries({ queryKey: keys.flows });
      close(saved);
      if (!flow) void navigate({ to: '/flows/$flowId', params: { flowId: String(saved.id) } });
    },
  });
  const refusal = refusalOf<'name'>(t, save.error, FIELD_OF);
  return (
    <FormDialog
      title={flow ? t('list.renameTitle', { name: flow.name }) : t('list.addTitle')}
      description={t('list.intro')}
      submitLabel={flow ? t('list.save') : t('list.create')}
      onSubmit={() => save.mutate()}
      onClose={() => close(null)}
      pending={save.isPending}
      error={refusal.form}
    >
      <Field label={t('list.name')} error={refusal.byField.name}>
        {(p) => <input {...p} value={name} onChange={(e) => setName(e.target.value)} autoComplete="off" maxLength={100} required />}
      </Field>
    </FormDialog>
  );
}
