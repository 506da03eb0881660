import { useQuery } from '@tanstack/react-query';
import { type ClipboardEvent, type DragEvent, type FormEvent, type KeyboardEvent, useEffect, useId, useLayoutEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { must, type Schema } from '../api/client.js';
import { keys } from '../realtime/apply-frame.js';
import { composeReplies, rememberSignature, signatureOn } from '../replies/compose.js';
import type { Reply } from '../replies/reply-queue.js';
import { useServices, useSession } from '../services.js';
import { PaperclipIcon } from '../ui/icons.js';
import { BizchatTemplateSender, ServiceWindowNotice, useServiceWindow } from './bizchat-window.js';
import { EmojiPicker } from './emoji-picker.js';
import { useQuickReplies } from './quick-replies.js';
import { VoiceNote } from './voice-note.js';

type Ticket = Schema<'TicketDetails'>;
type Attached = { readonly id: number; readonly file: File; readonly caption: string };

const MAX_FILES = 10;
let attachedIds = 0;
const attach = (file: File, caption = ''): Attached => ({ id: ++attachedIds, file, caption });

/** The replies of a conversation still in the queue, kept current. */
function usePending(ticketId: number): readonly Reply[] {
  const { replies } = useServices();
  const [list, setList] = useState(() => replies.pending(ticketId));
  useLayoutEffect(() => {
    setList(replies.pending(ticketId));
    return replies.subscribe(() => setList(replies.pending(ticketId)));
  }, [replies, ticketId]);
  return list;
}

/** Whether the operator signs (remembered per user); the company may turn signatures off (setting `sendSignMessage`). */
function useSignature(userId: number | undefined) {
  const { api } = useServices();
  const setting = useQuery({
    queryKey: keys.setting('sendSignMessage'),
    queryFn: () => must(api.GET('/settings/{settingKey}', { params: { path: { settingKey: 'sendSignMessage' } } })),
  });
  const [on, setOn] = useState(() => (userId ? signatureOn(localStorage, userId) : false));
  const change = (next: boolean) => {
    setOn(next);
    if (userId) rememberSignature(localStorage, userId, next);
  };
  const allowed = setting.data !== undefined && setting.data.value !== 'disabled';
  return { allowed, on: allowed && on, change };
}

/**
 * The reply box: Enter sends, Shift+Enter breaks the line; `/` opens the quick replies; emoji;
 * files by picker, drop or paste, each with its caption; a voice note; a private note; the
 * operator's signature. A reply goes through the reply queue, which holds it while offline and can
 * never send it twice; a reply with files shows its upload and can be taken back to the box while
 * it uploads. On the business channel, outside the 24-hour window, approved templates instead.
 */
export function ReplyBox({ ticket }: { ticket: Ticket }) {
  // One box per conversation: what is typed in one never shows in another.
  return <ConversationReply key={ticket.id} ticket={ticket} />;
}

function ConversationReply({ ticket }: { ticket: Ticket }) {
  const { t } = useTranslation();
  const { replies } = useServices();
  const session = useSession();
  const [text, setText] = useState('');
  const [attachments, setAttachments] = useState<Attached[]>([]);
  const [note, setNote] = useState(false);
  const [templatesShown, setTemplatesShown] = useState(false);
  const signature = useSignature(session?.user.id);
  const area = useRef<HTMLTextAreaElement>(null);
  const picker = useRef<HTMLInputElement>(null);
  // Where the caret was in the box (null: never placed, insertions go at the end).
  const caret = useRef<{ start: number; end: number } | null>(null);
  const nextCaret = useRef<number | null>(null);
  const hintId = useId();
  const addFiles = (list: Iterable<File> | ArrayLike<File> | null | undefined) => {
    const added = list ? Array.from(list) : [];
    if (added.length) setAttachments((now) => [...now, ...added.map((f) => attach(f))].slice(0, MAX_FILES));
  };
  const pending = usePending(ticket.id);
  const refusals = pending.filter((r) => r.state === 'failed' && r.error === 'ERR_BIZCHAT_WINDOW_CLOSED');
  const refusedAt = refusals.length ? Math.max(...refusals.map((r) => r.createdAt)) : null;
  const serviceWindow = useServiceWindow(ticket, refusedAt);
  const quick = useQuickReplies({
    text,
    ticketId: ticket.id,
    onPick: (reply) => {
      setText(reply.text);
      nextCaret.current = reply.text.length;
      caret.current = { start: reply.text.length, end: reply.text.length };
      if (reply.file) addFiles([reply.file]);
      area.current?.focus();
    },
  });

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

  // Replies taken back from the queue come back here: their text into the box, their files with their captions.
  useEffect(() => {
    const restore = () => {
      const back = replies.takeReturned(ticket.id);
      if (!back.length) return;
      const texts = back.filter((r) => r.files.length === 0 && r.draft).map((r) => r.draft);
      if (texts.length) setText((now) => [...texts, now].filter(Boolean).join('\n'));
      const files = back.flatMap((r) => r.files.map((f, i) => attach(f, i === 0 ? r.draft : '')));
      if (files.length) setAttachments((now) => [...files, ...now]);
      if (back.some((r) => r.isPrivate)) setNote(true);
    };
    restore();
    return replies.subscribe(restore);
  }, [replies, ticket.id]);

  // The caret goes where an insertion (an emoji, a quick reply) ended.
  useLayoutEffect(() => {
    if (nextCaret.current === null || !area.current) return;
    area.current.setSelectionRange(nextCaret.current, nextCaret.current);
    nextCaret.current = null;
  });

  if (ticket.status === 'closed') return <p className="reply-closed muted">{t('reply.closed')}</p>;
  const noteBox = (
    <label className="check">
      <input type="checkbox" checked={note} onChange={(e) => setNote(e.target.checked)} />
      {t('reply.note')}
    </label>
  );
  if (ticket.status === 'pending' && !note) {
    return (
      <div className="reply-closed">
        <p className="muted">{t('reply.acceptFirst')}</p>
        {noteBox}
      </div>
    );
  }

  // The server refused free text for the window (until the contact writes again, which reopens it).
  const refusal = refusedAt !== null && serviceWindow?.kind === 'closed' && (
    <p className="form-error" role="alert">
      {t('errors.codes.ERR_BIZCHAT_WINDOW_CLOSED')}
    </p>
  );
  if (serviceWindow?.kind === 'closed' && !note) {
    return (
      <div className="reply">
        <ServiceWindowNotice state={serviceWindow} />
        {refusal}
        <BizchatTemplateSender ticket={ticket} />
        <div className="reply-tools">{noteBox}</div>
      </div>
    );
  }

  const send = () => {
    const inputs = composeReplies({
      ticketId: ticket.id,
      text,
      attachments,
      isPrivate: note,
      signature: signature.on && session ? session.user.name : null,
    });
    if (!inputs.length) return;
    replies.addAll(inputs);
    setText('');
    setAttachments([]);
  };
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    send();
  };
  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.nativeEvent.isComposing) return;
    if (quick.onKeyDown(e)) {
      e.preventDefault();
      return;
    }
    if (e.key === 'Enter' && !e.shiftKey) {
      e.preventDefault();
      send();
    }
  };
  const rememberCaret = () => {
    const el = area.current;
    if (el) caret.current = { start: el.selectionStart, end: el.selectionEnd };
  };
  const insert = (piece: string) => {
    const { start, end } = caret.current ?? { start: text.length, end: text.length };
    const at = Math.min(start, text.length);
    setText(text.slice(0, at) + piece + text.slice(Math.min(Math.max(end, at), text.length)));
    nextCaret.current = at + piece.length;
    caret.current = { start: at + piece.length, end: at + piece.length };
    area.current?.focus();
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
  const uploads = pending.filter((r) => r.files.length > 0 && r.state !== 'failed');

  return (
    <div className="reply-area">
      {serviceWindow && <ServiceWindowNotice state={serviceWindow} />}
      {refusal}
      {serviceWindow?.kind === 'unknown' && !note && (
        <>
          <button type="button" className="small link-button" aria-expanded={templatesShown} onClick={() => setTemplatesShown((v) => !v)}>
            {templatesShown ? t('reply.window.hideTemplates') : t('reply.window.useTemplate')}
          </button>
          {templatesShown && <BizchatTemplateSender ticket={ticket} />}
        </>
      )}
      {uploads.length > 0 && <Uploads replies={uploads} />}
      <form className={`reply ${note ? 'note' : ''}`} onSubmit={onSubmit} onDragOver={(e) => e.preventDefault()} onDrop={onDrop}>
        {attachments.length > 0 && (
          <ul className="attachments" aria-label={t('reply.files')}>
            {attachments.map((a) => (
              <li key={a.id} data-testid="attachment">
                <span className="file-name">
                  <PaperclipIcon /> {a.file.name}
                </span>
                <input
                  className="caption"
                  aria-label={t('reply.caption', { name: a.file.name })}
                  placeholder={t('reply.captionPlaceholder')}
                  value={a.caption}
                  maxLength={4096}
                  onChange={(e) => setAttachments((all) => all.map((x) => (x.id === a.id ? { ...x, caption: e.target.value } : x)))}
                  onKeyDown={(e) => {
                    if (e.key === 'Enter' && !e.nativeEvent.isComposing) {
                      e.preventDefault();
                      send();
                    }
                  }}
                />
                <button
                  type="button"
                  aria-label={t('reply.remove', { name: a.file.name })}
                  onClick={() => setAttachments((all) => all.filter((x) => x.id !== a.id))}
                >
                  ×
                </button>
              </li>
            ))}
          </ul>
        )}
        <label htmlFor={`${hintId}-text`} className="visually-hidden">
          {t('reply.label')}
        </label>
        <div className="reply-input">
          {quick.element}
          <textarea
            id={`${hintId}-text`}
            ref={area}
            rows={2}
            value={text}
            placeholder={t('reply.placeholder')}
            aria-describedby={`${hintId}-hint`}
            {...quick.comboProps}
            onChange={(e) => {
              setText(e.target.value);
              caret.current = { start: e.target.selectionStart, end: e.target.selectionEnd };
            }}
            onSelect={rememberCaret}
            onKeyDown={onKeyDown}
            onPaste={onPaste}
            data-testid="reply-text"
          />
        </div>
        <p id={`${hintId}-hint`} className="visually-hidden">
          {t('reply.hint')}
        </p>
        <div className="reply-tools">
          <input ref={picker} type="file" multiple hidden onChange={(e) => addFiles(e.target.files)} data-testid="reply-files" />
          <button type="button" onClick={() => picker.current?.click()}>
            {t('reply.attach')}
          </button>
          <EmojiPicker onPick={insert} />
          <VoiceNote onSend={(file) => replies.add({ ticketId: ticket.id, body: '', files: [file], isPrivate: note })} />
          {noteBox}
          {signature.allowed && !note && (
            <label className="check">
              <input type="checkbox" checked={signature.on} onChange={(e) => signature.change(e.target.checked)} data-testid="reply-sign" />
              {t('reply.sign')}
            </label>
          )}
          <button type="submit" className="primary" disabled={!text.trim() && attachments.length === 0}>
            {t('reply.send')}
          </button>
        </div>
      </form>
    </div>
  );
}

/** The replies with files on their way: the part uploaded, and a cancel while it can still stop. */
function Uploads({ replies: list }: { replies: readonly Reply[] }) {
  const { t } = useTranslation();
  const { replies } = useServices();
  return (
    <ul className="uploads" aria-label={t('reply.upload.label')} data-testid="uploads">
      {list.map((r) => {
        const name = r.files.map((f) => f.name).join(', ');
        const percent = Math.round((r.progress ?? 0) * 100);
        const uploaded = r.state === 'sending' && r.progress === 1;
        return (
          <li key={r.localId} data-testid="upload">
            <span className="upload-name">
              {r.state === 'queued'
                ? t('reply.upload.waiting', { name })
                : uploaded
                  ? t('reply.upload.processing', { name })
                  : t('reply.upload.sending', { name, percent })}
            </span>
            {r.state === 'sending' && <progress value={r.progress ?? 0} max={1} aria-label={t('reply.upload.progress', { name })} />}
            {!r.mayHaveArrived && !uploaded && (
              <button type="button" className="small" onClick={() => replies.cancel(r.localId)} aria-label={t('reply.upload.cancelLabel', { name })}>
                {t('reply.upload.cancel')}
              </button>
            )}
          </li>
        );
      })}
    </ul>
  );
}
