import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type ChangeEvent, useId, useRef, useState } from 'react';
import { must, type Schema } from '../../api/client.js';
import { useScreenStrings } from '../../i18n/screen-strings.js';
import { keys } from '../../realtime/apply-frame.js';
import { useServices, useSession } from '../../services.js';
import { AdminList, usePagedList } from '../../ui/admin-list.js';
import { AdminHeader, FormDialog } from '../../ui/admin-screen.js';
import { errorText } from '../../ui/errors.js';
import { ConfirmButton, Field, refusalOf } from '../../ui/form.js';
import { BizchatTemplates } from './bizchat-templates.js';
import { strings } from './strings.js';
import { insertVariable, previewTemplate, TEMPLATE_VARIABLES } from './variables.js';
import './templates.css';

type Template = Schema<'CompanyTemplate'>;

/** The refusals of the template routes that name a field of the form. */
const FIELD_OF = {
  ERR_INVALID_TEMPLATE_SHORTCUT: 'shortcut',
  ERR_TEMPLATE_SHORTCUT_IN_USE: 'shortcut',
  ERR_INVALID_TEMPLATE_MESSAGE: 'message',
  ERR_INVALID_TEMPLATE_CATEGORY: 'category',
  ERR_FILE_TYPE_NOT_ALLOWED: 'media',
  ERR_FILE_TOO_LARGE: 'media',
  ERR_NO_FILE: 'media',
} as const;
type TemplateField = (typeof FIELD_OF)[keyof typeof FIELD_OF];

/** The company's name for the preview's `{{name_company}}` (the navigation reads the same query). */
function useCompanyName(): string {
  const session = useSession();
  const { api } = useServices();
  const companyId = session?.user.companyId;
  const company = useQuery({
    queryKey: [...keys.company(companyId ?? 0), 'plan'],
    queryFn: () => must(api.GET('/companies/listPlan/{id}', { params: { path: { id: companyId! } } })),
    enabled: companyId !== undefined,
    select: (c) => c.name,
  });
  return company.data ?? '';
}

/**
 * `/templates`: the company templates (the reply box's `/` quick replies), searched and paged, live
 * from their `companyTemplate` frames; every operator creates personal ones and changes their own,
 * admins every one and the global ones. Below, the business API's templates of a bizchat connection.
 */
export function Templates() {
  const { t } = useScreenStrings('templates', strings);
  const { api } = useServices();
  const session = useSession();
  const client = useQueryClient();
  const isAdmin = session?.user.profile === 'admin' || session?.user.super === true;
  const [editing, setEditing] = useState<Template | 'new' | null>(null);
  const [notice, setNotice] = useState('');

  // Under `companyTemplates`: a `companyTemplate` frame (another operator's change) refetches it.
  const list = usePagedList({
    key: keys.companyTemplates,
    segment: 'screen',
    fetch: (pageNumber, searchParam) => must(api.GET('/company-templates', { params: { query: { pageNumber, ...(searchParam ? { searchParam } : {}) } } })),
    items: (page) => page.templates,
  });
  const templates = list.items;
  const mayChange = (tpl: Template) => isAdmin || (!tpl.global && tpl.userId === session?.user.id);

  const remove = useMutation({
    mutationFn: (tpl: Template) => must(api.DELETE('/company-templates/{id}', { params: { path: { id: tpl.id } } })),
    onSuccess: (_, tpl) => {
      setNotice(t('deleted', { name: tpl.shortcut }));
      void client.invalidateQueries({ queryKey: keys.companyTemplates });
    },
  });

  return (
    <div className="templates-screen">
      <section className="admin-screen" aria-labelledby="templates-title">
        <AdminHeader
          titleId="templates-title"
          title={t('title')}
          intro={t('intro')}
          search={{ label: t('search'), value: list.search, onChange: list.setSearch }}
          add={{ label: t('add'), onClick: () => setEditing('new') }}
        />
        <AdminList
          labelledBy="templates-title"
          list={list}
          notice={notice}
          errors={[remove.error && errorText(t, remove.error), list.error ? errorText(t, list.error) : null]}
          count={(count) => t('count', { count })}
          empty={t('empty')}
          noMatch={t('noMatch')}
          head={
            <>
              <th scope="col">{t('columns.shortcut')}</th>
              <th scope="col">{t('columns.message')}</th>
              <th scope="col">{t('columns.category')}</th>
              <th scope="col">{t('columns.scope')}</th>
              <th scope="col">{t('columns.file')}</th>
              <th scope="col">{t('list.actions')}</th>
            </>
          }
          row={(tpl) => (
            <tr key={tpl.id} data-testid={`template-${tpl.id}`}>
              <th scope="row">/{tpl.shortcut}</th>
              <td data-label={t('columns.message')} className="template-message">
                {tpl.message}
              </td>
              <td data-label={t('columns.category')}>{tpl.category || t('noCategory')}</td>
              <td data-label={t('columns.scope')}>{tpl.global ? t('scopeGlobal') : t('scopePersonal')}</td>
              <td data-label={t('columns.file')}>
                {tpl.mediaUrl ? (
                  <a href={tpl.mediaUrl} target="_blank" rel="noreferrer">
                    {tpl.mediaName ?? tpl.mediaUrl}
                  </a>
                ) : (
                  t('noFile')
                )}
              </td>
              <td className="row-actions">
                {mayChange(tpl) && (
                  <>
                    <button type="button" className="small" aria-label={t('editLabel', { name: tpl.shortcut })} onClick={() => setEditing(tpl)}>
                      {t('list.edit')}
                    </button>
                    <ConfirmButton
                      className="small"
                      label={t('list.delete')}
                      title={t('deleteTitle', { name: tpl.shortcut })}
                      description={t('deleteBody')}
                      confirmLabel={t('list.delete')}
                      disabled={remove.isPending}
                      onConfirm={() => remove.mutate(tpl)}
                    />
                  </>
                )}
              </td>
            </tr>
          )}
        />
        {editing && (
          <TemplateDialog
            template={editing === 'new' ? null : editing}
            isAdmin={isAdmin}
            close={(saved) => {
              setEditing(null);
              if (saved) setNotice(t('saved', { name: saved.shortcut }));
            }}
          />
        )}
      </section>
      <BizchatTemplates />
    </div>
  );
}

/**
 * Creating or editing one template: its variables offered at the caret and previewed with sample
 * values; its file chosen, kept or removed; the server's refusals at their fields, nothing lost.
 */
function TemplateDialog({ template, isAdmin, close }: { template: Template | null; isAdmin: boolean; close: (saved: Template | null) => void }) {
  const { t } = useScreenStrings('templates', strings);
  const { api } = useServices();
  const session = useSession();
  const client = useQueryClient();
  const companyName = useCompanyName();
  const previewId = useId();
  const messageRef = useRef<HTMLTextAreaElement | null>(null);
  const [shortcut, setShortcut] = useState(template?.shortcut ?? '');
  const [message, setMessage] = useState(template?.message ?? '');
  const [category, setCategory] = useState(template?.category ?? '');
  const [global, setGlobal] = useState(template?.global ?? false);
  const [file, setFile] = useState<File | null>(null);
  const [removeMedia, setRemoveMedia] = useState(false);

  const save = useMutation({
    mutationFn: () => {
      const fields = { shortcut, message, category: category.trim() ? category : null, ...(isAdmin ? { global } : {}) };
      if (file) {
        const form = new FormData();
        form.set('shortcut', shortcut);
        form.set('message', message);
        form.set('category', category.trim() ? category : '');
        if (isAdmin) form.set('global', String(global));
        form.set('media', file, file.name);
        const multipart = { body: form as never, bodySerializer: (b: unknown) => b as FormData };
        return template
          ? must(api.PUT('/company-templates/{id}', { params: { path: { id: template.id } }, ...multipart }))
          : must(api.POST('/company-templates', multipart));
      }
      return template
        ? must(
            api.PUT('/company-templates/{id}', { params: { path: { id: template.id } }, body: { ...fields, ...(removeMedia ? { removeMedia: true } : {}) } }),
          )
        : must(api.POST('/company-templates', { body: fields }));
    },
    onSuccess: (saved) => {
      void client.invalidateQueries({ queryKey: keys.companyTemplates });
      close(saved);
    },
  });
  const refusal = refusalOf<TemplateField>(t, save.error, FIELD_OF);

  const insert = (variable: string) => {
    const box = messageRef.current;
    const next = insertVariable(message, variable, box?.selectionStart ?? message.length, box?.selectionEnd ?? message.length);
    setMessage(next.text);
    requestAnimationFrame(() => {
      box?.focus();
      box?.setSelectionRange(next.caret, next.caret);
    });
  };
  const preview = previewTemplate(
    message,
    {
      contactName: t('sample.contact'),
      userName: session?.user.name ?? '',
      queueName: t('sample.queue'),
      connectionName: t('sample.connection'),
      companyName,
    },
    new Date(),
  );
  const choose = (e: ChangeEvent<HTMLInputElement>) => {
    setFile(e.target.files?.[0] ?? null);
    if (e.target.files?.[0]) setRemoveMedia(false);
  };

  return (
    <FormDialog
      title={template ? t('editTitle', { name: template.shortcut }) : t('addTitle')}
      description={t('intro')}
      submitLabel={t('list.save')}
      onSubmit={() => save.mutate()}
      onClose={() => close(null)}
      pending={save.isPending}
      error={refusal.form}
      className="template-dialog"
    >
      <Field label={t('shortcut')} error={refusal.byField.shortcut} hint={t('shortcutHint')}>
        {(p) => (
          <span className="shortcut-field">
            <span aria-hidden="true">/</span>
            <input {...p} value={shortcut} onChange={(e) => setShortcut(e.target.value)} autoComplete="off" maxLength={200} required />
          </span>
        )}
      </Field>
      <Field label={t('message')} error={refusal.byField.message} hint={t('messageHint')}>
        {(p) => <textarea {...p} ref={messageRef} value={message} onChange={(e) => setMessage(e.target.value)} rows={5} maxLength={65_536} required />}
      </Field>
      <fieldset className="template-variables">
        <legend>{t('variables')}</legend>
        <p className="muted small-text">{t('variablesIntro')}</p>
        <ul>
          {TEMPLATE_VARIABLES.map((v) => (
            <li key={v}>
              <button
                type="button"
                className="small"
                aria-label={t('insert', { variable: `{{${v}}}`, description: t(`vars.${v}`) })}
                title={t(`vars.${v}`)}
                onClick={() => insert(v)}
              >{`{{${v}}}`}</button>
            </li>
          ))}
        </ul>
      </fieldset>
      <section className="template-preview" aria-labelledby={previewId}>
        <h3 id={previewId} className="small-heading">
          {t('preview')}
        </h3>
        <p data-testid="template-preview" className={message.trim() ? 'preview-text' : 'muted'}>
          {message.trim() ? preview : t('previewEmpty')}
        </p>
      </section>
      <Field label={t('category')} error={refusal.byField.category} hint={t('categoryHint')}>
        {(p) => <input {...p} value={category} onChange={(e) => setCategory(e.target.value)} autoComplete="off" maxLength={1000} />}
      </Field>
      {isAdmin && (
        <div className="field">
          <label className="check">
            <input type="checkbox" checked={global} onChange={(e) => setGlobal(e.target.checked)} aria-describedby={`${previewId}-global`} />
            {t('global')}
          </label>
          <span id={`${previewId}-global`} className="hint">
            {t('globalHint')}
          </span>
        </div>
      )}
      <Field label={t('file')} error={refusal.byField.media} hint={t('fileHint')}>
        {(p) => <input {...p} type="file" onChange={choose} />}
      </Field>
      {template?.mediaUrl && !file && (
        <div className="field">
          <p className="small-text">{t('currentFile', { name: template.mediaName ?? template.mediaUrl })}</p>
          <label className="check">
            <input type="checkbox" checked={removeMedia} onChange={(e) => setRemoveMedia(e.target.checked)} />
            {t('removeFile')}
          </label>
        </div>
      )}
    </FormDialog>
  );
}
