import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { Schema } from '../api/client.js';

export type ExtraInfo = Schema<'ContactExtraInfo'>;

/** Which field a refusal of the contact routes (`POST`/`PUT /contacts`) is about, to show it beside that field. */
export const CONTACT_FIELD_OF = {
  ERR_INVALID_NAME: 'name',
  ERR_NAME_TOO_LONG: 'name',
  ERR_MISSING_NUMBER: 'number',
  ERR_INVALID_NUMBER: 'number',
  ERR_DUPLICATED_CONTACT: 'number',
  ERR_GROUP_NUMBER_FIXED: 'number',
  ERR_INVALID_EMAIL: 'email',
  ERR_INVALID_EXTRA_INFO: 'extraInfo',
  ERR_TOO_MANY_EXTRA_INFO: 'extraInfo',
} as const;
export type ContactField = (typeof CONTACT_FIELD_OF)[keyof typeof CONTACT_FIELD_OF];

/** The rows worth sending: a row with both its label and its value blank is dropped. */
export const filledExtraInfo = (rows: readonly ExtraInfo[]): ExtraInfo[] => rows.filter((i) => i.name.trim() || i.value.trim());

/**
 * A contact's other fields (label and value, in order) edited as rows: added, changed, removed,
 * with the server's reason for them under the group. Used by the conversation's contact panel and
 * the contacts screen.
 */
export function ExtraFields({ rows, onChange, error }: { rows: readonly ExtraInfo[]; onChange: (rows: ExtraInfo[]) => void; error?: string | undefined }) {
  const { t } = useTranslation();
  const errorId = useId();
  const setRow = (i: number, change: Partial<ExtraInfo>) => onChange(rows.map((r, j) => (j === i ? { ...r, ...change } : r)));
  return (
    <fieldset className="extra-fields" {...(error ? { 'aria-describedby': errorId } : {})}>
      <legend>{t('contact.extra')}</legend>
      {rows.map((row, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: rows have no id of their own; their place is what the operator edits
        <div key={i} className="extra-row">
          <label>
            <span className="visually-hidden">{t('contact.fieldName', { n: i + 1 })}</span>
            <input value={row.name} placeholder={t('contact.fieldNamePlaceholder')} onChange={(e) => setRow(i, { name: e.target.value })} />
          </label>
          <label>
            <span className="visually-hidden">{t('contact.fieldValue', { n: i + 1 })}</span>
            <input value={row.value} placeholder={t('contact.fieldValuePlaceholder')} onChange={(e) => setRow(i, { value: e.target.value })} />
          </label>
          <button type="button" className="small" aria-label={t('contact.removeField', { n: i + 1 })} onClick={() => onChange(rows.filter((_, j) => j !== i))}>
            <span aria-hidden="true">×</span>
          </button>
        </div>
      ))}
      <button type="button" className="small" onClick={() => onChange([...rows, { name: '', value: '' }])}>
        {t('contact.addField')}
      </button>
      {error && (
        <span id={errorId} className="form-error" role="alert">
          {error}
        </span>
      )}
    </fieldset>
  );
}
