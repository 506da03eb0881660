import type { FlowTriggerType } from './flow.js';
import type { FlowHttpRequest, FlowState } from './flow-run.js';

/**
 * A run of a published flow on one ticket, stored: the engine's state (`FlowState`) with what it
 * waits for, so a restart, another backend instance or a job at `waitingUntil` picks it up where it
 * stopped. A run keeps the version it started on, whatever is published later.
 */
export const FLOW_RUN_STATUSES = ['running', 'waiting', 'done', 'handedOver', 'cancelled', 'failed'] as const;
export type FlowRunStatus = (typeof FLOW_RUN_STATUSES)[number];
/** A ticket has at most one run in these (the database's partial unique index keeps it). */
export const ACTIVE_RUN_STATUSES: readonly FlowRunStatus[] = ['running', 'waiting'];

export interface FlowRun {
  id: number;
  companyId: number;
  flowId: number;
  version: number;
  ticketId: number;
  contactId: number;
  connectionId: number;
  state: FlowState;
  status: FlowRunStatus;
  /** When the interval or the question's timeout the run waits for is due. */
  waitingUntil: Date | null;
  trigger: FlowTriggerType;
  /** The last inbound message fed to the run: the same message never advances it twice. */
  lastMessageId: string | null;
  /** Steps taken; a save moves it on by one, and only from the value read (compare-and-set). */
  seq: number;
  createdAt: Date;
  updatedAt: Date;
  endedAt: Date | null;
}

export type NewFlowRun = Omit<FlowRun, 'id'>;

/** The audit of a run: what each step was given and what it did. */
export interface FlowRunStep {
  runId: number;
  companyId: number;
  /** The run's `seq` after the step. */
  seq: number;
  nodeId: string | null;
  /** `start`, `answer`, `timeout`, `intervalDone`, `http 200`, `http error`, `ai`, `ai error`, `cancel`, `fail ERR_…`. */
  input: string;
  /** Each action as `type@nodeId`. */
  actions: string[];
  at: Date;
}

/**
 * The company's runs. Scoped by `companyId`: another company's run is absent.
 */
export interface FlowRuns {
  /** Throws ConflictError `ERR_FLOW_RUN_ACTIVE` when the ticket already has an active run. */
  add(run: NewFlowRun): Promise<FlowRun>;
  findById(companyId: number, id: number): Promise<FlowRun | null>;
  /** The ticket's running or waiting run. */
  activeOfTicket(companyId: number, ticketId: number): Promise<FlowRun | null>;
  /**
   * Writes state, status, `waitingUntil`, `lastMessageId`, `updatedAt`, `endedAt` and `seq` =
   * `expectedSeq + 1`, only if the stored `seq` still is `expectedSeq` (one statement: of two
   * writers advancing the same step, one wins). False otherwise or when the run is absent.
   */
  save(run: FlowRun, expectedSeq: number): Promise<boolean>;
  addStep(step: FlowRunStep): Promise<void>;
  /** The run's steps by `seq`. */
  steps(companyId: number, runId: number): Promise<FlowRunStep[]>;
}

/** A run as `POST /flows/:flowId/execute` answers it. */
export interface FlowRunView {
  id: number;
  flowId: number;
  version: number;
  ticketId: number;
  contactId: number;
  chatappId: number;
  status: FlowRunStatus;
  nodeId: string | null;
  variables: Record<string, string>;
  waitingUntil: string | null;
  trigger: FlowTriggerType;
  createdAt: string;
  updatedAt: string;
  endedAt: string | null;
}

export function toFlowRunView(r: FlowRun): FlowRunView {
  return {
    id: r.id,
    flowId: r.flowId,
    version: r.version,
    ticketId: r.ticketId,
    contactId: r.contactId,
    chatappId: r.connectionId,
    status: r.status,
    nodeId: r.state.nodeId,
    variables: { ...r.state.variables },
    waitingUntil: r.waitingUntil?.toISOString() ?? null,
    trigger: r.trigger,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
    endedAt: r.endedAt?.toISOString() ?? null,
  };
}

/** An HTTP node's call, made by a job after the commit. Adapters refuse private addresses unless the deployment allows them. */
export interface FlowHttp {
  /** The status and the body (JSON when it parses, else the text); a refused address, a timeout or no answer: `{ error }`. */
  call(request: FlowHttpRequest): Promise<{ readonly status: number; readonly body: unknown } | { readonly error: string }>;
}
