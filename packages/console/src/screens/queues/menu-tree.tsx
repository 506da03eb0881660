import { byMenuOrder, menuText } from '@servicedesk/core/queues/queue-option';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Dialog } from 'radix-ui';
import { type FormEvent, useEffect, useState } from 'react';
import { must, type Schema } from '../../api/client.js';
import { useScreenStrings } from '../../i18n/screen-strings.js';
import { keys } from '../../realtime/apply-frame.js';
import { useServices } from '../../services.js';
import { errorText } from '../../ui/errors.js';
import { ConfirmButton, Field, FormError, refusalOf } from '../../ui/form.js';
import { useUserNames } from './data.js';
import { strings } from './strings.js';

type Queue = Schema<'QueueWithUsers'>;
type ChatbotTree = Schema<'ChatbotTree'>;

/** A node of either menu as the tree shows it: a queue option, or a chatbot under its own names. */
export interface MenuNode {
  readonly id: number;
  readonly parentId: number | null;
  readonly option: string;
  readonly title: string;
  readonly message: string | null;
  readonly forwardQueueId: number | null;
  readonly forwardUserId: number | null;
  readonly closeTicket: boolean;
}

/** What the form edits of a node. */
type NodeFields = Pick<MenuNode, 'title' | 'message' | 'forwardQueueId' | 'forwardUserId' | 'closeTicket'> & { option?: string };

/** How one menu is written: the queue options (`/queue-options`) or the chatbots (`/chatbot`). */
interface MenuWriter {
  create(parentId: number | null, fields: NodeFields): Promise<unknown>;
  update(id: number, fields: Partial<NodeFields>): Promise<unknown>;
  remove(id: number): Promise<unknown>;
}

/** The refusals of the option and chatbot routes that name a field of the node's form. */
const FIELD_OF = {
  ERR_INVALID_QUEUE_OPTION_TITLE: 'title',
  ERR_QUEUE_OPTION_MESSAGE_TOO_LONG: 'message',
  ERR_INVALID_QUEUE_OPTION_KEY: 'option',
  ERR_QUEUE_OPTION_ALREADY_EXISTS: 'option',
  ERR_QUEUE_OPTION_ONE_ACTION: 'action',
  ERR_NO_USER_FOUND: 'action',
  ERR_QUEUE_NOT_FOUND: 'action',
} as const;
type NodeField = (typeof FIELD_OF)[keyof typeof FIELD_OF];

function flattenChatbots(trees: readonly ChatbotTree[]): MenuNode[] {
  return trees.flatMap((c) => [
    {
      id: c.id,
      parentId: c.chatbotId,
      option: c.option,
      title: c.name,
      message: c.greetingMessage,
      forwardQueueId: c.forwardQueueId,
      forwardUserId: c.forwardUserId,
      closeTicket: c.closeTicket,
    },
    ...flattenChatbots(c.options),
  ]);
}

/** A chatbot's body: the node's fields under the chatbot routes' names. */
function chatbotBody(fields: Partial<NodeFields>) {
  const { title, message, ...rest } = fields;
  return { ...rest, ...(title !== undefined ? { name: title } : {}), ...(message !== undefined ? { greetingMessage: message } : {}) };
}

/**
 * A queue's two menus, edited as trees, and what a contact sees: queue options and chatbots are
 * nodes of one menu per queue (siblings of both kinds share a level and its keys), written through
 * their own routes. Neither route sends a frame, so each save refetches them here; a `queue` frame
 * (another admin's queue change) refetches them too, since they sit under the queues' key.
 */
export function QueueMenus({ queue, queues }: { queue: Queue; queues: readonly Queue[] }) {
  const { t } = useScreenStrings('queues', strings);
  const { api } = useServices();
  const client = useQueryClient();
  const options = useQuery({
    queryKey: [...keys.queues, 'options', queue.id],
    queryFn: () => must(api.GET('/queue-options', { params: { query: { queueId: queue.id } } })),
  });
  const optionNodes: MenuNode[] = options.data ?? [];
  const chatbotNodes = flattenChatbots(queue.chatbots);
  const refresh = () => client.invalidateQueries({ queryKey: keys.queues });

  const optionWriter: MenuWriter = {
    create: (parentId, fields) => must(api.POST('/queue-options', { body: { queueId: queue.id, parentId, ...fields } })),
    update: (id, fields) => must(api.PUT('/queue-options/{queueOptionId}', { params: { path: { queueOptionId: id } }, body: fields })),
    remove: (id) => must(api.DELETE('/queue-options/{queueOptionId}', { params: { path: { queueOptionId: id } } })),
  };
  const chatbotWriter: MenuWriter = {
    create: (parentId, fields) => must(api.POST('/chatbot', { body: { queueId: queue.id, chatbotId: parentId, ...chatbotBody(fields) } })),
    update: (id, fields) => must(api.PUT('/chatbot/{chatbotId}', { params: { path: { chatbotId: id } }, body: chatbotBody(fields) })),
    remove: (id) => must(api.DELETE('/chatbot/{chatbotId}', { params: { path: { chatbotId: id } } })),
  };

  return (
    <section className="queue-menus" aria-labelledby="queue-menus-title">
      <h2 id="queue-menus-title">{t('menusTitle', { name: queue.name })}</h2>
      <p className="muted">{t('menusIntro')}</p>
      {options.error && <FormError text={errorText(t, options.error)} />}
      <div className="queue-menus-grid">
        <MenuTree kind="options" nodes={optionNodes} writer={optionWriter} queues={queues} refresh={refresh} />
        <MenuTree kind="chatbots" nodes={chatbotNodes} writer={chatbotWriter} queues={queues} refresh={refresh} />
        <MenuPreview queue={queue} nodes={[...optionNodes, ...chatbotNodes]} queues={queues} />
      </div>
    </section>
  );
}

/** One menu as nested lists: each node's buttons are named after it; moving keeps the focus on the moved node's button. */
function MenuTree(props: {
  kind: 'options' | 'chatbots';
  nodes: readonly MenuNode[];
  writer: MenuWriter;
  queues: readonly Queue[];
  refresh: () => Promise<void>;
}) {
  const { t } = useScreenStrings('queues', strings);
  const { kind, nodes, writer, refresh } = props;
  const [editing, setEditing] = useState<{ node: MenuNode | null; parentId: number | null } | null>(null);
  const [focusAfter, setFocusAfter] = useState<string | null>(null);
  const [notice, setNotice] = useState('');
  const users = useUserNames();
  const userName = (id: number) => users.data?.find((u) => u.id === id)?.name ?? `#${id}`;
  const headingId = `menu-${kind}-title`;

  const childrenOf = (parentId: number | null) => nodes.filter((n) => n.parentId === parentId).sort(byMenuOrder);

  /** Swaps the keys of two siblings (menu order is key order) through a free placeholder key, since keys are unique among siblings. */
  const move = useMutation({
    mutationFn: async ({ node, other }: { node: MenuNode; other: MenuNode; dir: 'up' | 'down' }) => {
      await writer.update(node.id, { option: `~${node.id}` });
      await writer.update(other.id, { option: node.option });
      await writer.update(node.id, { option: other.option });
    },
    onSettled: () => refresh(),
    onSuccess: (_, { node, dir }) => {
      setNotice(t(dir === 'up' ? 'movedUp' : 'movedDown', { title: node.title }));
      setFocusAfter(`${dir}-${node.id}`);
    },
  });
  const remove = useMutation({
    mutationFn: (node: MenuNode) => writer.remove(node.id),
    onSuccess: (_, node) => {
      setNotice(t('nodeDeleted', { title: node.title }));
      void refresh();
    },
  });

  // After a move and the refetch that follows it, the focus goes back to the moved node's button (or its other move button at an end).
  useEffect(() => {
    if (!focusAfter) return;
    const [dir, id] = focusAfter.split('-');
    const root = document.getElementById(headingId)?.parentElement;
    const button = root?.querySelector<HTMLButtonElement>(`[data-focus="${dir}-${id}"]`);
    const fallback = root?.querySelector<HTMLButtonElement>(`[data-focus="${dir === 'up' ? 'down' : 'up'}-${id}"]`);
    const target = button && !button.disabled ? button : fallback;
    if (target && !target.disabled) {
      target.focus();
      setFocusAfter(null);
    }
  });

  const renderLevel = (parentId: number | null, depth: number) => {
    const level = childrenOf(parentId);
    if (level.length === 0) return null;
    return (
      <ul className="menu-tree-level" {...(depth === 0 ? { 'aria-labelledby': headingId } : {})}>
        {level.map((node, i) => (
          <li key={node.id} data-testid={`node-${node.id}`}>
            <div className="menu-node">
              <span className="menu-node-label">
                <span className="menu-key">{node.option}</span> {node.title}
                <span className="menu-node-action muted">{actionText(t, node, props.queues, userName)}</span>
              </span>
              <span className="menu-node-buttons">
                <button
                  type="button"
                  className="small"
                  aria-label={t('addUnder', { title: node.title })}
                  onClick={() => setEditing({ node: null, parentId: node.id })}
                >
                  {t('addChild')}
                </button>
                <button
                  type="button"
                  className="small"
                  aria-label={t('editNode', { title: node.title })}
                  onClick={() => setEditing({ node, parentId: node.parentId })}
                >
                  {t('list.edit')}
                </button>
                <button
                  type="button"
                  className="small"
                  data-focus={`up-${node.id}`}
                  aria-label={t('moveUp', { title: node.title })}
                  disabled={i === 0 || move.isPending}
                  onClick={() => move.mutate({ node, other: level[i - 1]!, dir: 'up' })}
                >
                  ↑
                </button>
                <button
                  type="button"
                  className="small"
                  data-focus={`down-${node.id}`}
                  aria-label={t('moveDown', { title: node.title })}
                  disabled={i === level.length - 1 || move.isPending}
                  onClick={() => move.mutate({ node, other: level[i + 1]!, dir: 'down' })}
                >
                  ↓
                </button>
                <ConfirmButton
                  className="small"
                  label={t('list.delete')}
                  title={t('deleteNodeTitle', { title: node.title })}
                  description={t('deleteNodeBody')}
                  confirmLabel={t('list.delete')}
                  disabled={remove.isPending}
                  onConfirm={() => remove.mutate(node)}
                />
              </span>
            </div>
            {renderLevel(node.id, depth + 1)}
          </li>
        ))}
      </ul>
    );
  };

  return (
    <section className="menu-tree" aria-labelledby={headingId}>
      <h3 id={headingId}>{t(`${kind}.title`)}</h3>
      <p className="muted small-text">{t(`${kind}.intro`)}</p>
      <p className="visually-hidden" role="status">
        {notice}
      </p>
      {move.error && <FormError text={errorText(t, move.error)} />}
      {remove.error && <FormError text={errorText(t, remove.error)} />}
      {nodes.length === 0 ? <p className="placeholder">{t(`${kind}.empty`)}</p> : renderLevel(null, 0)}
      <button type="button" onClick={() => setEditing({ node: null, parentId: null })}>
        {t(`${kind}.add`)}
      </button>
      {editing && (
        <NodeDialog
          kind={kind}
          node={editing.node}
          parent={nodes.find((n) => n.id === editing.parentId) ?? null}
          writer={writer}
          queues={props.queues}
          close={(saved) => {
            setEditing(null);
            if (saved) {
              setNotice(t('nodeSaved', { title: saved }));
              void refresh();
            }
          }}
        />
      )}
    </section>
  );
}

function actionText(t: ReturnType<typeof useScreenStrings>['t'], node: MenuNode, queues: readonly Queue[], userName: (id: number) => string): string {
  if (node.forwardQueueId !== null) return t('actionQueueTo', { name: queues.find((q) => q.id === node.forwardQueueId)?.name ?? `#${node.forwardQueueId}` });
  if (node.forwardUserId !== null) return t('actionUserTo', { name: userName(node.forwardUserId) });
  if (node.closeTicket) return t('actionClosed');
  return '';
}

type Action = 'menu' | 'queue' | 'user' | 'close';

/** Adding or editing one node: its key, menu line, message and at most one action. */
function NodeDialog(props: {
  kind: 'options' | 'chatbots';
  node: MenuNode | null;
  parent: MenuNode | null;
  writer: MenuWriter;
  queues: readonly Queue[];
  close: (savedTitle: string | null) => void;
}) {
  const { t } = useScreenStrings('queues', strings);
  const { node, parent, writer } = props;
  const users = useUserNames();
  const [title, setTitle] = useState(node?.title ?? '');
  const [option, setOption] = useState(node?.option ?? '');
  const [message, setMessage] = useState(node?.message ?? '');
  const [action, setAction] = useState<Action>(
    node?.forwardQueueId != null ? 'queue' : node?.forwardUserId != null ? 'user' : node?.closeTicket ? 'close' : 'menu',
  );
  const [queueId, setQueueId] = useState(node?.forwardQueueId ? String(node.forwardQueueId) : '');
  const [userId, setUserId] = useState(node?.forwardUserId ? String(node.forwardUserId) : '');

  const save = useMutation({
    mutationFn: () => {
      const fields: NodeFields = {
        title,
        message: message.trim() === '' ? null : message,
        forwardQueueId: action === 'queue' && queueId ? Number(queueId) : null,
        forwardUserId: action === 'user' && userId ? Number(userId) : null,
        closeTicket: action === 'close',
        ...(option.trim() !== '' ? { option: option.trim() } : {}),
      };
      return node ? writer.update(node.id, fields) : writer.create(parent?.id ?? null, fields);
    },
    onSuccess: () => props.close(title.trim()),
  });
  const refusal = refusalOf<NodeField | 'name' | 'greetingMessage'>(t, save.error, FIELD_OF);
  const titleError = refusal.byField.title ?? refusal.byField.name;
  const messageError = refusal.byField.message ?? refusal.byField.greetingMessage;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate();
  };
  const heading = node ? t('editNodeTitle', { title: node.title }) : parent ? t('addUnderTitle', { title: parent.title }) : t(`${props.kind}.add`);

  return (
    <Dialog.Root open onOpenChange={(open) => !open && props.close(null)}>
      <Dialog.Portal>
        <Dialog.Overlay className="overlay" />
        <Dialog.Content className="dialog">
          <Dialog.Title>{heading}</Dialog.Title>
          <Dialog.Description className="visually-hidden">{t(`${props.kind}.intro`)}</Dialog.Description>
          <form className="form" onSubmit={submit} noValidate>
            <Field label={t('nodeTitle')} error={titleError}>
              {(p) => <input {...p} value={title} onChange={(e) => setTitle(e.target.value)} autoComplete="off" required />}
            </Field>
            <Field label={t('nodeKey')} error={refusal.byField.option} hint={t('nodeKeyHint')}>
              {(p) => <input {...p} value={option} onChange={(e) => setOption(e.target.value)} autoComplete="off" />}
            </Field>
            <Field label={t('nodeMessage')} error={messageError} hint={t('nodeMessageHint')}>
              {(p) => <textarea {...p} rows={3} value={message} onChange={(e) => setMessage(e.target.value)} />}
            </Field>
            <Field label={t('nodeAction')} error={refusal.byField.action}>
              {(p) => (
                <select {...p} value={action} onChange={(e) => setAction(e.target.value as Action)}>
                  <option value="menu">{t('actionMenu')}</option>
                  <option value="queue">{t('actionQueue')}</option>
                  <option value="user">{t('actionUser')}</option>
                  <option value="close">{t('actionClose')}</option>
                </select>
              )}
            </Field>
            {action === 'queue' && (
              <Field label={t('forwardQueue')}>
                {(p) => (
                  <select {...p} value={queueId} onChange={(e) => setQueueId(e.target.value)}>
                    <option value="">{t('choose')}</option>
                    {props.queues.map((q) => (
                      <option key={q.id} value={q.id}>
                        {q.name}
                      </option>
                    ))}
                  </select>
                )}
              </Field>
            )}
            {action === 'user' && (
              <Field label={t('forwardUser')}>
                {(p) => (
                  <select {...p} value={userId} onChange={(e) => setUserId(e.target.value)}>
                    <option value="">{t('choose')}</option>
                    {(users.data ?? []).map((u) => (
                      <option key={u.id} value={u.id}>
                        {u.name}
                      </option>
                    ))}
                  </select>
                )}
              </Field>
            )}
            <FormError text={refusal.form} />
            <div className="dialog-buttons">
              <Dialog.Close asChild>
                <button type="button">{t('actions.cancel')}</button>
              </Dialog.Close>
              <button type="submit" className="primary" disabled={save.isPending}>
                {t('list.save')}
              </button>
            </div>
          </form>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

/**
 * What a contact is sent, built by core's own `menuText` and `byMenuOrder` (what the queue router
 * sends): on entering the queue, then after picking each node. The assistant (a prompt) or an
 * empty menu replace the menu as the router does.
 */
function MenuPreview({ queue, nodes, queues }: { queue: Queue; nodes: readonly MenuNode[]; queues: readonly Queue[] }) {
  const { t } = useScreenStrings('queues', strings);
  const users = useUserNames();
  const under = (parentId: number | null) => nodes.filter((n) => n.parentId === parentId).sort(byMenuOrder);
  const roots = under(null);
  const entering =
    queue.promptId !== null
      ? [queue.greetingMessage, t('previewAssistant')]
      : roots.length === 0
        ? [queue.greetingMessage, t('previewHandOver')]
        : [menuText(queue.greetingMessage, roots)];
  const after = (node: MenuNode): Array<string | null> => {
    const children = under(node.id);
    if (node.forwardQueueId !== null)
      return [node.message, t('previewToQueue', { name: queues.find((q) => q.id === node.forwardQueueId)?.name ?? `#${node.forwardQueueId}` })];
    if (node.forwardUserId !== null)
      return [node.message, t('previewToUser', { name: users.data?.find((u) => u.id === node.forwardUserId)?.name ?? `#${node.forwardUserId}` })];
    if (node.closeTicket) return [node.message, t('previewClosed')];
    if (children.length === 0) return [node.message, t('previewHandOver')];
    return [menuText(node.message, children)];
  };
  const walk = (list: readonly MenuNode[], path: string): Array<{ node: MenuNode; path: string }> =>
    list.flatMap((n) => [{ node: n, path: `${path}${n.option}` }, ...walk(under(n.id), `${path}${n.option} › `)]);

  return (
    <section className="menu-preview" aria-labelledby="menu-preview-title">
      <h3 id="menu-preview-title">{t('previewTitle')}</h3>
      <PreviewStep caption={t('previewEntering')} lines={entering} />
      {queue.promptId === null &&
        walk(roots, '').map(({ node, path }) => <PreviewStep key={node.id} caption={t('previewAfter', { path, title: node.title })} lines={after(node)} />)}
    </section>
  );
}

/** One exchange: the bot's message as sent (`*1* - ...`), and what the router does next in words. */
function PreviewStep({ caption, lines }: { caption: string; lines: ReadonlyArray<string | null> }) {
  const [sent, ...notes] = lines;
  return (
    <figure className="preview-step">
      <figcaption>{caption}</figcaption>
      {sent ? <pre className="preview-bubble">{sent}</pre> : null}
      {notes.map((n) => (
        <p key={n} className="muted small-text">
          {n}
        </p>
      ))}
    </figure>
  );
}
