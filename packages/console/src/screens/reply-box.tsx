import { type ClipboardEvent, type DragEvent, type FormEvent, type KeyboardEvent, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Schema } from '../api/client.js';
import { PaperclipIcon } from '../ui/icons.js';
import { useServices } from '../services.js';

type Ticket = Schema<'TicketDetails'>;

/**
 * The reply box: Enter sends, Shift+Enter breaks the line; files by picker, drop or paste; a private
 * note. A reply goes through the reply queue, which holds it while offline and can never send it twice.
 */
export function ReplyBox({ ticket }: { ticket: Ticket }) {
  const { t } = useTranslation();
  const { replies } = useServices();
  const [text, setText] = useState('');
  const [files, setFiles] = useState<File[]>([]);
  const [note, setNote] = useState(false);
  const area = useRef<HTMLTextAreaElement>(null);
  const picker = useRef<HTMLInputElement>(null);
  const hintId = useId();

  // `r` anywhere outside a field focuses the reply.
  useEffect(() => {
    const onKey = (e: globalThis.KeyboardEvent) => {
      const target = e.target as HTMLElement | null;
      if (e.key === 'r' && !e.ctrlKey && !e.metaKey && !e.altKey && !(target && /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))) {
        e.preventDefault();
        area.current?.focus();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  if (ticket.status === 'closed') return <p className="reply-closed muted">{t('reply.closed')}</p>;
  if (ticket.status === 'pending' && !note) {
    return (
      <div className="reply-closed">
        <p className="muted">{t('reply.acceptFirst')}</p>
        <label className="check">
          <input type="checkbox" checked={note} onChange={(e) => setNote(e.target.checked)} />
          {t('reply.note')}
        </label>
      </div>
    );
  }

  const send = () => {
    const body = text.trim();
    if (!body && files.length === 0) return;
    replies.add({ ticketId: ticket.id, body, files, isPrivate: note });
    setText('');
    setFiles([]);
  };
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    send();
  };
  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      send();
    }
  };
  const addFiles = (list: FileList | null | undefined) => {
    if (list?.length) setFiles((f) => [...f, ...Array.from(list)].slice(0, 10));
  };
  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    addFiles(e.dataTransfer.files);
  };
  const onPaste = (e: ClipboardEvent) => {
    if (e.clipboardData.files.length) {
      e.preventDefault();
      addFiles(e.clipboardData.files);
    }
  };

  return (
    <form className={`reply ${note ? 'note' : ''}`} onSubmit={onSubmit} onDragOver={(e) => e.preventDefault()} onDrop={onDrop}>
      {files.length > 0 && (
        <ul className="attachments">
          {files.map((f, i) => (
            <li key={`${f.name}-${f.size}-${f.lastModified}`}>
              <PaperclipIcon /> {f.name}
              <button type="button" aria-label={t('reply.remove', { name: f.name })} onClick={() => setFiles((all) => all.filter((_, j) => j !== i))}>
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
      <label htmlFor={`${hintId}-text`} className="visually-hidden">
        {t('reply.label')}
      </label>
      <textarea
        id={`${hintId}-text`}
        ref={area}
        rows={2}
        value={text}
        placeholder={t('reply.placeholder')}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={onKeyDown}
        onPaste={onPaste}
        data-testid="reply-text"
      />
      <div className="reply-tools">
        <input ref={picker} type="file" multiple hidden onChange={(e) => addFiles(e.target.files)} data-testid="reply-files" />
        <button type="button" onClick={() => picker.current?.click()}>
          {t('reply.attach')}
        </button>
        <label className="check">
          <input type="checkbox" checked={note} onChange={(e) => setNote(e.target.checked)} />
          {t('reply.note')}
        </label>
        <button type="submit" className="primary" disabled={!text.trim() && files.length === 0}>
          {t('reply.send')}
        </button>
      </div>
    </form>
  );
}
