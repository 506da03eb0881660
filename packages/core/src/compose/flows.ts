import { AiAgentConfigChat, AiAgentOptions, OptimizePrompt } from '../flows/ai-agent.js';
import { AddFlowEdge, AddFlowNode, RemoveFlowEdge, RemoveFlowNode, SaveFlowGraph, UpdateFlowNode } from '../flows/edit-flow-graph.js';
import { CreateFlow, DeleteFlow, ListFlows, ShowFlow, UpdateFlow } from '../flows/manage-flows.js';
import type { Flows } from '../flows/ports.js';
import { ExecuteFlow } from '../flows/execute-flow.js';
import { FLOW_CALL_JOB, FLOW_TIMER_JOB, type FlowCallPayload, type FlowTimerPayload } from '../flows/flow-jobs.js';
import type { FlowHttp, FlowRuns } from '../flows/flow-runs.js';
import type { JobDefinition } from '../jobs/job.js';
import { businessHoursOf, flowRuntime } from './flow-runtime.js';
import { sendPath } from './messaging.js';
import { PublishFlow } from '../flows/publish-flow.js';
import { FlowReferences } from '../flows/flow-references.js';
import { SimulateFlow } from '../flows/simulate-flow.js';
import { DEFAULT_PROMPT_SETTINGS } from '../prompts/manage-prompts.js';
import { PlanGuard } from '../tenancy/plan-guard.js';
import type { Needs } from './shared-ports.js';

/** The flows' own ports: their tables (flows, published versions, runs) and the HTTP nodes' calls. */
export interface FlowPorts {
  readonly flows: Flows;
  readonly flowRuns: FlowRuns;
  readonly flowHttp: FlowHttp;
}

/**
 * Flows (the flow builder): drafts, published versions, the step engine's simulation, the AI-agent
 * helpers of its editor, and runs: the manual trigger (`executeFlow`) and the runs' jobs (the
 * inbound triggers and answers reach runs through the routing engine, wired in messaging).
 */
export function createFlows(p: FlowPorts & Needs<'prompts' | 'secretCipher'>) {
  const { flows, connections, realtime, tx, clock, ids } = p;
  const settings = p.promptSettings ?? DEFAULT_PROMPT_SETTINGS;
  const deps = { flows, connections, realtime, tx, clock };
  const plan = new PlanGuard({ companies: p.companies, plans: p.plans });
  const ai = { prompts: p.prompts, model: p.languageModel, cipher: p.secretCipher, plan, clock, settings };
  const businessHours = businessHoursOf(p);
  const { runner, runJobs } = flowRuntime(p, sendPath(p));
  const references = new FlowReferences({
    flows,
    queues: p.queues,
    users: p.users,
    tags: p.tags,
    fileLists: p.fileLists,
    prompts: p.prompts,
    queueIntegrations: p.queueIntegrations,
    models: settings.models,
  });
  return {
    listFlows: new ListFlows(deps),
    showFlow: new ShowFlow(deps),
    createFlow: new CreateFlow(deps),
    updateFlow: new UpdateFlow(deps),
    deleteFlow: new DeleteFlow(deps),
    saveFlowGraph: new SaveFlowGraph(deps),
    addFlowNode: new AddFlowNode({ ...deps, ids }),
    updateFlowNode: new UpdateFlowNode(deps),
    removeFlowNode: new RemoveFlowNode(deps),
    addFlowEdge: new AddFlowEdge({ ...deps, ids }),
    removeFlowEdge: new RemoveFlowEdge(deps),
    publishFlow: new PublishFlow({ flows, realtime, tx, clock, references }),
    simulateFlow: new SimulateFlow({ flows, clock, businessHours }),
    aiAgentOptions: new AiAgentOptions(ai),
    aiAgentConfigChat: new AiAgentConfigChat(ai),
    optimizePrompt: new OptimizePrompt(ai),
    executeFlow: new ExecuteFlow({ flows, tickets: p.tickets, contacts: p.contacts, connections, runner, tx, clock, ids }),
    /** The runs' one-off jobs: timers (intervals, question timeouts) and calls (HTTP, model), each feeding its result to the run. */
    jobs: (): JobDefinition<any>[] => [
      {
        name: FLOW_TIMER_JOB,
        atomic: false,
        run: async (job) => {
          await runJobs.onTimer(job.payload as FlowTimerPayload);
        },
      },
      // Its own transactions after the call; longer than the slowest HTTP node (30 s) or model answer.
      {
        name: FLOW_CALL_JOB,
        atomic: false,
        leaseMs: 120_000,
        run: async (job) => {
          await runJobs.onCall(job.payload as FlowCallPayload);
        },
      },
    ],
  };
}
export type FlowsApi = ReturnType<typeof createFlows>;
