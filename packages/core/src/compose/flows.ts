import type { Connections } from '../connections/ports.js';
import type { RealtimeEvent } from '../events/realtime-event.js';
import type { FileLists } from '../files/ports.js';
import { AiAgentConfigChat, AiAgentOptions, OptimizePrompt } from '../flows/ai-agent.js';
import { AddFlowEdge, AddFlowNode, RemoveFlowEdge, RemoveFlowNode, SaveFlowGraph, UpdateFlowNode } from '../flows/edit-flow-graph.js';
import { CreateFlow, DeleteFlow, ListFlows, ShowFlow, UpdateFlow } from '../flows/manage-flows.js';
import type { Flows } from '../flows/ports.js';
import { PublishFlow } from '../flows/publish-flow.js';
import { SimulateFlow } from '../flows/simulate-flow.js';
import type { Users } from '../identity/ports.js';
import { DEFAULT_PROMPT_SETTINGS, type PromptSettings } from '../prompts/manage-prompts.js';
import type { LanguageModel, Prompts } from '../prompts/ports.js';
import type { QueueIntegrations, Queues } from '../queues/ports.js';
import type { RealtimeEvents } from '../realtime/ports.js';
import { companyTimeZone } from '../settings/company-time-zone.js';
import type { Settings } from '../settings/ports.js';
import type { Clock, IdGenerator, SecretCipher, Transaction } from '../shared/ports.js';
import type { Tags } from '../tags/ports.js';
import { isWithinBusinessHours } from '../tenancy/business-hours.js';
import { PlanGuard } from '../tenancy/plan-guard.js';
import type { Companies, Plans } from '../tenancy/ports.js';

/** The flows' own port: their table and their published versions. */
export interface FlowPorts {
  readonly flows: Flows;
}

/** What flows borrow: the rows their nodes name, the prompts' model and settings, the company's hours. */
interface SharedPorts {
  readonly connections: Connections;
  readonly queues: Queues;
  readonly users: Users;
  readonly tags: Tags;
  readonly fileLists: FileLists;
  readonly prompts: Prompts;
  readonly queueIntegrations: QueueIntegrations;
  readonly companies: Companies;
  readonly plans: Plans;
  readonly settings: Settings;
  readonly languageModel: LanguageModel;
  readonly promptSettings?: PromptSettings;
  readonly secretCipher: SecretCipher;
  readonly realtime: RealtimeEvents<RealtimeEvent>;
  readonly tx: Transaction;
  readonly clock: Clock;
  readonly ids: IdGenerator;
}

/** Flows (the flow builder): drafts, published versions, the step engine's simulation, and the AI-agent helpers of its editor. */
export function createFlows(p: FlowPorts & SharedPorts) {
  const { flows, connections, realtime, tx, clock, ids } = p;
  const settings = p.promptSettings ?? DEFAULT_PROMPT_SETTINGS;
  const deps = { flows, connections, realtime, tx, clock };
  const plan = new PlanGuard({ companies: p.companies, plans: p.plans });
  const ai = { prompts: p.prompts, model: p.languageModel, cipher: p.secretCipher, plan, clock, settings };
  const businessHours = async (companyId: number) => {
    const company = await p.companies.findById(companyId);
    const zone = await companyTimeZone(p.settings, companyId);
    return (at: Date) => !company || isWithinBusinessHours(company.schedules, at, zone);
  };
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
    publishFlow: new PublishFlow({
      ...deps, queues: p.queues, users: p.users, tags: p.tags, fileLists: p.fileLists, prompts: p.prompts, queueIntegrations: p.queueIntegrations,
      models: settings.models,
    }),
    simulateFlow: new SimulateFlow({ flows, clock, businessHours }),
    aiAgentOptions: new AiAgentOptions(ai),
    aiAgentConfigChat: new AiAgentConfigChat(ai),
    optimizePrompt: new OptimizePrompt(ai),
  };
}
export type FlowsApi = ReturnType<typeof createFlows>;
