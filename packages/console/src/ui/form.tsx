import type { TFunction } from 'i18next';
import { AlertDialog } from 'radix-ui';
import { type ReactNode, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../api/client.js';
import { codeOf, errorText, fieldMessages } from './errors.js';

/** A refusal split for a form: the sentence for each field it names, and what is left for the whole form. */
export interface Refusal<F extends string> {
  readonly byField: Partial<Record<F, string>>;
  readonly form: string | null;
}

/**
 * Where a save's refusal is shown: a schema refusal's `fields`, and the codes `fieldOf` assigns to
 * a field (`ERR_TAG_NAME_ALREADY_EXISTS` → `name`), beside their fields; anything else above the
 * form's buttons, in words (`errorText`: the screen's own sentence for the code, else the shared one).
 */
export function refusalOf<F extends string>(t: TFunction, err: unknown, fieldOf: Readonly<Record<string, F>> = {}): Refusal<F> {
  if (!err) return { byField: {}, form: null };
  const byField = fieldMessages(err) as Partial<Record<F, string>>;
  const field = fieldOf[codeOf(err)];
  if (field) byField[field] = errorText(t, err);
  const explained = field || (err instanceof ApiError && err.code === 'ERR_VALIDATION' && Object.keys(byField).length > 0);
  return { byField, form: explained ? null : errorText(t, err) };
}

/** The attributes an input takes from its `Field`: its label's target and, when refused, the reason's link. */
export interface FieldProps {
  readonly id: string;
  readonly 'aria-invalid'?: true;
  readonly 'aria-describedby'?: string;
}

/** A labelled input with the server's reason beside it, announced when it appears. */
export function Field(props: { label: ReactNode; error?: string | undefined; hint?: ReactNode; children: (input: FieldProps) => ReactNode }) {
  const id = useId();
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const describedBy = [props.hint ? hintId : null, props.error ? errorId : null].filter(Boolean).join(' ');
  return (
    <div className="field">
      <label htmlFor={id}>{props.label}</label>
      {props.children({ id, ...(props.error ? { 'aria-invalid': true } : {}), ...(describedBy ? { 'aria-describedby': describedBy } : {}) })}
      {props.hint && (
        <span id={hintId} className="hint">
          {props.hint}
        </span>
      )}
      {props.error && (
        <span id={errorId} className="form-error" role="alert">
          {props.error}
        </span>
      )}
    </div>
  );
}

/**
 * A colour typed as `#rrggbb` beside the browser's picker (hidden from assistive technology: the
 * text field is the accessible one); `fallback` is what the picker shows while the text is no colour.
 */
export function ColorField(props: {
  label: ReactNode;
  error?: string | undefined;
  hint?: ReactNode;
  value: string;
  onChange: (value: string) => void;
  fallback: string;
}) {
  return (
    <Field label={props.label} error={props.error} hint={props.hint}>
      {(p) => (
        <span className="color-field">
          <input {...p} value={props.value} onChange={(e) => props.onChange(e.target.value)} autoComplete="off" />
          <input
            type="color"
            aria-hidden="true"
            tabIndex={-1}
            value={/^#[0-9a-f]{6}$/i.test(props.value) ? props.value : props.fallback}
            onChange={(e) => props.onChange(e.target.value)}
          />
        </span>
      )}
    </Field>
  );
}

/** The refusal that belongs to no field, above the form's buttons. */
export function FormError({ text }: { text: string | null }) {
  if (!text) return null;
  return (
    <p className="form-error" role="alert">
      {text}
    </p>
  );
}

/**
 * A button that asks before doing something that cannot be undone (a delete): an alert dialog
 * whose focus starts on "Cancel", so Enter never confirms by accident.
 */
export function ConfirmButton(props: {
  label: string;
  title: string;
  description: string;
  confirmLabel: string;
  onConfirm: () => void;
  className?: string;
  disabled?: boolean;
}) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <AlertDialog.Root open={open} onOpenChange={setOpen}>
      <AlertDialog.Trigger asChild>
        <button type="button" className={props.className} disabled={props.disabled}>
          {props.label}
        </button>
      </AlertDialog.Trigger>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="overlay" />
        <AlertDialog.Content className="dialog">
          <AlertDialog.Title>{props.title}</AlertDialog.Title>
          <AlertDialog.Description>{props.description}</AlertDialog.Description>
          <div className="dialog-buttons">
            <AlertDialog.Cancel asChild>
              <button type="button">{t('actions.cancel')}</button>
            </AlertDialog.Cancel>
            <AlertDialog.Action asChild>
              <button type="button" className="danger" onClick={props.onConfirm}>
                {props.confirmLabel}
              </button>
            </AlertDialog.Action>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
