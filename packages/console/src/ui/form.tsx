import type { TFunction } from 'i18next';
import { AlertDialog } from 'radix-ui';
import { type ReactNode, useId, useRef, useState } from 'react';
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
 * An alert dialog asking before something that cannot be undone (a delete, a close), open while it
 * is rendered: its focus starts on "Cancel", so Enter never confirms by accident. By default the
 * confirm button closes it at once; with `stayOpen` it stays until the caller closes it, so a
 * refusal (`error`) can be read where it was asked, the button disabled while `pending`. On closing,
 * the focus returns to `returnFocus` (the button that opened it) when that is still in the page.
 */
export function ConfirmDialog(props: {
  title: string;
  description: ReactNode;
  confirmLabel: string;
  onConfirm: () => void;
  onClose: () => void;
  stayOpen?: boolean;
  pending?: boolean;
  error?: string | null;
  returnFocus?: { readonly current: HTMLElement | null };
}) {
  const { t } = useTranslation();
  const confirm = (
    <button type="button" className="danger" disabled={props.pending} onClick={props.onConfirm}>
      {props.confirmLabel}
    </button>
  );
  return (
    <AlertDialog.Root open onOpenChange={(open) => !open && props.onClose()}>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="overlay" />
        <AlertDialog.Content
          className="dialog"
          onCloseAutoFocus={(e) => {
            const opener = props.returnFocus?.current;
            if (!opener?.isConnected) return;
            e.preventDefault();
            opener.focus();
          }}
        >
          <AlertDialog.Title>{props.title}</AlertDialog.Title>
          <AlertDialog.Description>{props.description}</AlertDialog.Description>
          <FormError text={props.error ?? null} />
          <div className="dialog-buttons">
            <AlertDialog.Cancel asChild>
              <button type="button">{t('actions.cancel')}</button>
            </AlertDialog.Cancel>
            {props.stayOpen ? confirm : <AlertDialog.Action asChild>{confirm}</AlertDialog.Action>}
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}

/**
 * A button that asks before doing something that cannot be undone (a delete). The dialog exists
 * only while open: a long list's rows each hold a plain button, not a dialog's machinery.
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
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  return (
    <>
      <button
        ref={button}
        type="button"
        className={props.className}
        disabled={props.disabled}
        aria-haspopup="dialog"
        aria-expanded={open}
        onClick={() => setOpen(true)}
      >
        {props.label}
      </button>
      {open && (
        <ConfirmDialog
          title={props.title}
          description={props.description}
          confirmLabel={props.confirmLabel}
          onConfirm={props.onConfirm}
          onClose={() => setOpen(false)}
          returnFocus={button}
        />
      )}
    </>
  );
}
