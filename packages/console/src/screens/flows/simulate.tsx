import type { FlowNode } from '@servicedesk/core/flows/flow-graph';
import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { ApiError, must, type Schema } from '../../api/client.js';
import { useScreenStrings } from '../../i18n/screen-strings.js';
import { useServices } from '../../services.js';
import { errorText } from '../../ui/errors.js';
import { Field, FormError } from '../../ui/form.js';
import { strings } from './strings.js';

type Simulation = Schema<'FlowSimulation'>;
type Entry = Simulation['transcript'][number];
interface HttpMock {
  status: string;
  body: string;
}

/** The body of the simulate route's mocks: each HTTP node's answer (its JSON parsed) and the AI's. */
export function mocksOf(
  http: Readonly<Record<string, HttpMock>>,
  ai: string,
): { mocks: { http: Record<string, { status: number; body?: unknown }>; ai?: string }; bad: string | null } {
  const out: Record<string, { status: number; body?: unknown }> = {};
  for (const [nodeId, m] of Object.entries(http)) {
    const status = Number(m.status);
    if (!Number.isInteger(status) || status < 100 || status > 599) return { mocks: { http: {} }, bad: nodeId };
    if (m.body.trim() === '') out[nodeId] = { status };
    else {
      try {
        out[nodeId] = { status, body: JSON.parse(m.body) };
      } catch {
        return { mocks: { http: {} }, bad: nodeId };
      }
    }
  }
  return { mocks: { http: out, ...(ai ? { ai } : {}) }, bad: null };
}

/**
 * The simulation beside the canvas: the admin types as the contact and reads what the draft (or a
 * published version) says and does, its variables and the mocked answers of its HTTP and AI nodes.
 * The route replays every answer from the start each time (nothing is stored or sent), so the
 * transcript is the whole run so far.
 */
export function SimulatePanel(props: {
  flowId: number;
  versions: readonly number[];
  httpNodes: readonly FlowNode[];
  hasAi: boolean;
  /** Saves the draft first: the route simulates the server's draft. */
  ensureSaved: () => Promise<boolean>;
  nodeName: (id: string) => string;
  onSelectNode: (id: string) => void;
  onClose: () => void;
}) {
  const { t } = useScreenStrings('flows', strings);
  const { api } = useServices();
  const id = useId();
  const [inputs, setInputs] = useState<string[]>([]);
  const [typed, setTyped] = useState('');
  const [version, setVersion] = useState<'draft' | number>('draft');
  const [contactName, setContactName] = useState('Test Contact');
  const [contactNumber, setContactNumber] = useState('5511999999999');
  const [http, setHttp] = useState<Record<string, HttpMock>>({});
  const [ai, setAi] = useState('');
  const [result, setResult] = useState<Simulation | null>(null);
  const [mockError, setMockError] = useState<string | null>(null);
  const transcriptRef = useRef<HTMLOListElement>(null);

  const run = useMutation({
    mutationFn: async (next: string[]) => {
      const { mocks, bad } = mocksOf(http, ai);
      if (bad) throw new ApiError(0, 'MOCK', { nodeId: bad });
      if (version === 'draft' && !(await props.ensureSaved())) throw new ApiError(0, 'UNSAVED');
      return must(
        api.POST('/flows/{flowId}/simulate', {
          params: { path: { flowId: props.flowId } },
          body: { version, inputs: next, contact: { name: contactName, number: contactNumber }, mocks },
        }),
      );
    },
    onSuccess: (answer, next) => {
      setResult(answer);
      setInputs(next);
      setTyped('');
      setMockError(null);
    },
    onError: (err) => {
      if (err instanceof ApiError && err.code === 'MOCK') setMockError(String((err.fields as { nodeId: string }).nodeId));
    },
  });

  // The run's first words at once: what the flow says before the contact's first answer.
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, when the panel opens
  useEffect(() => {
    run.mutate([]);
  }, []);
  // biome-ignore lint/correctness/useExhaustiveDependencies: follows the transcript's length
  useEffect(() => {
    const list = transcriptRef.current;
    if (list) list.scrollTop = list.scrollHeight;
  }, [result]);

  const send = (e: FormEvent) => {
    e.preventDefault();
    if (!typed.trim() || run.isPending) return;
    run.mutate([...inputs, typed]);
  };
  const waiting = result?.state.status === 'waiting';
  const ignored = result ? inputs.length - result.inputsUsed : 0;
  const runError = run.error instanceof ApiError && (run.error.code === 'MOCK' || run.error.code === 'UNSAVED') ? null : run.error;

  return (
    <section className="flow-simulate" aria-labelledby={`${id}-title`}>
      <div className="flow-panel-head">
        <h2 id={`${id}-title`}>{t('sim.title')}</h2>
        <button type="button" className="small" onClick={props.onClose}>
          {t('sim.close')}
        </button>
      </div>
      <p className="muted small-text">{t('sim.intro')}</p>
      <details className="flow-sim-settings">
        <summary>{t('sim.settings')}</summary>
        <Field label={t('sim.version')}>
          {(p) => (
            <select {...p} value={String(version)} onChange={(e) => setVersion(e.target.value === 'draft' ? 'draft' : Number(e.target.value))}>
              <option value="draft">{t('sim.draft')}</option>
              {props.versions.map((v) => (
                <option key={v} value={v}>
                  {t('sim.versionN', { version: v })}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label={t('sim.contactName')}>{(p) => <input {...p} value={contactName} onChange={(e) => setContactName(e.target.value)} />}</Field>
        <Field label={t('sim.contactNumber')}>{(p) => <input {...p} value={contactNumber} onChange={(e) => setContactNumber(e.target.value)} />}</Field>
        {props.httpNodes.map((n) => {
          const m = http[n.id] ?? { status: '200', body: '' };
          const set = (change: Partial<HttpMock>) => setHttp((all) => ({ ...all, [n.id]: { ...m, ...change } }));
          return (
            <fieldset key={n.id} className="flow-rows">
              <legend>{t('sim.httpMock', { node: props.nodeName(n.id) })}</legend>
              <Field label={t('sim.mockStatus')}>
                {(p) => <input {...p} type="number" min={100} max={599} value={m.status} onChange={(e) => set({ status: e.target.value })} />}
              </Field>
              <Field label={t('sim.mockBody')} hint={t('sim.mockBodyHint')} error={mockError === n.id ? t('sim.mockInvalid') : undefined}>
                {(p) => <textarea {...p} rows={3} value={m.body} onChange={(e) => set({ body: e.target.value })} />}
              </Field>
            </fieldset>
          );
        })}
        {props.httpNodes.length === 0 && <p className="muted small-text">{t('sim.noHttp')}</p>}
        {props.hasAi && <Field label={t('sim.aiMock')}>{(p) => <textarea {...p} rows={2} value={ai} onChange={(e) => setAi(e.target.value)} />}</Field>}
        <button type="button" className="small" onClick={() => run.mutate(inputs)} disabled={run.isPending}>
          {t('sim.rerun')}
        </button>
      </details>

      <ol className="flow-transcript" ref={transcriptRef} aria-label={t('sim.transcript')} aria-live="polite">
        {result?.transcript.map((entry, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: the transcript is replaced whole on each run
          <TranscriptLine key={i} entry={entry} nodeName={props.nodeName} onSelectNode={props.onSelectNode} />
        ))}
      </ol>
      {ignored > 0 && <p className="muted small-text">{t('sim.ignored', { count: ignored })}</p>}
      <p className="flow-sim-status" role="status">
        {run.isPending ? t('sim.running') : result ? t(`sim.status.${result.state.status}`) : ''}
      </p>
      <FormError text={runError ? errorText(t, runError) : null} />
      <form className="flow-sim-send" onSubmit={send}>
        <label htmlFor={`${id}-typed`} className="visually-hidden">
          {t('sim.typeAs')}
        </label>
        <input id={`${id}-typed`} value={typed} placeholder={t('sim.typeAs')} onChange={(e) => setTyped(e.target.value)} autoComplete="off" />
        <button type="submit" className="primary" disabled={run.isPending || !typed.trim() || (result !== null && !waiting)}>
          {t('sim.send')}
        </button>
        <button
          type="button"
          onClick={() => {
            setTyped('');
            run.mutate([]);
          }}
          disabled={run.isPending}
        >
          {t('sim.restart')}
        </button>
      </form>
      {result && (
        <section className="flow-variables" aria-labelledby={`${id}-vars`}>
          <h3 id={`${id}-vars`}>{t('sim.variables')}</h3>
          {Object.keys(result.state.variables).length === 0 ? (
            <p className="muted small-text">{t('sim.noVariables')}</p>
          ) : (
            <dl>
              {Object.entries(result.state.variables).map(([k, v]) => (
                <div key={k}>
                  <dt>{k}</dt>
                  <dd>{v}</dd>
                </div>
              ))}
            </dl>
          )}
        </section>
      )}
    </section>
  );
}

/** One line of the transcript: a bubble for what was said, a note for what the run did (with the mocked answer). */
function TranscriptLine({ entry, nodeName, onSelectNode }: { entry: Entry; nodeName: (id: string) => string; onSelectNode: (id: string) => void }) {
  const { t } = useScreenStrings('flows', strings);
  if ('from' in entry && typeof entry.text === 'string') {
    return (
      <li className={`flow-bubble ${entry.from}`}>
        <span className="visually-hidden">{entry.from === 'bot' ? t('sim.bot') : t('sim.contact')}: </span>
        <span className="flow-bubble-text">{entry.text}</span>
      </li>
    );
  }
  const { event, nodeId, ...rest } = entry as { event: string; nodeId: string } & Record<string, unknown>;
  const details = Object.entries(rest).filter(([, v]) => v !== null && v !== undefined);
  return (
    <li className="flow-event">
      <button type="button" className="link" onClick={() => onSelectNode(nodeId)}>
        {t(`sim.events.${event}`, { defaultValue: event })} · {nodeName(nodeId)}
      </button>
      {details.length > 0 && <code>{details.map(([k, v]) => `${k}: ${typeof v === 'string' ? v : JSON.stringify(v)}`).join(' · ')}</code>}
    </li>
  );
}
