import { HANDOVER_PHRASE } from '@servicedesk/core/prompts/prompt-answer';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import { must } from '../../api/client.js';
import { useScreenStrings } from '../../i18n/screen-strings.js';
import { keys } from '../../realtime/apply-frame.js';
import { useServices } from '../../services.js';
import { FormDialog } from '../../ui/admin-screen.js';
import { Field, FormError, refusalOf } from '../../ui/form.js';
import type { Prompt } from './prompt.js';
import { strings } from './strings.js';

type Provider = Prompt['provider'];
const PROVIDERS: readonly Provider[] = ['openai', 'openai-compatible'];

/** The refusals of the prompt and model routes that name a field of the form. */
const FIELD_OF = {
  ERR_PROMPT_INVALID_NAME: 'name',
  ERR_PROMPT_INVALID_INSTRUCTIONS: 'prompt',
  ERR_PROMPT_INVALID_MAX_MESSAGES: 'maxMessages',
  ERR_PROMPT_INVALID_MAX_TOKENS: 'maxTokens',
  ERR_PROMPT_INVALID_TEMPERATURE: 'temperature',
  ERR_PROMPT_MODEL_NOT_ALLOWED: 'model',
  ERR_PROMPT_INVALID_BASE_URL: 'baseUrl',
  ERR_URL_NOT_ALLOWED: 'baseUrl',
  ERR_PROMPT_INVALID_API_KEY: 'apiKey',
  ERR_PROMPT_API_KEY_REQUIRED: 'apiKey',
  ERR_PROMPT_API_KEY_UNREADABLE: 'apiKey',
  ERR_PROMPT_QUEUE_REQUIRED: 'queueId',
  ERR_QUEUE_NOT_FOUND: 'queueId',
} as const;
type PromptField = (typeof FIELD_OF)[keyof typeof FIELD_OF];

/** A number field as typed: empty is left out (the default, or what is saved), anything else sent for the server to judge. */
function numberField(raw: string): number | string | undefined {
  const text = raw.trim();
  if (text === '') return undefined;
  const n = Number(text);
  return Number.isFinite(n) ? n : text;
}

/**
 * Creating or editing an assistant. The key is write-only: empty keeps the saved one, "Remove the
 * saved key" sends null. "Suggest better instructions" asks the model for a rewrite, shown beside
 * the instructions to use or leave. Refusals at their fields, nothing typed lost.
 */
export function PromptDialog({ prompt, close }: { prompt: Prompt | null; close: (saved: Prompt | null) => void }) {
  const { t } = useScreenStrings('prompts', strings);
  const { api } = useServices();
  const client = useQueryClient();
  const proposalId = useId();
  const [name, setName] = useState(prompt?.name ?? '');
  const [queueId, setQueueId] = useState(prompt?.queueId ? String(prompt.queueId) : '');
  const [provider, setProvider] = useState<Provider>(prompt?.provider ?? 'openai');
  const [baseUrl, setBaseUrl] = useState(prompt?.provider === 'openai-compatible' ? prompt.baseUrl : '');
  const [model, setModel] = useState(prompt?.model ?? '');
  const [apiKey, setApiKey] = useState('');
  const [removeKey, setRemoveKey] = useState(false);
  const [temperature, setTemperature] = useState(prompt ? String(prompt.temperature) : '');
  const [maxTokens, setMaxTokens] = useState(prompt ? String(prompt.maxTokens) : '');
  const [maxMessages, setMaxMessages] = useState(prompt ? String(prompt.maxMessages) : '');
  const [instructions, setInstructions] = useState(prompt?.prompt ?? '');
  const [goal, setGoal] = useState('');
  const [proposal, setProposal] = useState<string | null>(null);
  const [proposalNotice, setProposalNotice] = useState('');
  const proposalRef = useRef<HTMLElement>(null);

  const queues = useQuery({ queryKey: keys.queues, queryFn: () => must(api.GET('/queue')) });
  const options = useQuery({ queryKey: [...keys.prompts, 'options'], queryFn: () => must(api.GET('/flowBuilder/ai-agent/options')) });
  const models = options.data?.models ?? [];
  const modelChoices = model && !models.includes(model) ? [model, ...models] : models;
  const defaults = options.data?.defaults;
  // A new prompt starts on the server's defaults once they are known (the fields stay the user's after).
  useEffect(() => {
    if (prompt || !defaults) return;
    setModel((m) => m || defaults.model || '');
    setTemperature((v) => v || String(defaults.temperature));
    setMaxTokens((v) => v || String(defaults.maxTokens));
    setMaxMessages((v) => v || String(defaults.maxMessages));
  }, [prompt, defaults]);

  const save = useMutation({
    mutationFn: () => {
      const numbers = Object.fromEntries(
        Object.entries({ temperature, maxTokens, maxMessages }).flatMap(([k, v]) => {
          const n = numberField(v);
          return n === undefined ? [] : [[k, n]];
        }),
      );
      const body = {
        name,
        prompt: instructions,
        queueId: queueId ? Number(queueId) : null,
        provider,
        baseUrl: provider === 'openai-compatible' ? baseUrl.trim() : null,
        ...(model ? { model } : {}),
        ...(removeKey ? { apiKey: null } : apiKey.trim() ? { apiKey: apiKey.trim() } : {}),
        ...numbers,
      };
      return prompt ? must(api.PUT('/prompt/{promptId}', { params: { path: { promptId: prompt.id } }, body })) : must(api.POST('/prompt', { body }));
    },
    onSuccess: (saved) => {
      void client.invalidateQueries({ queryKey: keys.prompts });
      close(saved);
    },
  });

  const optimise = useMutation({
    mutationFn: () => {
      // A saved assistant is asked through its own endpoint and key unless another key is typed here.
      const useSaved = prompt && !apiKey.trim() && !removeKey && provider === prompt.provider && (provider === 'openai' || baseUrl.trim() === prompt.baseUrl);
      const choice = useSaved
        ? { promptId: prompt.id }
        : {
            config: {
              provider,
              baseUrl: provider === 'openai-compatible' ? baseUrl.trim() : null,
              model: model || null,
              apiKey: apiKey.trim() || null,
            },
          };
      return must(api.POST('/ai-agent/optimize-prompt', { body: { ...choice, prompt: instructions, ...(goal.trim() ? { goal: goal.trim() } : {}) } }));
    },
    onSuccess: (answer) => {
      setProposal(answer.optimizedPrompt);
      setProposalNotice('');
    },
  });
  useEffect(() => {
    if (proposal !== null) proposalRef.current?.focus();
  }, [proposal]);

  const saveRefusal = refusalOf<PromptField>(t, save.error, FIELD_OF);
  const optimiseRefusal = refusalOf<PromptField>(t, optimise.error, FIELD_OF);
  const byField = { ...saveRefusal.byField, ...optimiseRefusal.byField };
  const keyHint =
    prompt?.hasApiKey && !removeKey ? (prompt.apiKeyLast4 ? t('apiKeyReplace', { last4: prompt.apiKeyLast4 }) : t('apiKeyReplaceNoHint')) : t('apiKeyHint');

  const decide = (use: boolean) => {
    if (use && proposal !== null) setInstructions(proposal);
    setProposal(null);
    setProposalNotice(use ? t('proposalUsed') : t('proposalKept'));
  };

  return (
    <FormDialog
      className="prompt-dialog"
      title={prompt ? t('editTitle', { name: prompt.name }) : t('addTitle')}
      description={t('intro')}
      submitLabel={t('list.save')}
      onSubmit={() => {
        optimise.reset();
        save.mutate();
      }}
      onClose={() => close(null)}
      pending={save.isPending}
      error={saveRefusal.form}
    >
      <Field label={t('name')} error={byField.name}>
        {(p) => <input {...p} value={name} onChange={(e) => setName(e.target.value)} autoComplete="off" required />}
      </Field>
      <Field label={t('queue')} error={byField.queueId} hint={t('queueHint')}>
        {(p) => (
          <select {...p} value={queueId} onChange={(e) => setQueueId(e.target.value)} required>
            <option value="">{t('chooseQueue')}</option>
            {(queues.data ?? []).map((q) => (
              <option key={q.id} value={q.id}>
                {q.name}
              </option>
            ))}
          </select>
        )}
      </Field>
      <div className="prompt-dialog-row">
        <Field label={t('provider')}>
          {(p) => (
            <select {...p} value={provider} onChange={(e) => setProvider(e.target.value as Provider)}>
              {PROVIDERS.map((v) => (
                <option key={v} value={v}>
                  {t(`providers.${v}`)}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label={t('model')} error={byField.model}>
          {(p) => (
            <select {...p} value={model} onChange={(e) => setModel(e.target.value)}>
              {modelChoices.map((m) => (
                <option key={m} value={m}>
                  {m}
                </option>
              ))}
            </select>
          )}
        </Field>
      </div>
      {provider === 'openai-compatible' ? (
        <Field label={t('baseUrl')} error={byField.baseUrl} hint={t('baseUrlHint')}>
          {(p) => <input {...p} type="url" value={baseUrl} onChange={(e) => setBaseUrl(e.target.value)} autoComplete="off" required />}
        </Field>
      ) : (
        byField.baseUrl && <FormError text={byField.baseUrl} />
      )}
      <Field label={t('apiKey')} error={byField.apiKey} hint={prompt && !prompt.hasApiKey ? `${t('apiKeyNone')} ${keyHint}` : keyHint}>
        {(p) => (
          <input
            {...p}
            type="password"
            value={apiKey}
            onChange={(e) => setApiKey(e.target.value)}
            autoComplete="new-password"
            disabled={removeKey}
            placeholder={prompt?.apiKeyLast4 ? `••••${prompt.apiKeyLast4}` : undefined}
          />
        )}
      </Field>
      {prompt?.hasApiKey && (
        <label className="check">
          <input type="checkbox" checked={removeKey} onChange={(e) => setRemoveKey(e.target.checked)} />
          {t('removeKey')}
        </label>
      )}
      <div className="prompt-dialog-row">
        <Field label={t('temperature')} error={byField.temperature} hint={t('temperatureHint')}>
          {(p) => <input {...p} inputMode="decimal" value={temperature} onChange={(e) => setTemperature(e.target.value)} autoComplete="off" />}
        </Field>
        <Field label={t('maxTokens')} error={byField.maxTokens} hint={t('maxTokensHint')}>
          {(p) => <input {...p} inputMode="numeric" value={maxTokens} onChange={(e) => setMaxTokens(e.target.value)} autoComplete="off" />}
        </Field>
        <Field label={t('maxMessages')} error={byField.maxMessages} hint={t('maxMessagesHint')}>
          {(p) => <input {...p} inputMode="numeric" value={maxMessages} onChange={(e) => setMaxMessages(e.target.value)} autoComplete="off" />}
        </Field>
      </div>
      <Field label={t('instructions')} error={byField.prompt} hint={t('instructionsHint', { phrase: HANDOVER_PHRASE })}>
        {(p) => <textarea {...p} rows={8} value={instructions} onChange={(e) => setInstructions(e.target.value)} required />}
      </Field>
      <div className="prompt-optimise">
        <Field label={t('goal')}>{(p) => <input {...p} value={goal} onChange={(e) => setGoal(e.target.value)} autoComplete="off" />}</Field>
        <button
          type="button"
          onClick={() => {
            save.reset();
            optimise.mutate();
          }}
          disabled={optimise.isPending || instructions.trim() === ''}
          aria-busy={optimise.isPending}
        >
          {optimise.isPending ? t('optimising') : t('optimise')}
        </button>
      </div>
      <FormError text={optimiseRefusal.form} />
      <p className="visually-hidden" role="status">
        {proposalNotice}
      </p>
      {proposal !== null && (
        <section className="prompt-proposal" aria-labelledby={proposalId} tabIndex={-1} ref={proposalRef}>
          <h3 id={proposalId}>{t('proposalTitle')}</h3>
          <p className="muted small-text">{t('proposalIntro')}</p>
          <p className="prompt-proposal-text" data-testid="proposal">
            {proposal}
          </p>
          <div className="dialog-buttons">
            <button type="button" onClick={() => decide(false)}>
              {t('keepMine')}
            </button>
            <button type="button" className="primary" onClick={() => decide(true)}>
              {t('useProposal')}
            </button>
          </div>
        </section>
      )}
    </FormDialog>
  );
}
