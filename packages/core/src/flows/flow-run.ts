import type { ChatTurn } from '../prompts/ports.js';
import type { FlowHttpMethod, InlineModel } from './flow-graph.js';
import type { FlowContact } from './flow-template.js';

/**
 * What the step engine (engine.ts) reads and answers: a run's state (plain JSON, for a run table),
 * the inputs that move it, the context it runs in, and the actions its caller performs.
 */

export type FlowStatus = 'running' | 'waiting' | 'done' | 'handedOver';

export interface FlowWaiting {
  readonly kind: 'answer' | 'interval' | 'http' | 'ai';
  /** ISO instant: an interval's end, or when an unanswered question times out. */
  readonly until?: string;
  /** Invalid answers given so far to the question waiting. */
  readonly retries: number;
}

export interface FlowState {
  /** The node the run is at (null before it starts). */
  readonly nodeId: string | null;
  readonly variables: Readonly<Record<string, string>>;
  readonly waiting: FlowWaiting | null;
  readonly status: FlowStatus;
  /** The exchange with the model at an AI-agent node. */
  readonly ai: { readonly turns: number; readonly history: readonly ChatTurn[] } | null;
}

export type FlowHttpResult = { readonly status: number; readonly body: unknown } | { readonly error: string };
export type FlowAiResult = { readonly text: string } | { readonly error: string };

export type FlowInput =
  | 'start'
  | { readonly answer: string }
  | { readonly timeout: true }
  | { readonly httpResult: FlowHttpResult }
  | { readonly aiResult: FlowAiResult }
  | { readonly intervalDone: true };

export interface FlowContext {
  readonly contact: FlowContact;
  readonly now: Date;
  /** Whether the company is open at that instant (its business hours, on its clock). */
  readonly withinBusinessHours: (at: Date) => boolean;
}

export interface FlowHttpRequest {
  readonly method: FlowHttpMethod;
  readonly url: string;
  readonly headers: ReadonlyArray<{ readonly name: string; readonly value: string }>;
  readonly body: string | null;
  readonly timeoutMs: number;
}

/** Why a run ended. */
export type FlowEndReason = 'end' | 'closed' | 'transferred' | 'integration' | 'goToFlow' | 'invalidAnswer' | 'timeout' | 'handover' | 'missingNode';

export type FlowAction =
  | { readonly type: 'sendText'; readonly nodeId: string; readonly text: string; readonly typingMs: number }
  | { readonly type: 'sendMedia'; readonly nodeId: string; readonly fileListId: number; readonly fileOptionId: number | null }
  | { readonly type: 'setTags'; readonly nodeId: string; readonly add: readonly number[]; readonly remove: readonly number[] }
  | { readonly type: 'transfer'; readonly nodeId: string; readonly queueId: number | null; readonly userId: number | null }
  | { readonly type: 'close'; readonly nodeId: string }
  | { readonly type: 'wait'; readonly nodeId: string; readonly kind: 'answer' | 'interval'; readonly until: string | null }
  | { readonly type: 'callHttp'; readonly nodeId: string; readonly request: FlowHttpRequest }
  | {
      readonly type: 'callAi';
      readonly nodeId: string;
      readonly promptId: number | null;
      readonly model: InlineModel | null;
      readonly messages: readonly ChatTurn[];
    }
  | { readonly type: 'startIntegration'; readonly nodeId: string; readonly integrationId: number }
  | { readonly type: 'goToFlow'; readonly nodeId: string; readonly flowId: number }
  | { readonly type: 'end'; readonly nodeId: string; readonly status: 'done' | 'handedOver'; readonly reason: FlowEndReason };

export interface FlowStep {
  readonly actions: FlowAction[];
  readonly state: FlowState;
  /** The input did not fit the state (an answer while nothing asks, an early timeout): nothing changed. */
  readonly ignored: boolean;
}

export function initialState(variables: Readonly<Record<string, string>> = {}): FlowState {
  return { nodeId: null, variables: { ...variables }, waiting: null, status: 'running', ai: null };
}
