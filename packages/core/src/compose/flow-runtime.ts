import type { Connections } from '../connections/ports.js';
import type { Contacts } from '../contacts/ports.js';
import { messageContexts } from '../conversations/message-context.js';
import type { RealtimeEvent } from '../events/realtime-event.js';
import type { FileLists } from '../files/ports.js';
import { FlowActions } from '../flows/flow-actions.js';
import { FlowCalls } from '../flows/flow-calls.js';
import { FlowRunJobs } from '../flows/flow-run-jobs.js';
import { FlowRunSteps } from '../flows/flow-run-steps.js';
import { FlowRunner } from '../flows/flow-runner.js';
import { FlowSender } from '../flows/flow-sender.js';
import { FlowTargets } from '../flows/flow-target.js';
import { FlowTicketMoves } from '../flows/flow-ticket-moves.js';
import type { FlowHttp, FlowRuns } from '../flows/flow-runs.js';
import type { Flows } from '../flows/ports.js';
import type { Users } from '../identity/ports.js';
import type { Jobs } from '../jobs/jobs.js';
import type { Message } from '../messages/message.js';
import type { OutboundMessages } from '../messages/outbound.js';
import type { Messages } from '../messages/ports.js';
import type { Outbox } from '../outbox/ports.js';
import type { LanguageModel, Prompts } from '../prompts/ports.js';
import type { Queues } from '../queues/ports.js';
import type { RealtimeEvents } from '../realtime/ports.js';
import { companyTimeZone } from '../settings/company-time-zone.js';
import type { Settings } from '../settings/ports.js';
import type { BlobStorage, Clock, IdGenerator, SecretCipher, Transaction } from '../shared/ports.js';
import type { Tags } from '../tags/ports.js';
import { isWithinBusinessHours } from '../tenancy/business-hours.js';
import type { Companies } from '../tenancy/ports.js';
import type { Tickets } from '../tickets/ports.js';
import { publishCreatedMessages } from '../tickets/publish-messages.js';
import { TicketPresenter } from '../tickets/ticket-details.js';
import type { TicketPlace } from '../tickets/ticket-events.js';
import type { Ticket } from '../tickets/ticket.js';

/** What running flows needs: the flows' tables and calls, and the rows, send path and jobs of the rest. */
export interface FlowRuntimePorts {
  readonly flows: Flows;
  readonly flowRuns: FlowRuns;
  readonly flowHttp: FlowHttp;
  readonly tickets: Tickets;
  readonly contacts: Contacts;
  readonly connections: Connections;
  readonly messages: Messages;
  readonly jobQueue: Jobs;
  readonly tags: Tags;
  readonly queues: Queues;
  readonly users: Users;
  readonly fileLists: FileLists;
  readonly blobs: BlobStorage;
  readonly prompts: Prompts;
  readonly languageModel: LanguageModel;
  readonly secretCipher: SecretCipher;
  readonly companies: Companies;
  readonly settings: Settings;
  readonly realtime: RealtimeEvents<RealtimeEvent>;
  readonly tx: Transaction;
  readonly clock: Clock;
  readonly ids: IdGenerator;
}

/** Whether the ports run flows (an application composed without the flows feature routes without them). */
export function hasFlowRuntime(p: object): p is FlowRuntimePorts {
  return 'flowRuns' in p && 'flowHttp' in p && 'flows' in p && 'jobQueue' in p && 'fileLists' in p && 'languageModel' in p;
}

/** The company's business hours on its clock, as a test of an instant (conditions on `businessHours`). */
export function businessHoursOf(p: Pick<FlowRuntimePorts, 'companies' | 'settings'>) {
  return async (companyId: number) => {
    const company = await p.companies.findById(companyId);
    const zone = await companyTimeZone(p.settings, companyId);
    return (at: Date) => !company || isWithinBusinessHours(company.schedules, at, zone);
  };
}

/** The flows' runtime over the one send path (`outbound` and its `outbox`): the runner (the routing engine's and the manual trigger's) and the runs' jobs, on one step engine. */
export function flowRuntime(
  p: FlowRuntimePorts,
  send: { readonly outbound: OutboundMessages; readonly outbox: Outbox },
): { runner: FlowRunner; runJobs: FlowRunJobs } {
  const { tickets, contacts, connections, messages, users, tags, queues, realtime, clock } = p;
  const presenter = new TicketPresenter({ contacts, connections, users, realtime, tags, queues });
  const contexts = messageContexts({ tickets, contacts, queues, messages });
  const announce = async (ticket: Ticket, sent: readonly Message[], before: TicketPlace | 'created') => {
    const details = before === 'created' ? await presenter.publish(ticket, 'create') : await presenter.publish(ticket, 'update', before);
    await publishCreatedMessages({ realtime, contexts }, details, sent);
  };
  const actions = new FlowActions({
    sender: new FlowSender({ outbound: send.outbound, fileLists: p.fileLists, blobs: p.blobs }),
    moves: new FlowTicketMoves({ tags, queues, users, clock }),
    jobQueue: p.jobQueue,
    outbox: send.outbox,
    ids: p.ids,
    clock,
  });
  const steps = new FlowRunSteps({ flows: p.flows, runs: p.flowRuns, actions, clock, businessHours: businessHoursOf(p) });
  const calls = new FlowCalls({ http: p.flowHttp, model: p.languageModel, prompts: p.prompts, cipher: p.secretCipher, contacts });
  const targets = new FlowTargets({ tickets, contacts, connections, messages });
  return {
    runner: new FlowRunner({ flows: p.flows, runs: p.flowRuns, tickets, steps, announce }),
    runJobs: new FlowRunJobs({ runs: p.flowRuns, tickets, targets, steps, calls, tx: p.tx, clock, announce }),
  };
}

/** The flow runner over the one send path: the routing engine's part of the flows. */
export function flowRunner(p: FlowRuntimePorts, send: { readonly outbound: OutboundMessages; readonly outbox: Outbox }): FlowRunner {
  return flowRuntime(p, send).runner;
}
