import {
  CONDITION_MATCHES,
  CONDITION_OPERATORS,
  CONDITION_SOURCES,
  CONTACT_FIELDS,
  type ConditionRule,
  type FlowNode,
  type FlowNodeData,
  type FlowNodeOf,
  HTTP_METHODS,
  VALIDATION_KINDS,
} from '@servicedesk/core/flows/flow-graph';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { must } from '../../api/client.js';
import { useScreenStrings } from '../../i18n/screen-strings.js';
import { keys } from '../../realtime/apply-frame.js';
import { useServices } from '../../services.js';
import { Field } from '../../ui/form.js';
import { freshId } from './graph.js';
import { strings } from './strings.js';

/** The placeholders the hints show as written (the values are not read for placeholders again). */
const HINT_VARS = { vars: '{{name}}, {{firstName}}, {{number}}, {{email}}, {{variable}}', last: '{{lastAnswer}}', example: '{{orderId}}' };

type Change<T extends FlowNode['type']> = (data: FlowNodeData[T]) => void;

/** A text input, labelled, changed as typed. */
function Text(props: { label: string; value: string; onChange: (v: string) => void; hint?: string; multiline?: boolean; error?: string | undefined }) {
  return (
    <Field label={props.label} hint={props.hint} error={props.error}>
      {(p) =>
        props.multiline ? (
          <textarea {...p} rows={3} value={props.value} onChange={(e) => props.onChange(e.target.value)} />
        ) : (
          <input {...p} value={props.value} onChange={(e) => props.onChange(e.target.value)} autoComplete="off" />
        )
      }
    </Field>
  );
}

/** A whole number; an emptied field is `null` when `nullable`, else 0 (the server says what range it takes). */
function Num(props: {
  label: string;
  value: number | null;
  onChange: (v: number | null) => void;
  hint?: string;
  nullable?: boolean;
  min?: number;
  max?: number;
}) {
  return (
    <Field label={props.label} hint={props.hint}>
      {(p) => (
        <input
          {...p}
          type="number"
          inputMode="numeric"
          min={props.min}
          max={props.max}
          value={props.value ?? ''}
          onChange={(e) => props.onChange(e.target.value === '' ? (props.nullable ? null : 0) : Math.trunc(Number(e.target.value)))}
        />
      )}
    </Field>
  );
}

function Choice<V extends string | number>(props: {
  label: string;
  value: V | null;
  options: ReadonlyArray<{ value: V; label: string }>;
  onChange: (v: V | null) => void;
  none?: string;
  hint?: string;
}) {
  const { t } = useScreenStrings('flows', strings);
  const numeric = props.options.length > 0 && typeof props.options[0]!.value === 'number';
  const known = props.value === null || props.options.some((o) => o.value === props.value);
  return (
    <Field label={props.label} hint={props.hint}>
      {(p) => (
        <select
          {...p}
          value={props.value === null ? '' : String(props.value)}
          onChange={(e) => props.onChange(e.target.value === '' ? null : ((numeric ? Number(e.target.value) : e.target.value) as V))}
        >
          {(props.none !== undefined || props.value === null) && <option value="">{props.none ?? t('form.choose')}</option>}
          {!known && <option value={String(props.value)}>{t('form.unknown', { id: props.value })}</option>}
          {props.options.map((o) => (
            <option key={String(o.value)} value={String(o.value)}>
              {o.label}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}

/** A repeated group of fields (options, rules, headers…) with its add and remove buttons. */
function Rows<R>(props: {
  legend: string;
  rows: R[];
  onChange: (rows: R[]) => void;
  add: string;
  blank: () => R;
  removeLabel: (i: number) => string;
  max: number;
  children: (row: R, set: (r: R) => void, i: number) => ReactNode;
}) {
  return (
    <fieldset className="flow-rows">
      <legend>{props.legend}</legend>
      {props.rows.map((row, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: rows have no id of their own; their place is their identity while edited
        <div className="flow-row" key={i}>
          {props.children(row, (r) => props.onChange(props.rows.map((x, j) => (j === i ? r : x))), i)}
          <button type="button" className="small" onClick={() => props.onChange(props.rows.filter((_, j) => j !== i))}>
            {props.removeLabel(i)}
          </button>
        </div>
      ))}
      {props.rows.length < props.max && (
        <button type="button" className="small" onClick={() => props.onChange([...props.rows, props.blank()])}>
          {props.add}
        </button>
      )}
    </fieldset>
  );
}

/** The form of one node, by its type: the keyboard's and screen reader's way to edit it. */
export function NodeForm({ node, onChange, flowId }: { node: FlowNode; onChange: (data: FlowNode['data']) => void; flowId: number }) {
  switch (node.type) {
    case 'start':
      return <StartForm />;
    case 'message':
      return <MessageForm data={node.data} onChange={onChange} />;
    case 'question':
      return <QuestionForm data={node.data} onChange={onChange} />;
    case 'condition':
      return <ConditionForm data={node.data} onChange={onChange} />;
    case 'interval':
      return <IntervalForm data={node.data} onChange={onChange} />;
    case 'setVariable':
      return <SetVariableForm data={node.data} onChange={onChange} />;
    case 'tags':
      return <TagsForm data={node.data} onChange={onChange} />;
    case 'transfer':
      return <TransferForm data={node.data} onChange={onChange} />;
    case 'close':
      return <CloseForm />;
    case 'http':
      return <HttpForm node={node} onChange={onChange} />;
    case 'integration':
      return <IntegrationForm data={node.data} onChange={onChange} />;
    case 'aiAgent':
      return <AiAgentForm data={node.data} onChange={onChange} />;
    case 'goToFlow':
      return <GoToFlowForm data={node.data} onChange={onChange} flowId={flowId} />;
    default:
      return null;
  }
}

function StartForm() {
  const { t } = useScreenStrings('flows', strings);
  return <p className="muted">{t('form.start')}</p>;
}

function CloseForm() {
  const { t } = useScreenStrings('flows', strings);
  return <p className="muted">{t('form.close')}</p>;
}

function MessageForm({ data, onChange }: { data: FlowNodeData['message']; onChange: Change<'message'> }) {
  const { t } = useScreenStrings('flows', strings);
  const { api } = useServices();
  const lists = useQuery({ queryKey: ['files', 'lists'], queryFn: () => must(api.GET('/files/list')), retry: false });
  const list = lists.data?.find((l) => l.id === data.media?.fileListId);
  return (
    <>
      <Text label={t('form.text')} hint={t('form.textHint', HINT_VARS)} value={data.text} multiline onChange={(text) => onChange({ ...data, text })} />
      <Num
        label={t('form.typingMs')}
        hint={t('form.typingMsHint')}
        min={0}
        max={30_000}
        value={data.typingMs}
        onChange={(v) => onChange({ ...data, typingMs: v ?? 0 })}
      />
      <Choice
        label={t('form.fileList')}
        none={t('form.noFiles')}
        value={data.media?.fileListId ?? null}
        options={(lists.data ?? []).map((l) => ({ value: l.id, label: l.name }))}
        onChange={(id) => onChange({ ...data, media: id === null ? null : { fileListId: id, fileOptionId: null } })}
      />
      {data.media && (
        <Choice
          label={t('form.fileOption')}
          none={t('form.allFiles')}
          value={data.media.fileOptionId}
          options={(list?.options ?? []).map((o) => ({ value: o.id, label: o.name }))}
          onChange={(id) => data.media && onChange({ ...data, media: { ...data.media, fileOptionId: id } })}
        />
      )}
    </>
  );
}

function QuestionForm({ data, onChange }: { data: FlowNodeData['question']; onChange: Change<'question'> }) {
  const { t } = useScreenStrings('flows', strings);
  return (
    <>
      <Text label={t('form.question')} value={data.text} multiline onChange={(text) => onChange({ ...data, text })} />
      <Choice
        label={t('form.mode')}
        value={data.mode}
        options={[
          { value: 'options', label: t('form.modes.options') },
          { value: 'free', label: t('form.modes.free') },
        ]}
        onChange={(mode) => onChange({ ...data, mode: mode ?? 'options' })}
      />
      {data.mode === 'options' ? (
        <Rows
          legend={t('form.options')}
          rows={data.options}
          max={20}
          add={t('form.addOption')}
          blank={() => ({ handle: freshId('o', new Set(data.options.map((o) => o.handle))), label: '' })}
          removeLabel={(i) => t('form.removeOption', { n: i + 1 })}
          onChange={(options) => onChange({ ...data, options })}
        >
          {(o, set, i) => <Text label={t('form.optionLabel', { n: i + 1 })} value={o.label} onChange={(label) => set({ ...o, label })} />}
        </Rows>
      ) : (
        <Choice
          label={t('form.validation')}
          value={data.validation}
          options={VALIDATION_KINDS.map((v) => ({ value: v, label: t(`form.validations.${v}`) }))}
          onChange={(validation) => onChange({ ...data, validation: validation ?? 'text' })}
        />
      )}
      <Text
        label={t('form.saveAnswer')}
        hint={t('form.variableHint', HINT_VARS)}
        value={data.variable ?? ''}
        onChange={(v) => onChange({ ...data, variable: v === '' ? null : v })}
      />
      <Num label={t('form.retries')} min={0} max={5} value={data.retries} onChange={(v) => onChange({ ...data, retries: v ?? 0 })} />
      <Text
        label={t('form.invalidText')}
        hint={t('form.invalidTextHint')}
        value={data.invalidText}
        onChange={(invalidText) => onChange({ ...data, invalidText })}
      />
      <Num
        label={t('form.timeoutSeconds')}
        hint={t('form.timeoutHint')}
        nullable
        min={10}
        max={604_800}
        value={data.timeoutSeconds}
        onChange={(timeoutSeconds) => onChange({ ...data, timeoutSeconds })}
      />
    </>
  );
}

function ConditionForm({ data, onChange }: { data: FlowNodeData['condition']; onChange: Change<'condition'> }) {
  const { t } = useScreenStrings('flows', strings);
  const first = data.match === 'first';
  const handles = new Set(data.rules.map((r) => r.handle));
  return (
    <>
      <Choice
        label={t('form.match')}
        value={data.match}
        options={CONDITION_MATCHES.map((m) => ({ value: m, label: t(`form.matches.${m}`) }))}
        onChange={(match) =>
          onChange({
            match: match ?? 'all',
            // A rule taken first leaves by its own handle: each gets one when `first` is chosen.
            rules: match === 'first' ? data.rules.map((r) => (r.handle ? r : { ...r, handle: freshId('r', handles) })) : data.rules,
          })
        }
      />
      <Rows
        legend={t('form.rules')}
        rows={data.rules}
        max={20}
        add={t('form.addRule')}
        blank={(): ConditionRule => ({ handle: first ? freshId('r', handles) : '', source: 'variable', key: '', operator: 'equals', value: '' })}
        removeLabel={(i) => t('form.removeRule', { n: i + 1 })}
        onChange={(rules) => onChange({ ...data, rules })}
      >
        {(r, set, i) => (
          <>
            <Choice
              label={t('form.ruleSource', { n: i + 1 })}
              value={r.source}
              options={CONDITION_SOURCES.map((s) => ({ value: s, label: t(`form.sources.${s}`) }))}
              onChange={(source) =>
                set({
                  ...r,
                  source: source ?? 'variable',
                  key: source === 'contact' ? 'name' : source === 'businessHours' ? '' : r.key,
                  ...(source === 'businessHours' ? { operator: 'isTrue' } : {}),
                })
              }
            />
            {r.source === 'variable' && <Text label={t('form.ruleVariable', { n: i + 1 })} value={r.key} onChange={(key) => set({ ...r, key })} />}
            {r.source === 'contact' && (
              <Choice
                label={t('form.ruleField', { n: i + 1 })}
                value={r.key}
                options={CONTACT_FIELDS.map((f) => ({ value: f, label: t(`form.contactFields.${f}`) }))}
                onChange={(key) => set({ ...r, key: key ?? 'name' })}
              />
            )}
            <Choice
              label={t('form.ruleOperator', { n: i + 1 })}
              value={r.operator}
              options={(r.source === 'businessHours' ? (['isTrue', 'isFalse'] as const) : CONDITION_OPERATORS).map((o) => ({
                value: o,
                label: t(`form.operators.${o}`),
              }))}
              onChange={(operator) => set({ ...r, operator: operator ?? 'equals' })}
            />
            {r.source !== 'businessHours' && !['isEmpty', 'isNotEmpty', 'isTrue', 'isFalse'].includes(r.operator) && (
              <Text label={t('form.ruleValue', { n: i + 1 })} value={r.value} onChange={(value) => set({ ...r, value })} />
            )}
          </>
        )}
      </Rows>
    </>
  );
}

function IntervalForm({ data, onChange }: { data: FlowNodeData['interval']; onChange: Change<'interval'> }) {
  const { t } = useScreenStrings('flows', strings);
  return (
    <Num label={t('form.seconds')} hint={t('form.secondsHint')} min={1} max={604_800} value={data.seconds} onChange={(v) => onChange({ seconds: v ?? 0 })} />
  );
}

function SetVariableForm({ data, onChange }: { data: FlowNodeData['setVariable']; onChange: Change<'setVariable'> }) {
  const { t } = useScreenStrings('flows', strings);
  return (
    <>
      <Text
        label={t('form.variable')}
        hint={t('form.variableHint', HINT_VARS)}
        value={data.variable}
        onChange={(variable) => onChange({ ...data, variable })}
      />
      <Text label={t('form.value')} hint={t('form.textHint', HINT_VARS)} value={data.value} onChange={(value) => onChange({ ...data, value })} />
    </>
  );
}

function TagsForm({ data, onChange }: { data: FlowNodeData['tags']; onChange: Change<'tags'> }) {
  const { t } = useScreenStrings('flows', strings);
  const { api } = useServices();
  const tags = useQuery({ queryKey: [...keys.tags, 'list'], queryFn: () => must(api.GET('/tags/list')) });
  const toggle = (list: number[], id: number, on: boolean) => (on ? [...list, id] : list.filter((x) => x !== id));
  const group = (legend: string, which: 'add' | 'remove') => (
    <fieldset className="flow-rows">
      <legend>{legend}</legend>
      {(tags.data ?? []).length === 0 && <p className="muted">{t('form.noTags')}</p>}
      {(tags.data ?? []).map((tag) => (
        <label className="check" key={tag.id}>
          <input
            type="checkbox"
            checked={data[which].includes(tag.id)}
            onChange={(e) => onChange({ ...data, [which]: toggle(data[which], tag.id, e.target.checked) })}
          />
          {tag.name}
        </label>
      ))}
    </fieldset>
  );
  return (
    <>
      {group(t('form.tagsAdd'), 'add')}
      {group(t('form.tagsRemove'), 'remove')}
    </>
  );
}

function TransferForm({ data, onChange }: { data: FlowNodeData['transfer']; onChange: Change<'transfer'> }) {
  const { t } = useScreenStrings('flows', strings);
  const { api } = useServices();
  const queues = useQuery({ queryKey: keys.queues, queryFn: () => must(api.GET('/queue')) });
  const users = useQuery({ queryKey: [...keys.users, 'list'], queryFn: () => must(api.GET('/users/list')) });
  return (
    <>
      <Choice
        label={t('form.queue')}
        none={t('form.keepQueue')}
        value={data.queueId}
        options={(queues.data ?? []).map((q) => ({ value: q.id, label: q.name }))}
        onChange={(queueId) => onChange({ ...data, queueId })}
      />
      <Choice
        label={t('form.user')}
        none={t('form.noUser')}
        value={data.userId}
        options={(users.data ?? []).map((u) => ({ value: u.id, label: u.name }))}
        onChange={(userId) => onChange({ ...data, userId })}
      />
    </>
  );
}

function HttpForm({ node, onChange }: { node: FlowNodeOf<'http'>; onChange: Change<'http'> }) {
  const { t } = useScreenStrings('flows', strings);
  const data = node.data;
  return (
    <>
      <Choice
        label={t('form.method')}
        value={data.method}
        options={HTTP_METHODS.map((m) => ({ value: m, label: m }))}
        onChange={(method) => onChange({ ...data, method: method ?? 'GET' })}
      />
      <Text label={t('form.url')} hint={t('form.urlHint', HINT_VARS)} value={data.url} onChange={(url) => onChange({ ...data, url })} />
      <Rows
        legend={t('form.headers')}
        rows={data.headers}
        max={20}
        add={t('form.addHeader')}
        blank={() => ({ name: '', value: '' })}
        removeLabel={(i) => t('form.removeHeader', { n: i + 1 })}
        onChange={(headers) => onChange({ ...data, headers })}
      >
        {(h, set, i) => (
          <>
            <Text label={t('form.headerName', { n: i + 1 })} value={h.name} onChange={(name) => set({ ...h, name })} />
            <Text label={t('form.headerValue', { n: i + 1 })} value={h.value} onChange={(value) => set({ ...h, value })} />
          </>
        )}
      </Rows>
      {data.method !== 'GET' && (
        <Text
          label={t('form.body')}
          hint={t('form.bodyHint', HINT_VARS)}
          multiline
          value={data.body ?? ''}
          onChange={(b) => onChange({ ...data, body: b === '' ? null : b })}
        />
      )}
      <Num label={t('form.timeoutMs')} min={1000} max={30_000} value={data.timeoutMs} onChange={(v) => onChange({ ...data, timeoutMs: v ?? 0 })} />
      <Rows
        legend={t('form.captures')}
        rows={data.save}
        max={10}
        add={t('form.addCapture')}
        blank={() => ({ path: '', variable: '' })}
        removeLabel={(i) => t('form.removeCapture', { n: i + 1 })}
        onChange={(save) => onChange({ ...data, save })}
      >
        {(c, set, i) => (
          <>
            <Text label={t('form.capturePath', { n: i + 1 })} hint={t('form.capturePathHint')} value={c.path} onChange={(path) => set({ ...c, path })} />
            <Text label={t('form.captureVariable', { n: i + 1 })} value={c.variable} onChange={(variable) => set({ ...c, variable })} />
          </>
        )}
      </Rows>
    </>
  );
}

function IntegrationForm({ data, onChange }: { data: FlowNodeData['integration']; onChange: Change<'integration'> }) {
  const { t } = useScreenStrings('flows', strings);
  const { api } = useServices();
  const list = useQuery({ queryKey: [...keys.queueIntegrations, 'all'], queryFn: () => must(api.GET('/queueIntegration')), retry: false });
  return (
    <>
      {list.error && <p className="muted">{t('form.integrationsUnavailable')}</p>}
      <Choice
        label={t('form.integration')}
        value={data.integrationId || null}
        options={(list.data?.queueIntegrations ?? []).map((i) => ({ value: i.id, label: i.name }))}
        onChange={(id) => onChange({ integrationId: id ?? 0 })}
      />
    </>
  );
}

function AiAgentForm({ data, onChange }: { data: FlowNodeData['aiAgent']; onChange: Change<'aiAgent'> }) {
  const { t } = useScreenStrings('flows', strings);
  const { api } = useServices();
  const options = useQuery({ queryKey: ['flows', 'aiOptions'], queryFn: () => must(api.GET('/flowBuilder/ai-agent/options')), retry: false });
  const own = data.model !== null;
  const model = data.model ?? { baseUrl: '', model: '', instructions: '', temperature: 1, maxTokens: 300 };
  return (
    <>
      {options.error && <p className="muted">{t('form.aiUnavailable')}</p>}
      <Choice
        label={t('form.aiSource')}
        value={own ? 'model' : 'prompt'}
        options={[
          { value: 'prompt', label: t('form.aiPrompt') },
          { value: 'model', label: t('form.aiModel') },
        ]}
        onChange={(v) => onChange(v === 'model' ? { ...data, promptId: null, model } : { ...data, model: null })}
      />
      {own ? (
        <>
          <Text label={t('form.baseUrl')} value={model.baseUrl} onChange={(baseUrl) => onChange({ ...data, model: { ...model, baseUrl } })} />
          <Choice
            label={t('form.model')}
            value={model.model || null}
            options={(options.data?.models ?? []).map((m) => ({ value: m, label: m }))}
            onChange={(m) => onChange({ ...data, model: { ...model, model: m ?? '' } })}
          />
          <Text
            label={t('form.instructions')}
            multiline
            value={model.instructions}
            onChange={(instructions) => onChange({ ...data, model: { ...model, instructions } })}
          />
          <Num
            label={t('form.maxTokens')}
            min={1}
            max={16_000}
            value={model.maxTokens}
            onChange={(v) => onChange({ ...data, model: { ...model, maxTokens: v ?? 1 } })}
          />
        </>
      ) : (
        <Choice
          label={t('form.prompt')}
          value={data.promptId}
          options={(options.data?.prompts ?? []).map((p) => ({ value: p.id, label: p.name }))}
          onChange={(promptId) => onChange({ ...data, promptId })}
        />
      )}
      <Text label={t('form.aiInput')} hint={t('form.textHint', HINT_VARS)} value={data.input} onChange={(input) => onChange({ ...data, input })} />
      <Text
        label={t('form.aiVariable')}
        hint={t('form.variableHint', HINT_VARS)}
        value={data.variable ?? ''}
        onChange={(v) => onChange({ ...data, variable: v === '' ? null : v })}
      />
      <Num label={t('form.maxTurns')} min={1} max={50} value={data.maxTurns} onChange={(v) => onChange({ ...data, maxTurns: v ?? 1 })} />
    </>
  );
}

function GoToFlowForm({ data, onChange, flowId }: { data: FlowNodeData['goToFlow']; onChange: Change<'goToFlow'>; flowId: number }) {
  const { t } = useScreenStrings('flows', strings);
  const { api } = useServices();
  const flows = useQuery({ queryKey: [...keys.flows, 'page', '', 'picker'], queryFn: () => must(api.GET('/flows', { params: { query: { pageNumber: 1 } } })) });
  return (
    <Choice
      label={t('form.flow')}
      hint={t('form.flowHint')}
      value={data.flowId || null}
      options={(flows.data?.flows ?? []).filter((f) => f.id !== flowId).map((f) => ({ value: f.id, label: f.name }))}
      onChange={(id) => onChange({ flowId: id ?? 0 })}
    />
  );
}
