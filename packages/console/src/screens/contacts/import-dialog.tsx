import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Dialog } from 'radix-ui';
import { type FormEvent, useState } from 'react';
import { must, type Schema } from '../../api/client.js';
import { useScreenStrings } from '../../i18n/screen-strings.js';
import { keys } from '../../realtime/apply-frame.js';
import { useServices } from '../../services.js';
import { errorText } from '../../ui/errors.js';
import { Field, FormError } from '../../ui/form.js';
import { strings } from './strings.js';

type ImportStatus = Schema<'ContactImportStatus'>;

/**
 * Importing a CSV or XLSX file (`POST /contacts/upload`): the server answers at once and imports in
 * the background; its `contactImport` frames (applied to the import's query) move the progress bar,
 * and the report lists the refused rows with their reasons. A refusal of the file itself is shown
 * at the file field.
 */
export function ImportDialog({ close }: { close: () => void }) {
  const { t } = useScreenStrings('contacts', strings);
  const { api } = useServices();
  const client = useQueryClient();
  const [file, setFile] = useState<File | null>(null);
  const [importId, setImportId] = useState<string | null>(null);
  const upload = useMutation({
    mutationFn: (chosen: File | null) => {
      const form = new FormData();
      if (chosen) form.set('file', chosen, chosen.name);
      return must(api.POST('/contacts/upload', { body: form as never, bodySerializer: (b: unknown) => b as FormData }));
    },
    onSuccess: (status) => {
      // A frame may have come before the answer: it is newer, keep it.
      if (!client.getQueryData(keys.contactImport(status.importId))) client.setQueryData(keys.contactImport(status.importId), status);
      setImportId(status.importId);
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
          <Dialog.Title>{t('importTitle')}</Dialog.Title>
          <Dialog.Description>{t('importIntro')}</Dialog.Description>
          {importId ? (
            <ImportProgress importId={importId} />
          ) : (
            <form className="form" onSubmit={submit} noValidate>
              <Field label={t('file')} error={upload.error ? errorText(t, upload.error) : undefined} hint={t('fileHint')}>
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
          {importId && (
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

export function ImportProgress({ importId }: { importId: string }) {
  const { t } = useScreenStrings('contacts', strings);
  const { api } = useServices();
  // Seeded by the upload's answer and moved by the frames; after a reconnect it is asked again.
  const status = useQuery({
    queryKey: keys.contactImport(importId),
    queryFn: (): Promise<ImportStatus> => must(api.POST('/contactsImport', { body: { importId } })),
    staleTime: Number.POSITIVE_INFINITY,
  });
  const s = status.data;
  if (!s) return status.error ? <FormError text={errorText(t, status.error)} /> : null;
  return (
    <div className="import-progress">
      <label className="progress-label">
        {t('progress')}
        <progress max={Math.max(s.total, 1)} value={s.status === 'running' ? s.processed : Math.max(s.total, 1)} />
      </label>
      <p data-testid="import-count">{t('progressText', { processed: s.processed, total: s.total })}</p>
      <p role="status" data-testid="import-state">
        {s.status === 'running'
          ? t('importRunning')
          : s.status === 'done'
            ? t('importDone', { created: s.created, merged: s.merged, failed: s.failed })
            : t('importFailed', { reason: t(`errors.codes.${s.error ?? 'ERR_IMPORT_FAILED'}`, { defaultValue: s.error ?? '' }) })}
      </p>
      {s.errors.length > 0 && (
        <div className="bad-rows">
          <table className="admin-table">
            <caption id="import-bad-rows">{t('badRows')}</caption>
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
          {s.errorsTruncated && <p className="muted small-text">{t('badRowsMore')}</p>}
        </div>
      )}
    </div>
  );
}
