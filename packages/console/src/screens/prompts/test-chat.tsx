import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { must, type Schema } from '../../api/client.js';
import { useScreenStrings } from '../../i18n/screen-strings.js';
import { keys } from '../../realtime/apply-frame.js';
import { useServices } from '../../services.js';
import { FormDialog } from '../../ui/admin-screen.js';
import { Field, refusalOf } from '../../ui/form.js';
import type { Prompt } from './prompt.js';
import { strings } from './strings.js';

type Answer = Schema<'AiAgentChat'>;

interface Turn {
  readonly role: 'user' | 'assistant';
  readonly content: string;
  readonly answer?: Answer;
}

/** The most turns the test route takes: the oldest are left out beyond it. */
const MAX_TURNS = 50;

/**
 * A test conversation with a saved assistant (`POST /flowBuilder/ai-agent/config-chat` with its
 * id): the admin writes as a contact, the assistant answers with its saved instructions, model and
 * key; a hand-over is said in words with its queue. Nothing reaches a contact; the tokens count,
 * so the list is read again after each answer.
 */
export function TestChat({ prompt, close }: { prompt: Prompt; close: () => void }) {
  const { t, i18n } = useScreenStrings('prompts', strings);
  const { api } = useServices();
  const client = useQueryClient();
  const [turns, setTurns] = useState<Turn[]>([]);
  const [text, setText] = useState('');
  const logRef = useRef<HTMLOListElement>(null);
  const numbers = new Intl.NumberFormat(i18n.language);
  const seconds = new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 1 });

  const send = useMutation({
    mutationFn: (content: string) => {
      const messages = [...turns, { role: 'user' as const, content }]
        .filter((m) => m.content.trim() !== '')
        .slice(-MAX_TURNS)
        .map((m) => ({ role: m.role, content: m.content }));
      return must(api.POST('/flowBuilder/ai-agent/config-chat', { body: { promptId: prompt.id, messages } }));
    },
    onSuccess: (answer, content) => {
      setTurns((known) => [...known, { role: 'user', content }, { role: 'assistant', content: answer.reply, answer }]);
      setText('');
      void client.invalidateQueries({ queryKey: keys.prompts });
    },
  });
  useEffect(() => {
    if (turns.length) logRef.current?.lastElementChild?.scrollIntoView({ block: 'nearest' });
  }, [turns]);
  const refusal = refusalOf(t, send.error);
  const queue = prompt.queue ? prompt.queue.name : t('noQueue');
  /** What the status region reads out after an answer: the answer, and the hand-over when there is one. */
  const spoken = (turn: Turn | undefined) => (turn?.answer ? [turn.content, turn.answer.handoff ? t('handoff', { queue }) : ''].filter(Boolean).join(' ') : '');

  return (
    <FormDialog
      className="prompt-chat"
      title={t('chatTitle', { name: prompt.name })}
      description={t('chatIntro')}
      hideDescription={false}
      submitLabel={t('send')}
      onSubmit={() => {
        if (text.trim() && !send.isPending) send.mutate(text.trim());
      }}
      onClose={close}
      pending={send.isPending}
      error={refusal.form}
    >
      {turns.length === 0 ? (
        <p className="placeholder">{t('chatEmpty')}</p>
      ) : (
        <ol className="prompt-chat-log" aria-label={t('chatLog')} ref={logRef}>
          {turns.map((turn, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: the turns only grow, in order.
            <li key={i} className={`prompt-turn ${turn.role}`}>
              <span className="prompt-turn-who">{turn.role === 'user' ? t('you') : t('assistant')}</span>
              {turn.content && <span className="prompt-turn-text">{turn.content}</span>}
              {turn.answer?.handoff && <span className="prompt-turn-handoff">{t('handoff', { queue })}</span>}
              {turn.answer && (
                <span className="muted small-text">
                  {t('usage', { total: numbers.format(turn.answer.usage.totalTokens), seconds: seconds.format(turn.answer.latencyMs / 1000) })}
                </span>
              )}
            </li>
          ))}
        </ol>
      )}
      <p className="visually-hidden" role="status">
        {send.isPending ? t('thinking') : spoken(turns.at(-1))}
      </p>
      <Field label={t('message')}>
        {(p) => (
          <textarea
            {...p}
            rows={2}
            value={text}
            onChange={(e) => setText(e.target.value)}
            maxLength={4000}
            onKeyDown={(e) => {
              if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
                e.preventDefault();
                e.currentTarget.form?.requestSubmit();
              }
            }}
          />
        )}
      </Field>
      {turns.length > 0 && (
        <button type="button" className="small prompt-chat-restart" onClick={() => setTurns([])} disabled={send.isPending}>
          {t('restart')}
        </button>
      )}
    </FormDialog>
  );
}
