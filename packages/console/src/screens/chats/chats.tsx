import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useVirtualizer } from '@tanstack/react-virtual';
import { Dialog } from 'radix-ui';
import { type FormEvent, type KeyboardEvent, useEffect, useId, useLayoutEffect, useRef, useState } from 'react';
import { authedFetch, must, type Schema } from '../../api/client.js';
import { UploadCancelled, uploadTransport } from '../../replies/upload.js';
import { useScreenStrings } from '../../i18n/screen-strings.js';
import { appendChatMessage, chatKeys } from '../../realtime/chat-frames.js';
import { useServices, useSession } from '../../services.js';
import { codeOf, errorText } from '../../ui/errors.js';
import { ConfirmButton, Field, FormError, refusalOf } from '../../ui/form.js';
import { relativeTime, timeOfDay } from '../../ui/format.js';
import { useDebounced } from '../../ui/use-debounced.js';
import { strings } from './strings.js';
import '../../ui/admin.css';
import './chats.css';

type Chat = Schema<'Chat'>;
type ChatMessage = Schema<'ChatMessage'>;

const FIELD_OF = { ERR_CHAT_INVALID_TITLE: 'title', ERR_TOO_MANY_CHAT_MEMBERS: 'users', ERR_NO_USER_FOUND: 'users' } as const;
type ChatField = (typeof FIELD_OF)[keyof typeof FIELD_OF];

/** A row of the chats list: its estimated height for the virtualiser, measured once shown. */
const ROW_ESTIMATE = 68;

const unreadsOf = (chat: Chat, me: number) => chat.users.find((u) => u.userId === me)?.unreads ?? 0;

/**
 * `/chats` and `/chats/<id>`: the internal chats between the company's users. The caller's chats
 * (latest activity first, with the last message, its time and the unread count) beside the chat
 * opened; at a phone's width one or the other, with a back link.
 */
export function Chats({ chatId }: { chatId: number | null }) {
  const { t } = useScreenStrings('chats', strings);
  const [creating, setCreating] = useState(false);
  const [notice, setNotice] = useState('');
  const navigate = useNavigate();
  return (
    <section className="chats-screen" data-open={chatId ? 'chat' : 'list'} aria-labelledby="chats-title">
      <div className="chats-list-pane">
        <header className="admin-header">
          <h1 id="chats-title">{t('title')}</h1>
          <p className="muted">{t('intro')}</p>
          <button type="button" className="primary" onClick={() => setCreating(true)}>
            {t('add')}
          </button>
        </header>
        <ChatList current={chatId} />
      </div>
      <div className="chats-chat-pane">
        {chatId ? <ChatPane key={chatId} chatId={chatId} onNotice={setNotice} /> : <p className="placeholder">{t('pick')}</p>}
      </div>
      <p className="visually-hidden" role="status">
        {notice}
      </p>
      {creating && (
        <ChatDialog
          chat={null}
          close={(saved) => {
            setCreating(false);
            if (saved) {
              setNotice(t('saved', { title: saved.title }));
              void navigate({ to: '/chats/$chatId', params: { chatId: String(saved.id) } });
            }
          }}
        />
      )}
    </section>
  );
}

/** The caller's chats, searched, 20 a page as the route answers, in a virtualised list that fetches the next page near its end. */
function ChatList({ current }: { current: number | null }) {
  const { t, i18n } = useScreenStrings('chats', strings);
  const { api } = useServices();
  const me = useSession()?.user.id ?? 0;
  const [search, setSearch] = useState('');
  const searchParam = useDebounced(search.trim(), 250);
  const list = useInfiniteQuery({
    queryKey: chatKeys.list(searchParam),
    initialPageParam: 1,
    queryFn: ({ pageParam }) => must(api.GET('/chats', { params: { query: { pageNumber: pageParam, ...(searchParam ? { searchParam } : {}) } } })),
    getNextPageParam: (last, pages) => (last.hasMore ? pages.length + 1 : undefined),
  });
  const seen = new Set<number>();
  const chats = (list.data?.pages.flatMap((p) => p.records) ?? []).filter((c) => !seen.has(c.id) && seen.add(c.id));
  const scroller = useRef<HTMLDivElement>(null);
  const rows = useVirtualizer({ count: chats.length, getScrollElement: () => scroller.current, estimateSize: () => ROW_ESTIMATE, overscan: 6 });
  const items = rows.getVirtualItems();
  const lastShown = items.at(-1)?.index ?? -1;
  useEffect(() => {
    if (lastShown >= chats.length - 3 && list.hasNextPage && !list.isFetchingNextPage) void list.fetchNextPage();
  }, [lastShown, chats.length, list.hasNextPage, list.isFetchingNextPage, list.fetchNextPage]);

  return (
    <>
      <label className="chats-search">
        <span className="visually-hidden">{t('search')}</span>
        <input type="search" placeholder={t('search')} value={search} onChange={(e) => setSearch(e.target.value)} />
      </label>
      {list.error && <FormError text={errorText(t, list.error)} />}
      {list.isSuccess && chats.length === 0 ? (
        <p className="placeholder">{searchParam ? t('noMatch') : t('empty')}</p>
      ) : (
        <div ref={scroller} className="chats-list-scroll">
          <ul aria-label={t('listLabel')} aria-busy={list.isLoading} className="chats-list" style={{ height: rows.getTotalSize() }}>
            {items.map((item) => {
              const chat = chats[item.index]!;
              const unreads = unreadsOf(chat, me);
              return (
                <li
                  key={chat.id}
                  data-index={item.index}
                  ref={rows.measureElement}
                  className="chats-row"
                  style={{ transform: `translateY(${item.start}px)` }}
                  aria-setsize={list.data?.pages[0]?.count ?? chats.length}
                  aria-posinset={item.index + 1}
                >
                  <Link
                    to="/chats/$chatId"
                    params={{ chatId: String(chat.id) }}
                    className="chats-link"
                    aria-current={chat.id === current ? 'page' : undefined}
                    data-testid={`chat-${chat.id}`}
                  >
                    <span className="chats-row-top">
                      <strong className="chats-title">{chat.title}</strong>
                      <time dateTime={chat.updatedAt} className="muted">
                        {relativeTime(chat.updatedAt, i18n.language)}
                      </time>
                    </span>
                    <span className="chats-row-bottom">
                      <span className="chats-last muted">{chat.lastMessage || t('noMessagesYet')}</span>
                      {unreads > 0 && (
                        <span className="chats-unread">
                          <span aria-hidden="true">{unreads}</span>
                          <span className="visually-hidden">{t('unread', { count: unreads })}</span>
                        </span>
                      )}
                    </span>
                  </Link>
                </li>
              );
            })}
          </ul>
        </div>
      )}
    </>
  );
}

/** One chat: its header (title, members, edit and delete for the owner), its messages as a log, and the composer. */
function ChatPane({ chatId, onNotice }: { chatId: number; onNotice: (text: string) => void }) {
  const { t } = useScreenStrings('chats', strings);
  const { api } = useServices();
  const client = useQueryClient();
  const navigate = useNavigate();
  const me = useSession()?.user.id ?? 0;
  const [editing, setEditing] = useState(false);
  const chat = useQuery({
    queryKey: chatKeys.one(chatId),
    queryFn: () => must(api.GET('/chats/{id}', { params: { path: { id: chatId } } })),
    retry: false,
  });
  const read = useMutation({
    mutationFn: () => must(api.POST('/chats/{id}/read', { params: { path: { id: chatId } } })),
    onSuccess: (updated) => {
      client.setQueryData(chatKeys.one(chatId), updated);
      void client.invalidateQueries({ queryKey: chatKeys.all, predicate: (q) => q.queryKey[1] !== 'one' });
    },
  });
  const unreads = chat.data ? unreadsOf(chat.data, me) : 0;
  // Opening the chat reads it, and so does every message that arrives while it is open (once per
  // state of the chat: a refused read is not asked again until something new arrives).
  const readFor = useRef('');
  const state = chat.data ? `${chat.data.updatedAt}/${unreads}` : '';
  const markRead = read.mutate;
  useEffect(() => {
    if (unreads === 0 || readFor.current === state) return;
    readFor.current = state;
    markRead();
  }, [unreads, state, markRead]);
  const remove = useMutation({
    mutationFn: () => must(api.DELETE('/chats/{id}', { params: { path: { id: chatId } } })),
    onSuccess: () => {
      onNotice(t('deleted', { title: chat.data?.title ?? '' }));
      client.removeQueries({ queryKey: chatKeys.one(chatId) });
      client.removeQueries({ queryKey: chatKeys.messages(chatId) });
      void client.invalidateQueries({ queryKey: chatKeys.all });
      void navigate({ to: '/chats' });
    },
  });

  const back = (
    <Link to="/chats" className="chats-back">
      <span aria-hidden="true">← </span>
      {t('back')}
    </Link>
  );
  if (chat.error) {
    return (
      <div className="chats-chat">
        {back}
        <p className="placeholder" role="alert">
          {codeOf(chat.error) === 'ERR_NO_CHAT_FOUND' ? t('gone') : errorText(t, chat.error)}
        </p>
      </div>
    );
  }
  if (!chat.data) return <div className="chats-chat" aria-busy="true" />;
  const c = chat.data;
  const isOwner = c.ownerId === me;
  const others = c.users.filter((u) => u.userId !== me).map((u) => u.user?.name ?? '');
  return (
    <div className="chats-chat">
      <header className="chats-chat-header">
        {back}
        <div>
          <h2 id="chat-title">{c.title}</h2>
          <p className="muted small-text">
            {others.length > 0 && t('membersLine', { names: others.join(', ') })}
            {c.owner && c.owner.id !== me && ` · ${t('owner', { name: c.owner.name })}`}
          </p>
        </div>
        {isOwner && (
          <div className="row-actions">
            <button type="button" className="small" onClick={() => setEditing(true)}>
              {t('edit')}
            </button>
            <ConfirmButton
              className="small"
              label={t('delete')}
              title={t('deleteTitle', { title: c.title })}
              description={t('deleteBody')}
              confirmLabel={t('delete')}
              disabled={remove.isPending}
              onConfirm={() => remove.mutate()}
            />
          </div>
        )}
      </header>
      {remove.error && <FormError text={errorText(t, remove.error)} />}
      <MessageLog chat={c} me={me} />
      <Composer chatId={chatId} />
      {editing && (
        <ChatDialog
          chat={c}
          close={(saved) => {
            setEditing(false);
            if (saved) onNotice(t('saved', { title: saved.title }));
          }}
        />
      )}
    </div>
  );
}

/**
 * The chat's messages, a log region: page 1 holds the 20 newest, older pages come as the reader
 * scrolls to the top (or asks with the button), the scroll kept where it was. New messages (the
 * frames, one's own sends) keep the view at the bottom when it was there.
 */
function MessageLog({ chat, me }: { chat: Chat; me: number }) {
  const { t, i18n } = useScreenStrings('chats', strings);
  const { api } = useServices();
  const pages = useInfiniteQuery({
    queryKey: chatKeys.messages(chat.id),
    initialPageParam: 1,
    queryFn: ({ pageParam }) => must(api.GET('/chats/{id}/messages', { params: { path: { id: chat.id }, query: { pageNumber: pageParam } } })),
    getNextPageParam: (last, all) => (last.hasMore ? all.length + 1 : undefined),
    // New messages are appended by the frames: a refetch would renumber the pages under the reader.
    staleTime: Number.POSITIVE_INFINITY,
  });
  const seen = new Set<number>();
  // Older pages first; a page fetched after new messages arrived may repeat some: each message once.
  const messages = [...(pages.data?.pages ?? [])]
    .reverse()
    .flatMap((p) => p.records)
    .filter((m) => !seen.has(m.id) && seen.add(m.id));
  const scroller = useRef<HTMLDivElement>(null);
  const atBottom = useRef(true);
  const heightBefore = useRef<number | null>(null);
  const firstId = messages[0]?.id;
  const lastId = messages.at(-1)?.id;
  const lastMine = messages.at(-1)?.senderId === me;

  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when older messages were put above the first one
  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el) return;
    if (heightBefore.current !== null) {
      el.scrollTop += el.scrollHeight - heightBefore.current;
      heightBefore.current = null;
    }
  }, [firstId]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when a message was added at the bottom
  useLayoutEffect(() => {
    const el = scroller.current;
    if (el && (atBottom.current || lastMine)) el.scrollTop = el.scrollHeight;
  }, [lastId, lastMine]);

  const older = () => {
    if (!pages.hasNextPage || pages.isFetchingNextPage) return;
    heightBefore.current = scroller.current?.scrollHeight ?? null;
    void pages.fetchNextPage();
  };
  const onScroll = () => {
    const el = scroller.current;
    if (!el) return;
    atBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < 40;
    if (el.scrollTop < 60) older();
  };

  const others = chat.users.filter((u) => u.userId !== me);
  const readers = others.filter((u) => u.unreads === 0).map((u) => u.user?.name ?? '');
  const readMark =
    !lastMine || others.length === 0
      ? null
      : readers.length === others.length
        ? t('readByAll')
        : readers.length > 0
          ? t('readBy', { names: readers.join(', ') })
          : t('notRead');

  return (
    // Focusable, so the keyboard scrolls it (and so reaches the older messages) as the mouse does.
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard
    <div ref={scroller} className="chats-messages" onScroll={onScroll} tabIndex={0}>
      {pages.hasNextPage && (
        <button type="button" className="small chats-older" onClick={older} disabled={pages.isFetchingNextPage}>
          {pages.isFetchingNextPage ? t('loadingOlder') : t('older')}
        </button>
      )}
      {pages.error && <FormError text={errorText(t, pages.error)} />}
      <div role="log" aria-label={t('messages', { title: chat.title })} aria-busy={pages.isLoading}>
        <ol className="chats-log">
          {messages.map((m) => (
            <MessageItem key={m.id} message={m} mine={m.senderId === me} language={i18n.language} you={t('you')} />
          ))}
        </ol>
      </div>
      {pages.isSuccess && messages.length === 0 && <p className="placeholder">{t('noMessagesYet')}</p>}
      {readMark && (
        <p className="chats-read-mark muted small-text" data-testid="chat-read-mark">
          {readMark}
        </p>
      )}
    </div>
  );
}

function MessageItem({ message, mine, language, you }: { message: ChatMessage; mine: boolean; language: string; you: string }) {
  return (
    <li className="chats-message" data-mine={mine}>
      <span className="chats-sender">{mine ? you : message.sender.name || '—'}</span>
      {message.mediaPath ? (
        <a href={message.mediaPath} target="_blank" rel="noreferrer">
          {message.mediaName ?? message.message}
        </a>
      ) : null}
      {(!message.mediaPath || message.message !== message.mediaName) && <span className="chats-text">{message.message}</span>}
      <time dateTime={message.createdAt} className="muted small-text">
        {timeOfDay(message.createdAt, language)}
      </time>
    </li>
  );
}

/**
 * The composer: Enter sends, Shift+Enter starts a new line. One send at a time: a second Enter
 * while one is on its way does nothing (the flag is checked before React re-renders), so a double
 * Enter sends once. The sent message is shown at once; its frame finds it already there.
 * Files go with the text as multipart `medias` (one message each, the text as the first one's
 * caption) over XMLHttpRequest, whose upload reports progress and can be cancelled while the body
 * is still going out; a cancelled or refused send keeps the text and the files.
 */
function Composer({ chatId }: { chatId: number }) {
  const { t } = useScreenStrings('chats', strings);
  const { api, session } = useServices();
  const client = useQueryClient();
  const hintId = useId();
  const fileInput = useRef<HTMLInputElement>(null);
  const [text, setText] = useState('');
  const [files, setFiles] = useState<File[]>([]);
  const [progress, setProgress] = useState<number | null>(null);
  const [cancelled, setCancelled] = useState(false);
  const upload = useRef<AbortController | null>(null);
  const busy = useRef(false);
  const send = useMutation({
    mutationFn: async ({ message, attached }: { message: string; attached: File[] }) => {
      if (!attached.length) return must(api.POST('/chats/{id}/messages', { params: { path: { id: chatId } }, body: { message } }));
      const form = new FormData();
      if (message.trim()) form.set('message', message);
      for (const file of attached) form.append('medias', file, file.name);
      const control = new AbortController();
      upload.current = control;
      setProgress(0);
      return must(
        api.POST('/chats/{id}/messages', {
          params: { path: { id: chatId } },
          body: form as never,
          bodySerializer: (b: unknown) => b as FormData,
          fetch: authedFetch(session, uploadTransport({ signal: control.signal, progress: setProgress })),
        }),
      );
    },
    onSuccess: (message) => {
      appendChatMessage(client, message);
      setText('');
      setFiles([]);
      void client.invalidateQueries({ queryKey: chatKeys.all });
    },
    onError: (err) => setCancelled(err instanceof UploadCancelled),
    onSettled: () => {
      busy.current = false;
      upload.current = null;
      setProgress(null);
    },
  });
  const submit = () => {
    if (busy.current || (text.trim() === '' && files.length === 0)) return;
    busy.current = true;
    setCancelled(false);
    send.mutate({ message: text, attached: files });
  };
  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      submit();
    }
  };
  const refusal = send.error && !(send.error instanceof UploadCancelled) ? errorText(t, send.error) : null;
  return (
    <form
      className="chats-composer"
      onSubmit={(e: FormEvent) => {
        e.preventDefault();
        submit();
      }}
    >
      <label htmlFor={`${hintId}-input`} className="visually-hidden">
        {t('message')}
      </label>
      <textarea
        id={`${hintId}-input`}
        aria-describedby={hintId}
        rows={2}
        value={text}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={onKeyDown}
        readOnly={send.isPending}
        placeholder={t('message')}
      />
      <span id={hintId} className="visually-hidden">
        {t('composerHint')}
      </span>
      <span className="chats-composer-buttons">
        <input
          ref={fileInput}
          type="file"
          multiple
          hidden
          tabIndex={-1}
          aria-hidden="true"
          onChange={(e) => {
            const chosen = [...(e.target.files ?? [])];
            // The same file chosen twice is sent once.
            const id = (f: File) => `${f.name}-${f.size}-${f.lastModified}`;
            if (chosen.length) setFiles((now) => [...now, ...chosen.filter((f) => !now.some((n) => id(n) === id(f)))]);
            e.target.value = '';
          }}
        />
        <button type="button" onClick={() => fileInput.current?.click()} disabled={send.isPending}>
          {t('attach')}
        </button>
        <button type="submit" className="primary" disabled={send.isPending || (text.trim() === '' && files.length === 0)}>
          {send.isPending ? t('sending') : t('send')}
        </button>
      </span>
      {files.length > 0 && (
        <ul className="chats-files" aria-label={t('files')}>
          {files.map((file) => (
            <li key={`${file.name}-${file.size}-${file.lastModified}`}>
              <span className="chats-file-name">{file.name}</span>
              <button
                type="button"
                className="small"
                aria-label={t('removeFile', { name: file.name })}
                disabled={send.isPending}
                onClick={() => setFiles((now) => now.filter((f) => f !== file))}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
      <p role="status" className="chats-upload muted small-text">
        {progress !== null ? t('uploading', { percent: Math.round(progress * 100) }) : cancelled ? t('uploadCancelled') : ''}
      </p>
      {progress !== null && (
        <span className="chats-upload-bar">
          <progress value={progress} max={1} aria-label={t('uploading', { percent: Math.round(progress * 100) })} />
          <button type="button" className="small" onClick={() => upload.current?.abort()}>
            {t('cancelUpload')}
          </button>
        </span>
      )}
      {refusal && <FormError text={refusal} />}
    </form>
  );
}

/** Creating a chat, or editing its title and members (the owner alone: the server refuses anyone else). */
function ChatDialog({ chat, close }: { chat: Chat | null; close: (saved: Chat | null) => void }) {
  const { t } = useScreenStrings('chats', strings);
  const { api } = useServices();
  const client = useQueryClient();
  const me = useSession()?.user.id ?? 0;
  const [title, setTitle] = useState(chat?.title ?? '');
  const [members, setMembers] = useState<Set<number>>(new Set(chat?.users.map((u) => u.userId).filter((id) => id !== me) ?? []));
  const users = useQuery({ queryKey: ['users', 'chat-members'], queryFn: () => must(api.GET('/users/list')) });
  const save = useMutation({
    mutationFn: () => {
      const body = { title: title.trim(), users: [...members].map((id) => ({ id })) };
      return chat ? must(api.PUT('/chats/{id}', { params: { path: { id: chat.id } }, body })) : must(api.POST('/chats', { body }));
    },
    onSuccess: (saved) => {
      client.setQueryData(chatKeys.one(saved.id), saved);
      void client.invalidateQueries({ queryKey: chatKeys.all });
      close(saved);
    },
  });
  const refusal = refusalOf<ChatField>(t, save.error, FIELD_OF);
  const toggle = (id: number, on: boolean) =>
    setMembers((now) => {
      const next = new Set(now);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  const candidates = (users.data ?? []).filter((u) => u.id !== me);
  const membersId = useId();
  return (
    <Dialog.Root open onOpenChange={(open) => !open && close(null)}>
      <Dialog.Portal>
        <Dialog.Overlay className="overlay" />
        <Dialog.Content className="dialog">
          <Dialog.Title>{chat ? t('editTitle', { title: chat.title }) : t('addTitle')}</Dialog.Title>
          <Dialog.Description className="muted">{t('dialogIntro')}</Dialog.Description>
          <form
            className="form"
            noValidate
            onSubmit={(e) => {
              e.preventDefault();
              save.mutate();
            }}
          >
            <Field label={t('chatTitle')} error={refusal.byField.title}>
              {(p) => <input {...p} value={title} onChange={(e) => setTitle(e.target.value)} autoComplete="off" required maxLength={255} />}
            </Field>
            <fieldset className="chats-members" aria-describedby={refusal.byField.users ? `${membersId}-error` : undefined}>
              <legend>{t('members')}</legend>
              {users.isSuccess && candidates.length === 0 && <p className="muted">{t('noOthers')}</p>}
              {candidates.map((u) => (
                <label key={u.id} className="check">
                  <input type="checkbox" checked={members.has(u.id)} onChange={(e) => toggle(u.id, e.target.checked)} />
                  {u.name}
                </label>
              ))}
              {refusal.byField.users && (
                <span id={`${membersId}-error`} className="form-error" role="alert">
                  {refusal.byField.users}
                </span>
              )}
            </fieldset>
            <FormError text={refusal.form} />
            <div className="dialog-buttons">
              <Dialog.Close asChild>
                <button type="button">{t('actions.cancel')}</button>
              </Dialog.Close>
              <button type="submit" className="primary" disabled={save.isPending}>
                {t('save')}
              </button>
            </div>
          </form>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
