import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { must, type Schema } from '../../api/client.js';
import { useScreenStrings } from '../../i18n/screen-strings.js';
import { keys } from '../../realtime/apply-frame.js';
import { useServices, useSession } from '../../services.js';
import { AdminList, usePagedList } from '../../ui/admin-list.js';
import { AdminHeader } from '../../ui/admin-screen.js';
import { errorText } from '../../ui/errors.js';
import { ConfirmButton } from '../../ui/form.js';
import { FileListDialog } from './file-list-dialog.js';
import { storedFileInfo } from './file-kind.js';
import { strings } from './strings.js';
import './files.css';

type FileList = Schema<'FileList'>;

/**
 * `/files`: the company's file lists (a message and files a queue, a chatbot option or a flow
 * sends), searched and paged, live from `file` frames; admins create and edit them with their
 * files (uploaded with their progress) and delete one or all after asking. Operators read them.
 */
export function FileLists() {
  const { t, i18n } = useScreenStrings('files', strings);
  const { api } = useServices();
  const session = useSession();
  const client = useQueryClient();
  const isAdmin = session?.user.profile === 'admin' || session?.user.super === true;
  const [editing, setEditing] = useState<FileList | 'new' | null>(null);
  const [notice, setNotice] = useState('');

  const list = usePagedList({
    key: keys.fileLists,
    fetch: (pageNumber, searchParam) => must(api.GET('/files', { params: { query: { pageNumber, ...(searchParam ? { searchParam } : {}) } } })),
    items: (page) => page.files,
  });
  const lists = list.items;

  const remove = useMutation({
    mutationFn: (l: FileList) => must(api.DELETE('/files/{fileId}', { params: { path: { fileId: l.id } } })),
    onSuccess: (_, l) => {
      setNotice(t('deleted', { name: l.name }));
      void client.invalidateQueries({ queryKey: keys.fileLists });
    },
  });
  const removeAll = useMutation({
    mutationFn: () => must(api.DELETE('/files')),
    onSuccess: (answer) => {
      setNotice(t('deletedAll', { count: answer.deleted }));
      void client.invalidateQueries({ queryKey: keys.fileLists });
    },
  });
  const failed = remove.error ?? removeAll.error;

  return (
    <section className="admin-screen files-screen" aria-labelledby="files-title">
      <AdminHeader
        titleId="files-title"
        title={t('title')}
        intro={t('intro')}
        search={{ label: t('search'), value: list.search, onChange: list.setSearch }}
        add={isAdmin ? { label: t('add'), onClick: () => setEditing('new') } : null}
        readOnly={t('readOnly')}
      >
        {isAdmin && list.count > 0 && !list.searchParam && (
          <ConfirmButton
            label={t('deleteAll')}
            title={t('deleteAllTitle')}
            description={t('deleteAllBody')}
            confirmLabel={t('deleteAll')}
            disabled={removeAll.isPending}
            onConfirm={() => removeAll.mutate()}
          />
        )}
      </AdminHeader>
      <AdminList
        labelledBy="files-title"
        list={list}
        notice={notice}
        errors={[list.error ? errorText(t, list.error) : null, failed && errorText(t, failed)]}
        count={(count) => t('count', { count })}
        empty={t('empty')}
        noMatch={t('noMatch')}
        head={
          <>
            <th scope="col">{t('columns.name')}</th>
            <th scope="col">{t('columns.message')}</th>
            <th scope="col">{t('columns.files')}</th>
            {isAdmin && <th scope="col">{t('list.actions')}</th>}
          </>
        }
        row={(l) => (
          <tr key={l.id} data-testid={`file-list-${l.id}`}>
            <th scope="row">{l.name}</th>
            <td data-label={t('columns.message')} className="file-list-message">
              {l.message || <span className="muted">{t('noMessage')}</span>}
            </td>
            <td data-label={t('columns.files')}>
              {l.options.length === 0 ? (
                <span className="muted">{t('noFiles')}</span>
              ) : (
                <ol className="file-list-options">
                  {l.options.map((o) => (
                    <li key={o.id}>
                      <span>{o.name || t('untitled')}</span> <span className="muted small-text">{storedFileInfo(t, i18n.language, o) ?? t('noFile')}</span>
                    </li>
                  ))}
                </ol>
              )}
            </td>
            {isAdmin && (
              <td className="row-actions">
                <button type="button" className="small" aria-label={t('editLabel', { name: l.name })} onClick={() => setEditing(l)}>
                  {t('list.edit')}
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
            )}
          </tr>
        )}
      />
      {editing && (
        <FileListDialog
          list={editing === 'new' ? null : editing}
          close={(saved) => {
            setEditing(null);
            if (saved) setNotice(t('saved', { name: saved.name }));
          }}
        />
      )}
    </section>
  );
}
