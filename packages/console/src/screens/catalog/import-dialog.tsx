import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ApiError, must, type Schema } from '../../api/client.js';
import { useScreenStrings } from '../../i18n/screen-strings.js';
import { keys } from '../../realtime/apply-frame.js';
import { useServices } from '../../services.js';
import { FormDialog } from '../../ui/admin-screen.js';
import { errorText } from '../../ui/errors.js';
import { Field } from '../../ui/form.js';
import { strings } from './strings.js';

type ProductImport = Schema<'ProductImport'>;

/** The company's latest import (`GET /products/import/status`; none yet is 404), moved by `productImport` frames. */
function useLatestImport() {
  const { api } = useServices();
  return useQuery({
    queryKey: keys.productImport,
    queryFn: async (): Promise<ProductImport | null> => {
      try {
        return await must(api.GET('/products/import/status'));
      } catch (err) {
        if (err instanceof ApiError && err.status === 404) return null;
        throw err;
      }
    },
    staleTime: Number.POSITIVE_INFINITY,
  });
}

const running = (i: ProductImport | null | undefined) => i?.status === 'queued' || i?.status === 'processing';

/**
 * Importing a CSV or XLSX file (`POST /products/import`, `create` or `upsert` by SKU): the server
 * answers at once and writes the rows in the background; its `productImport` frames move the
 * progress and list the refused rows (row, column, reason). An import already running is shown
 * instead of the form (one at a time per company).
 */
export function ImportDialog({ close }: { close: () => void }) {
  const { t } = useScreenStrings('catalog', strings);
  const { api } = useServices();
  const client = useQueryClient();
  const latest = useLatestImport();
  const [file, setFile] = useState<File | null>(null);
  const [mode, setMode] = useState<'create' | 'upsert'>('create');
  const [started, setStarted] = useState(false);
  const upload = useMutation({
    mutationFn: () => {
      const form = new FormData();
      if (file) form.set('file', file, file.name);
      form.set('mode', mode);
      return must(api.POST('/products/import', { body: form as never, bodySerializer: (b: unknown) => b as FormData }));
    },
    onSuccess: (record) => {
      // A frame may have come before the answer: keep the further one.
      client.setQueryData<ProductImport | null>(keys.productImport, (known) =>
        known?.id === record.id && known.processed >= record.processed ? known : record,
      );
      setStarted(true);
    },
  });
  const showing = started || running(latest.data) ? latest.data : null;

  return (
    <FormDialog
      className="import-dialog"
      title={t('importTitle')}
      description={t('importIntro')}
      hideDescription={false}
      submitLabel={showing ? t('close') : t('startImport')}
      onSubmit={() => (showing ? close() : upload.mutate())}
      onClose={close}
      pending={upload.isPending}
    >
      {showing ? (
        <ImportProgress record={showing} />
      ) : (
        <>
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
          <Field label={t('importMode')}>
            {(p) => (
              <select {...p} value={mode} onChange={(e) => setMode(e.target.value as 'create' | 'upsert')}>
                <option value="create">{t('modeCreate')}</option>
                <option value="upsert">{t('modeUpsert')}</option>
              </select>
            )}
          </Field>
        </>
      )}
    </FormDialog>
  );
}

function ImportProgress({ record: r }: { record: ProductImport }) {
  const { t } = useScreenStrings('catalog', strings);
  const reason = (code: string) => t(`errors.codes.${code}`, { defaultValue: t('errors.generic', { code }) });
  return (
    <div className="import-progress">
      <p className="muted">{r.fileName}</p>
      <label className="progress-label">
        {t('progress')}
        <progress max={Math.max(r.total, 1)} value={running(r) ? r.processed : Math.max(r.total, 1)} />
      </label>
      <p data-testid="import-count">{t('progressText', { processed: r.processed, total: r.total })}</p>
      <p role="status" data-testid="import-state">
        {running(r)
          ? t('importRunning')
          : r.status === 'completed'
            ? t('importDone', { created: r.created, updated: r.updated, skipped: r.skipped, failed: r.failed })
            : t('importFailed', { reason: reason(r.error ?? 'ERR_IMPORT_FAILED') })}
      </p>
      {r.errors.length > 0 && (
        <div className="bad-rows">
          <table className="admin-table">
            <caption>{t('badRows', { count: r.failed })}</caption>
            <thead>
              <tr>
                <th scope="col">{t('row')}</th>
                <th scope="col">{t('column')}</th>
                <th scope="col">{t('reason')}</th>
              </tr>
            </thead>
            <tbody>
              {r.errors.map((e) => (
                <tr key={`${e.row}-${e.field}`}>
                  <th scope="row">{e.row}</th>
                  <td data-label={t('column')}>{e.field}</td>
                  <td data-label={t('reason')}>{reason(e.error)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {r.failed > r.errors.length && <p className="muted small-text">{t('badRowsMore', { count: r.errors.length })}</p>}
        </div>
      )}
    </div>
  );
}
