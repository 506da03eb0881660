import type { Contact } from '../contacts/contact.js';
import type { Message } from '../messages/message.js';
import { ConflictError, DomainError } from '../shared/errors.js';
import type { Clock } from '../shared/ports.js';
import { step } from './engine.js';
import type { Flow, FlowTriggerType } from './flow.js';
import type { FlowActions } from './flow-actions.js';
import { initialState, type FlowInput, type FlowState } from './flow-run.js';
import type { FlowRun, FlowRunStatus, FlowRuns } from './flow-runs.js';
import type { FlowTarget } from './flow-target.js';
import type { Flows } from './ports.js';

/** `goToFlow` chains one step may follow (a flow going to itself does not loop for ever). */
const MAX_FLOW_HOPS = 10;

/**
 * A run's steps on the step engine: the state is a `flow_runs` row, each step saved with
 * compare-and-set on its `seq` (two writers of one step: one wins, the other's transaction rolls
 * back and is tried again) and recorded, the engine's actions performed in the caller's transaction.
 */
export class FlowRunSteps {
  constructor(
    private readonly deps: {
      readonly flows: Pick<Flows, 'findVersion' | 'findById'>;
      readonly runs: FlowRuns;
      readonly actions: FlowActions;
      readonly clock: Clock;
      /** The company's business hours, as a test of an instant. */
      readonly businessHours: (companyId: number) => Promise<(at: Date) => boolean>;
    },
  ) {}

  /**
   * Starts a run of the flow's published version on the ticket, in the caller's transaction (the
   * caller saves the ticket). ConflictError `ERR_FLOW_RUN_ACTIVE` when the ticket already has one.
   */
  async start(flow: Flow, trigger: FlowTriggerType, target: FlowTarget, messageId: string | null, hops = 0): Promise<{ run: FlowRun; sent: Message[] }> {
    const now = this.deps.clock.now();
    const { ticket, contact, connection } = target;
    const run = await this.deps.runs.add({
      companyId: ticket.companyId,
      flowId: flow.id,
      version: flow.publishedVersion!,
      ticketId: ticket.id,
      contactId: contact.id,
      connectionId: connection.id,
      state: initialState(),
      status: 'running',
      waitingUntil: null,
      trigger,
      lastMessageId: messageId,
      seq: 0,
      createdAt: now,
      updatedAt: now,
      endedAt: null,
    });
    // The flow talks now: the queue menu and assistants keep quiet on this ticket.
    ticket.botActive = false;
    const sent = await this.advance(run, 'start', target, hops, messageId);
    return { run: (await this.deps.runs.findById(run.companyId, run.id)) ?? run, sent };
  }

  /** Cancels a run (the ticket was taken, or it is failed by an error): it never sends again. */
  async finish(run: FlowRun, status: Extract<FlowRunStatus, 'cancelled' | 'failed'>, input: string): Promise<void> {
    const now = this.deps.clock.now();
    const next: FlowRun = { ...run, status, waitingUntil: null, updatedAt: now, endedAt: now, seq: run.seq + 1 };
    if (!(await this.deps.runs.save(next, run.seq))) throw new ConflictError('ERR_FLOW_RUN_CHANGED');
    await this.deps.runs.addStep({ runId: run.id, companyId: run.companyId, seq: next.seq, nodeId: run.state.nodeId, input, actions: [], at: now });
  }

  /**
   * One step of the run on its own version: the engine's actions performed, the state saved with
   * compare-and-set, the step recorded, the next waits scheduled. A graph the engine refuses (a
   * loop) fails the run; an input it does not expect changes nothing.
   */
  async advance(run: FlowRun, input: FlowInput, target: FlowTarget, hops: number, messageId: string | null): Promise<Message[]> {
    const { flows, runs, clock } = this.deps;
    const version = await flows.findVersion(run.companyId, run.flowId, run.version);
    if (!version) {
      await this.finish(run, 'failed', 'fail ERR_FLOW_VERSION_NOT_FOUND');
      return [];
    }
    const now = clock.now();
    const ctx = { contact: flowContact(target.contact), now, withinBusinessHours: await this.deps.businessHours(run.companyId) };
    let result: ReturnType<typeof step>;
    try {
      result = step(version.graph, run.state, input, ctx);
    } catch (err) {
      if (!(err instanceof DomainError)) throw err;
      await this.finish(run, 'failed', `fail ${err.code}`);
      return [];
    }
    if (result.ignored) return [];
    const sent: Message[] = [];
    const next: FlowRun = {
      ...run,
      state: result.state,
      status: statusOf(result.state),
      waitingUntil: result.state.waiting?.until ? new Date(result.state.waiting.until) : null,
      lastMessageId: messageId ?? run.lastMessageId,
      updatedAt: now,
      endedAt: isActiveState(result.state) ? null : now,
      seq: run.seq + 1,
    };
    if (!(await runs.save(next, run.seq))) throw new ConflictError('ERR_FLOW_RUN_CHANGED');
    await runs.addStep({
      runId: run.id,
      companyId: run.companyId,
      seq: next.seq,
      nodeId: result.state.nodeId,
      input: inputSummary(input),
      actions: result.actions.map((a) => `${a.type}@${a.nodeId}`),
      at: now,
    });
    let goTo: number | null = null;
    for (const action of result.actions) {
      sent.push(...(await this.deps.actions.perform(next, action, target)));
      if (action.type === 'goToFlow') goTo = action.flowId;
    }
    if (goTo !== null && hops < MAX_FLOW_HOPS) {
      const flow = await flows.findById(run.companyId, goTo);
      if (flow?.publishedVersion != null) sent.push(...(await this.start(flow, run.trigger, target, messageId, hops + 1)).sent);
    }
    return sent;
  }
}

const isActiveState = (s: FlowState) => s.status === 'running' || s.status === 'waiting';
const statusOf = (s: FlowState): FlowRunStatus => s.status;

export function flowContact(c: Pick<Contact, 'name' | 'number' | 'email'>) {
  return { name: c.name, number: c.number, email: c.email ?? '' };
}

function inputSummary(input: FlowInput): string {
  if (input === 'start') return 'start';
  if ('answer' in input) return 'answer';
  if ('timeout' in input) return 'timeout';
  if ('intervalDone' in input) return 'intervalDone';
  if ('httpResult' in input) return 'error' in input.httpResult ? 'http error' : `http ${input.httpResult.status}`;
  return 'error' in input.aiResult ? 'ai error' : 'ai';
}
