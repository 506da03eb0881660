import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { must, type Schema } from '../../api/client.js';
import { useScreenStrings } from '../../i18n/screen-strings.js';
import { keys } from '../../realtime/apply-frame.js';
import { useServices, useSession } from '../../services.js';
import { errorText } from '../../ui/errors.js';
import { AdminList, usePagedList } from '../../ui/admin-list.js';
import { AdminHeader, FormDialog } from '../../ui/admin-screen.js';
import { ColorField, ConfirmButton, Field, refusalOf } from '../../ui/form.js';
import { strings } from './strings.js';

type Tag = Schema<'Tag'>;
type TagWithCount = Schema<'TagPage'>['tags'][number];

/** The refusals of the tag routes that name a field of the form. */
const FIELD_OF = {
  ERR_TAG_NAME_ALREADY_EXISTS: 'name',
  ERR_INVALID_TAG_NAME: 'name',
  ERR_INVALID_TAG_COLOR: 'color',
  ERR_INVALID_LANE_ORDER: 'laneOrder',
} as const;
type TagField = (typeof FIELD_OF)[keyof typeof FIELD_OF];

/** `/tags`: the company's tags and kanban lanes, searched and paged, live; admins create, edit and delete them. */
export function Tags() {
  const { t } = useScreenStrings('tags', strings);
  const { api } = useServices();
  const session = useSession();
  const client = useQueryClient();
  const isAdmin = session?.user.profile === 'admin' || session?.user.super === true;
  const [editing, setEditing] = useState<Tag | 'new' | null>(null);
  const [notice, setNotice] = useState('');

  // Under `tags`: a `tag` frame (another admin's change) refetches it.
  const list = usePagedList({
    key: keys.tags,
    fetch: (pageNumber, searchParam) => must(api.GET('/tags', { params: { query: { pageNumber, ...(searchParam ? { searchParam } : {}) } } })),
    items: (page) => page.tags,
  });

  const remove = useMutation({
    mutationFn: (tag: TagWithCount) => must(api.DELETE('/tags/{tagId}', { params: { path: { tagId: tag.id } } })),
    onSuccess: (_, tag) => {
      setNotice(t('deleted', { name: tag.name }));
      void client.invalidateQueries({ queryKey: keys.tags });
    },
  });

  return (
    <section className="admin-screen" aria-labelledby="tags-title">
      <AdminHeader
        titleId="tags-title"
        title={t('title')}
        intro={t('intro')}
        search={{ label: t('search'), value: list.search, onChange: list.setSearch }}
        add={isAdmin ? { label: t('add'), onClick: () => setEditing('new') } : null}
        readOnly={t('readOnly')}
      />
      <AdminList
        labelledBy="tags-title"
        list={list}
        notice={notice}
        errors={[remove.error && errorText(t, remove.error)]}
        count={(count) => t('count', { count })}
        empty={t('empty')}
        noMatch={t('noMatch')}
        head={
          <>
            <th scope="col">{t('columns.tag')}</th>
            <th scope="col">{t('columns.lane')}</th>
            <th scope="col" className="number">
              {t('columns.tickets')}
            </th>
            {isAdmin && <th scope="col">{t('list.actions')}</th>}
          </>
        }
        row={(tag) => (
          <tr key={tag.id} data-testid={`tag-${tag.id}`}>
            <th scope="row">
              <span className="swatch" style={{ background: tag.color }} aria-hidden="true" />
              {tag.name}
            </th>
            <td data-label={t('columns.lane')}>{tag.kanban ? t('lane', { order: tag.laneOrder }) : t('notLane')}</td>
            <td className="number" data-label={t('columns.tickets')}>
              {tag.ticketCount}
            </td>
            {isAdmin && (
              <td className="row-actions">
                <button type="button" className="small" aria-label={t('editLabel', { name: tag.name })} onClick={() => setEditing(tag)}>
                  {t('list.edit')}
                </button>
                <ConfirmButton
                  className="small"
                  label={t('list.delete')}
                  title={t('deleteTitle', { name: tag.name })}
                  description={t('deleteBody')}
                  confirmLabel={t('list.delete')}
                  disabled={remove.isPending}
                  onConfirm={() => remove.mutate(tag)}
                />
              </td>
            )}
          </tr>
        )}
      />
      {editing && (
        <TagDialog
          tag={editing === 'new' ? null : editing}
          close={(saved) => {
            setEditing(null);
            if (saved) setNotice(t('saved', { name: saved.name }));
          }}
        />
      )}
    </section>
  );
}

/** Creating or editing one tag; the server's refusals shown at their fields, nothing lost on a refusal. */
function TagDialog({ tag, close }: { tag: Tag | null; close: (saved: Tag | null) => void }) {
  const { t } = useScreenStrings('tags', strings);
  const { api } = useServices();
  const client = useQueryClient();
  const [name, setName] = useState(tag?.name ?? '');
  const [color, setColor] = useState(tag?.color ?? '#808080');
  const [kanban, setKanban] = useState(tag?.kanban ?? false);
  const [laneOrder, setLaneOrder] = useState(tag?.kanban ? String(tag.laneOrder) : '');
  const save = useMutation({
    mutationFn: () => {
      const body = { name, color, kanban, ...(kanban && laneOrder.trim() !== '' ? { laneOrder: Number(laneOrder) } : {}) };
      return tag ? must(api.PUT('/tags/{tagId}', { params: { path: { tagId: tag.id } }, body })) : must(api.POST('/tags', { body }));
    },
    onSuccess: (saved) => {
      void client.invalidateQueries({ queryKey: keys.tags });
      close(saved);
    },
  });
  const refusal = refusalOf<TagField>(t, save.error, FIELD_OF);

  return (
    <FormDialog
      title={tag ? t('editTitle', { name: tag.name }) : t('addTitle')}
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
      <ColorField label={t('color')} error={refusal.byField.color} hint={t('colorHint')} value={color} onChange={setColor} fallback="#808080" />
      <label className="check">
        <input type="checkbox" checked={kanban} onChange={(e) => setKanban(e.target.checked)} />
        {t('kanban')}
      </label>
      {kanban && (
        <Field label={t('laneOrder')} error={refusal.byField.laneOrder} hint={t('laneOrderHint')}>
          {(p) => <input {...p} type="number" min={0} max={100000} step={1} value={laneOrder} onChange={(e) => setLaneOrder(e.target.value)} />}
        </Field>
      )}
    </FormDialog>
  );
}
