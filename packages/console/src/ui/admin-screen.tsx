import { Dialog } from 'radix-ui';
import type { FormEvent, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { FormError } from './form.js';
import './admin.css';

/**
 * The head of a managing screen: its title (the `h1` the section is labelled by), a sentence on
 * what it holds, then the tools: a search box when `search` is given, and "add" for whoever may
 * add, else a note saying the list is read-only (`readOnly`), else nothing. `aside` goes between the
 * sentence and the tools (a plan's usage, a warning); the search's `placeholder` may be shorter than
 * its label.
 */
export function AdminHeader(props: {
  titleId: string;
  title: ReactNode;
  intro?: ReactNode;
  aside?: ReactNode;
  search?: { label: string; placeholder?: string; className?: string; value: string; onChange: (value: string) => void };
  add?: { label: string; onClick: () => void } | null;
  readOnly?: ReactNode;
  children?: ReactNode;
}) {
  const { search, add } = props;
  return (
    <header className="admin-header">
      <h1 id={props.titleId}>{props.title}</h1>
      {props.intro && <p className="muted">{props.intro}</p>}
      {props.aside}
      <div className="admin-tools">
        {search && (
          <label>
            <span className="visually-hidden">{search.label}</span>
            <input
              type="search"
              className={search.className}
              placeholder={search.placeholder ?? search.label}
              value={search.value}
              onChange={(e) => search.onChange(e.target.value)}
            />
          </label>
        )}
        {props.children}
        {add ? (
          <button type="button" className="primary" onClick={add.onClick}>
            {add.label}
          </button>
        ) : (
          props.readOnly && <p className="muted small-text">{props.readOnly}</p>
        )}
      </div>
    </header>
  );
}

/**
 * A dialog holding one form: open while shown, closed by Escape, the overlay or "Cancel" (`onClose`),
 * submitted by Enter or the primary button (`onSubmit`, the browser's own validation left off so
 * the server's reasons show at their fields). `error` is the refusal no field took, shown above
 * the buttons; `pending` disables the primary button so a save is never sent twice. `lead` goes
 * above the form (a warning, a picture saved on its own), `buttons` beside the two.
 */
export function FormDialog(props: {
  title: ReactNode;
  description: ReactNode;
  /** Announced to screen readers only when true (the default): the title says enough to the eye. */
  hideDescription?: boolean;
  submitLabel: ReactNode;
  onSubmit: () => void;
  onClose: () => void;
  pending?: boolean;
  error?: string | null;
  className?: string;
  lead?: ReactNode;
  /** More buttons beside "Cancel" and the primary one (a test, a preview). */
  buttons?: ReactNode;
  /** After the form, inside the dialog: a question the save asks first (an alert dialog nested in this one). */
  after?: ReactNode;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    props.onSubmit();
  };
  return (
    <Dialog.Root open onOpenChange={(open) => !open && props.onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className="overlay" />
        <Dialog.Content className={props.className ? `dialog ${props.className}` : 'dialog'}>
          <Dialog.Title>{props.title}</Dialog.Title>
          <Dialog.Description className={props.hideDescription === false ? 'muted' : 'visually-hidden'}>{props.description}</Dialog.Description>
          {props.lead}
          <form className="form" onSubmit={submit} noValidate>
            {props.children}
            <FormError text={props.error ?? null} />
            <div className="dialog-buttons">
              <Dialog.Close asChild>
                <button type="button">{t('actions.cancel')}</button>
              </Dialog.Close>
              {props.buttons}
              <button type="submit" className="primary" disabled={props.pending}>
                {props.submitLabel}
              </button>
            </div>
          </form>
          {props.after}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
