import type { ChatTurn } from '../prompts/ports.js';
import type { InlineModel } from './flow-graph.js';
import type { FlowHttpRequest } from './flow-run.js';

/** The one-off job that feeds an interval's end or a question's timeout to a run, at `waitingUntil`. */
export const FLOW_TIMER_JOB = 'flows.timer';
/** The one-off job that makes an HTTP node's or an AI agent's call after the commit and feeds the result back. */
export const FLOW_CALL_JOB = 'flows.call';

export interface FlowTimerPayload {
  readonly companyId: number;
  readonly runId: number;
  /** The run's `seq` when the timer was set: a run that moved on since ignores it. */
  readonly seq: number;
  readonly input: 'timeout' | 'intervalDone';
}

export type FlowCallPayload = {
  readonly companyId: number;
  readonly runId: number;
  readonly seq: number;
} & (
  | { readonly kind: 'http'; readonly request: FlowHttpRequest }
  | { readonly kind: 'ai'; readonly promptId: number | null; readonly model: InlineModel | null; readonly messages: readonly ChatTurn[] }
);
