import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { Schema } from '../../api/client.js';
import { useScreenStrings } from '../../i18n/screen-strings.js';
import { useServices } from '../../services.js';
import { errorText } from '../../ui/errors.js';
import { FormError } from '../../ui/form.js';
import { type ContactFilter, contactPageQuery, PAGE_SIZE } from './contact-pages.js';
import { toCsv } from './csv.js';
import { strings } from './strings.js';

type Row = Schema<'ContactPage'>['contacts'][number];

/** Pages asked at once while exporting: the list's route, a few at a time. */
const PARALLEL = 4;

/**
 * "Export CSV": every contact the filter selects, read page by page from the list's own route
 * (pages already seen come from the cache), written as a CSV the spreadsheets open (csv.ts) and
 * saved as a file.
 */
export function ExportButton({ filter, total }: { filter: ContactFilter; total: number }) {
  const { t, i18n } = useScreenStrings('contacts', strings);
  const { api } = useServices();
  const client = useQueryClient();
  const [done, setDone] = useState<number | null>(null);
  const [message, setMessage] = useState('');
  const [error, setError] = useState<unknown>(null);

  const run = async () => {
    setError(null);
    setMessage('');
    setDone(0);
    try {
      const first = await client.fetchQuery(contactPageQuery(api, filter, 1));
      const pageCount = Math.max(1, Math.ceil(first.count / PAGE_SIZE));
      const pages: Row[][] = [first.contacts];
      let next = 2;
      let fetched = first.contacts.length;
      setDone(fetched);
      const worker = async () => {
        while (next <= pageCount) {
          const n = next++;
          const page = await client.fetchQuery(contactPageQuery(api, filter, n));
          pages[n - 1] = page.contacts;
          fetched += page.contacts.length;
          setDone(fetched);
        }
      };
      await Promise.all(Array.from({ length: PARALLEL }, worker));
      const seen = new Set<number>();
      const rows = pages.flat().filter((c) => !seen.has(c.id) && seen.add(c.id));
      const yes = (b: boolean) => (b ? t('yes') : t('no'));
      const csv = toCsv(
        [
          t('csv.name'),
          t('csv.number'),
          t('csv.email'),
          t('csv.tags'),
          t('csv.blocked'),
          t('csv.acceptAudio'),
          t('csv.disableBot'),
          t('csv.extra'),
          t('csv.createdAt'),
        ],
        rows.map((c) => [
          c.name,
          c.number,
          c.email ?? '',
          (c.tags ?? []).map((x) => x.name).join(', '),
          yes(c.blocked),
          yes(c.acceptAudioMessage),
          yes(c.disableBot),
          c.extraInfo.map((i) => `${i.name}: ${i.value}`).join('; '),
          c.createdAt,
        ]),
      );
      const url = URL.createObjectURL(new Blob([csv], { type: 'text/csv;charset=utf-8' }));
      const a = document.createElement('a');
      a.href = url;
      a.download = `contacts-${new Date().toISOString().slice(0, 10)}.csv`;
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
      setMessage(t('exported', { count: rows.length }));
    } catch (err) {
      setError(err);
    } finally {
      setDone(null);
    }
  };

  return (
    <>
      <button type="button" disabled={done !== null || total === 0} onClick={() => void run()}>
        {t('exportCsv')}
      </button>
      <span role="status" className="muted small-text">
        {done !== null ? t('exporting', { done: done.toLocaleString(i18n.language), total: total.toLocaleString(i18n.language) }) : message}
      </span>
      {error !== null && <FormError text={errorText(t, error)} />}
    </>
  );
}
