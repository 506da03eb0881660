import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { authedFetch, must, type Schema } from '../../api/client.js';
import { useScreenStrings } from '../../i18n/screen-strings.js';
import { keys } from '../../realtime/apply-frame.js';
import { uploadTransport } from '../../replies/upload.js';
import { useServices } from '../../services.js';
import { FormDialog } from '../../ui/admin-screen.js';
import { errorText } from '../../ui/errors.js';
import { Field, refusalOf } from '../../ui/form.js';
import { fileKind, formatSize, storedFileInfo } from './file-kind.js';
import { strings } from './strings.js';

type FileList = Schema<'FileList'>;
type FileOption = Schema<'FileOption'>;

/** The most files a list holds (the server's `MAX_FILE_OPTIONS`; it refuses more anyway). */
const MAX_OPTIONS = 20;

/** The refusals of the list routes that name a field of the form. */
const FIELD_OF = {
  ERR_FILE_LIST_NAME_IN_USE: 'name',
  ERR_INVALID_FILE_LIST_NAME: 'name',
  ERR_INVALID_FILE_LIST_MESSAGE: 'message',
  ERR_INVALID_FILE_OPTION: 'options',
  ERR_TOO_MANY_FILE_OPTIONS: 'options',
  ERR_NO_FILE_OPTION_FOUND: 'options',
} as const;
type ListField = (typeof FIELD_OF)[keyof typeof FIELD_OF];

/** One file of the form: its caption, the option it is once saved, its uploaded file, and a file picked to upload. */
interface Draft {
  readonly key: number;
  readonly id?: number;
  readonly name: string;
  readonly stored: FileOption | null;
  readonly file: File | null;
  readonly progress: number | null;
  readonly error: string | null;
  /** Counts the uploads done, so the file input is emptied after each. */
  readonly uploads: number;
}

/** The list was saved but some picked file was refused: the dialog stays, each refusal at its file. */
class UploadsFailed extends Error {}

let nextKey = 1;
const draftOf = (o: FileOption | null): Draft => ({
  key: nextKey++,
  ...(o ? { id: o.id } : {}),
  name: o?.name ?? '',
  stored: o,
  file: null,
  progress: null,
  error: null,
  uploads: 0,
});

/** A picked file shown before it is sent: the image, a player, or a link to the PDF. */
function FilePreview({ file }: { file: File }) {
  const { t } = useScreenStrings('files', strings);
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    const made = URL.createObjectURL(file);
    setUrl(made);
    return () => URL.revokeObjectURL(made);
  }, [file]);
  if (!url) return null;
  const label = t('preview', { name: file.name });
  switch (fileKind(file.type)) {
    case 'image':
      return <img className="file-preview" src={url} alt={label} />;
    case 'audio':
      // biome-ignore lint/a11y/useMediaCaption: a file being chosen has no captions to give.
      return <audio className="file-preview" src={url} controls aria-label={label} />;
    case 'video':
      // biome-ignore lint/a11y/useMediaCaption: a file being chosen has no captions to give.
      return <video className="file-preview" src={url} controls aria-label={label} />;
    case 'pdf':
      return (
        <a href={url} target="_blank" rel="noreferrer">
          {t('openPdf', { name: file.name })}
        </a>
      );
    default:
      return null;
  }
}

/**
 * Creating or editing a list: its name, message and files in order. Saving sends the list with the
 * captions, then each picked file to its option over XMLHttpRequest with its progress; a refused
 * file keeps the dialog open (the list is saved, now edited) with the reason at that file.
 */
export function FileListDialog({ list, close }: { list: FileList | null; close: (saved: FileList | null) => void }) {
  const { t, i18n } = useScreenStrings('files', strings);
  const { api, session } = useServices();
  const client = useQueryClient();
  const [current, setCurrent] = useState<FileList | null>(list);
  const [name, setName] = useState(list?.name ?? '');
  const [message, setMessage] = useState(list?.message ?? '');
  const [drafts, setDrafts] = useState<Draft[]>(() => (list?.options ?? []).map(draftOf));
  const [notice, setNotice] = useState('');
  const control = useRef<AbortController | null>(null);
  useEffect(() => () => control.current?.abort(), []);

  const change = (key: number, patch: Partial<Draft>) => setDrafts((all) => all.map((d) => (d.key === key ? { ...d, ...patch } : d)));
  const move = (index: number, by: -1 | 1) =>
    setDrafts((all) => {
      const next = [...all];
      const [taken] = next.splice(index, 1);
      next.splice(index + by, 0, taken!);
      return next;
    });

  const save = useMutation({
    mutationFn: async () => {
      const body = { name, message, options: drafts.map((d) => ({ ...(d.id !== undefined ? { id: d.id } : {}), name: d.name })) };
      let saved = current
        ? await must(api.PUT('/files/{fileId}', { params: { path: { fileId: current.id } }, body }))
        : await must(api.POST('/files', { body }));
      setCurrent(saved);
      const plan = drafts.map((d, i) => ({ key: d.key, file: d.file, option: saved.options[i] ?? null }));
      // The saved options are in the order of the form: each draft takes its option's id (a new one becomes an edit).
      setDrafts((all) => all.map((d) => ({ ...d, ...draftPatch(plan.find((p) => p.key === d.key)?.option ?? null), error: null })));
      let failed = false;
      for (const step of plan) {
        if (!step.file || !step.option) continue;
        const form = new FormData();
        form.append('files', step.file, step.file.name);
        form.append('id', String(step.option.id));
        control.current = new AbortController();
        change(step.key, { progress: 0 });
        try {
          saved = await must(
            api.POST('/files/uploadList/{fileListId}', {
              params: { path: { fileListId: saved.id } },
              body: form as never,
              bodySerializer: (b: unknown) => b as FormData,
              fetch: authedFetch(session, uploadTransport({ signal: control.current.signal, progress: (progress) => change(step.key, { progress }) })),
            }),
          );
          const uploaded = saved.options.find((o) => o.id === step.option?.id) ?? null;
          setDrafts((all) =>
            all.map((d) => (d.key === step.key ? { ...d, stored: uploaded, file: null, progress: null, error: null, uploads: d.uploads + 1 } : d)),
          );
          setNotice(t('uploaded', { name: step.file.name }));
        } catch (err) {
          failed = true;
          change(step.key, { progress: null, error: errorText(t, err) });
        }
      }
      setCurrent(saved);
      if (failed) throw new UploadsFailed();
      return saved;
    },
    onSuccess: (saved) => close(saved),
    onSettled: () => void client.invalidateQueries({ queryKey: keys.fileLists }),
  });
  const refusal =
    save.error instanceof UploadsFailed
      ? { byField: {} as Partial<Record<ListField, string>>, form: t('uploadFailed') }
      : refusalOf<ListField>(t, save.error, FIELD_OF);

  return (
    <FormDialog
      className="file-list-dialog"
      title={current ? t('editTitle', { name: current.name }) : t('addTitle')}
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
      <Field label={t('message')} error={refusal.byField.message}>
        {(p) => <textarea {...p} rows={3} value={message} onChange={(e) => setMessage(e.target.value)} />}
      </Field>
      <fieldset className="file-options" aria-describedby="file-options-hint">
        <legend>{t('options')}</legend>
        <p id="file-options-hint" className="muted small-text">
          {t('optionsHint')}
        </p>
        {refusal.byField.options && (
          <p className="form-error" role="alert">
            {refusal.byField.options}
          </p>
        )}
        <ol className="file-option-list">
          {drafts.map((d, i) => {
            const n = i + 1;
            const stored = d.stored ? storedFileInfo(t, i18n.language, d.stored) : null;
            const chosen = d.file
              ? t('fileInfo', { name: d.file.name, type: t(`types.${fileKind(d.file.type)}`), size: formatSize(d.file.size, i18n.language) })
              : null;
            return (
              <li key={d.key} className="file-option" aria-label={t('option', { n })}>
                <Field label={`${t('caption')} (${t('option', { n })})`}>
                  {(p) => <input {...p} value={d.name} onChange={(e) => change(d.key, { name: e.target.value })} autoComplete="off" />}
                </Field>
                <Field
                  label={`${stored ? t('replaceFile') : t('pickFile')} (${t('option', { n })})`}
                  error={d.error ?? undefined}
                  hint={chosen ? t('chosen', { info: chosen }) : stored ? t('current', { info: stored }) : t('noFile')}
                >
                  {(p) => <input {...p} key={d.uploads} type="file" onChange={(e) => change(d.key, { file: e.target.files?.[0] ?? null, error: null })} />}
                </Field>
                {d.file && <FilePreview file={d.file} />}
                {d.progress !== null && d.file && (
                  <progress className="file-progress" max={1} value={d.progress} aria-label={t('uploading', { name: d.file.name })} />
                )}
                <div className="row-actions">
                  <button type="button" className="small" aria-label={t('moveUp', { n })} disabled={i === 0 || save.isPending} onClick={() => move(i, -1)}>
                    ↑
                  </button>
                  <button
                    type="button"
                    className="small"
                    aria-label={t('moveDown', { n })}
                    disabled={i === drafts.length - 1 || save.isPending}
                    onClick={() => move(i, 1)}
                  >
                    ↓
                  </button>
                  <button
                    type="button"
                    className="small"
                    aria-label={t('remove', { n })}
                    disabled={save.isPending}
                    onClick={() => setDrafts((all) => all.filter((x) => x.key !== d.key))}
                  >
                    ✕
                  </button>
                </div>
              </li>
            );
          })}
        </ol>
        <button type="button" onClick={() => setDrafts((all) => [...all, draftOf(null)])} disabled={drafts.length >= MAX_OPTIONS || save.isPending}>
          {t('addOption')}
        </button>
      </fieldset>
      <p className="visually-hidden" role="status">
        {notice}
      </p>
    </FormDialog>
  );
}

/** What a saved option gives its draft: its id and uploaded file. */
function draftPatch(option: FileOption | null): Partial<Draft> {
  return option ? { id: option.id, stored: option } : {};
}
