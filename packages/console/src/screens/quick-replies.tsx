import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { type KeyboardEvent, useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { must, type Schema } from '../api/client.js';
import { keys } from '../realtime/apply-frame.js';
import { quickReplyQuery } from '../replies/compose.js';
import { useServices } from '../services.js';
import { errorText } from '../ui/errors.js';

type Template = Schema<'CompanyTemplate'>;

/** A template picked: its text filled for the ticket, and its file when it has one that could be read. */
export interface QuickReply {
  readonly text: string;
  readonly file: File | null;
}

/** The ones whose shortcut starts with what is typed first (the server also matches the message). */
function ranked(templates: readonly Template[], query: string): Template[] {
  const q = query.toLowerCase();
  const starts = templates.filter((t) => t.shortcut.startsWith(q));
  return [...starts, ...templates.filter((t) => !starts.includes(t))];
}

/**
 * The quick replies of the reply box: `/` at the start of the box lists the company templates the
 * operator sees, filtered by the shortcut typed; arrows move, Enter or Tab picks, Escape closes.
 * The box is the combobox (`comboProps`), the list its listbox, the active option named by
 * aria-activedescendant. A pick fills the template's variables for the ticket on the server.
 */
export function useQuickReplies(props: { text: string; ticketId: number; onPick: (reply: QuickReply) => void }) {
  const { t } = useTranslation();
  const { api } = useServices();
  const listId = useId();
  const query = quickReplyQuery(props.text);
  const [dismissedAt, setDismissedAt] = useState<string | null>(null);
  const [active, setActive] = useState(0);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const open = query !== null && dismissedAt !== props.text;
  const list = useQuery({
    queryKey: keys.companyTemplateList(query ?? ''),
    queryFn: () => must(api.GET('/company-templates', { params: { query: query ? { searchParam: query } : {} } })),
    enabled: open,
    placeholderData: keepPreviousData,
  });
  const options = ranked(list.data?.templates ?? [], query ?? '');
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new query starts at the first option
  useEffect(() => setActive(0), [query]);
  const current = Math.min(active, Math.max(0, options.length - 1));
  const optionId = (i: number) => `${listId}-option-${i}`;

  const pick = async (template: Template) => {
    setBusy(true);
    setError(null);
    try {
      const rendered = await must(api.GET('/company-templates/{id}', { params: { path: { id: template.id }, query: { ticketId: props.ticketId } } }));
      let file: File | null = null;
      if (rendered.mediaUrl) {
        try {
          const res = await fetch(rendered.mediaUrl);
          if (!res.ok) throw new Error(`HTTP ${res.status}`);
          const blob = await res.blob();
          file = new File([blob], rendered.mediaName ?? 'file', { type: rendered.mediaType ?? blob.type });
        } catch {
          setError(t('reply.quick.fileFailed', { name: rendered.mediaName ?? '' }));
        }
      }
      setDismissedAt(null);
      props.onPick({ text: rendered.rendered ?? rendered.message, file });
    } catch (err) {
      setError(errorText(t, err));
    } finally {
      setBusy(false);
    }
  };

  /** The keys the list takes while open; true when it took this one. */
  const onKeyDown = (e: KeyboardEvent): boolean => {
    if (!open) return false;
    if (e.key === 'Escape') {
      setDismissedAt(props.text);
      return true;
    }
    if (options.length === 0) return e.key === 'Enter';
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      const step = e.key === 'ArrowDown' ? 1 : -1;
      setActive((current + step + options.length) % options.length);
      return true;
    }
    if ((e.key === 'Enter' && !e.shiftKey) || e.key === 'Tab') {
      if (!busy) void pick(options[current]!);
      return true;
    }
    return false;
  };

  const comboProps = {
    role: 'combobox',
    'aria-expanded': open,
    'aria-controls': listId,
    'aria-autocomplete': 'list',
    'aria-activedescendant': open && options.length ? optionId(current) : undefined,
  } as const;

  const element = (
    <>
      {open && (
        <div className="quick-replies">
          <div id={listId} role="listbox" aria-label={t('reply.quick.label')} aria-busy={list.isFetching || busy} data-testid="quick-replies">
            {options.map((template, i) => (
              // biome-ignore lint/a11y/useKeyWithClickEvents: the keys are the combobox's (the reply box keeps the focus, aria-activedescendant names the option)
              <div
                key={template.id}
                id={optionId(i)}
                role="option"
                tabIndex={-1}
                aria-selected={i === current}
                className={i === current ? 'active' : ''}
                onMouseDown={(e) => e.preventDefault()}
                onClick={() => void pick(template)}
              >
                <span className="shortcut">/{template.shortcut}</span>
                <span className="muted preview">{template.message}</span>
                {template.mediaName && <span className="muted small-text">{t('reply.quick.withFile', { name: template.mediaName })}</span>}
              </div>
            ))}
          </div>
          {!list.isFetching && options.length === 0 && (
            <p className="muted small-text" role="status">
              {list.error ? errorText(t, list.error) : t('reply.quick.none', { query })}
            </p>
          )}
        </div>
      )}
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
    </>
  );

  return { open, comboProps, onKeyDown, element };
}
