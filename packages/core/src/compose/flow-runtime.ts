import type { Connections } from '../connections/ports.js';
import type { Contacts } from '../contacts/ports.js';
import { messageContexts } from '../conversations/message-context.js';
import type { RealtimeEvent } from '../events/realtime-event.js';
import type { FileLists } from '../files/ports.js';
import { FlowRunner } from '../flows/flow-runner.js';
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

/** The flow runner over the one send path (`outbound` and its `outbox`): the routing engine and the flows' jobs share it. */
export function flowRunner(p: FlowRuntimePorts, send: { readonly outbound: OutboundMessages; readonly outbox: Outbox }): FlowRunner {
  const { tickets, contacts, connections, messages, users, tags, queues, realtime } = p;
  const presenter = new TicketPresenter({ contacts, connections, users, realtime, tags, queues });
  const contexts = messageContexts({ tickets, contacts, queues, messages });
  const announce = async (ticket: Ticket, sent: readonly Message[], before: TicketPlace | 'created') => {
    const details = before === 'created' ? await presenter.publish(ticket, 'create') : await presenter.publish(ticket, 'update', before);
    await publishCreatedMessages({ realtime, contexts }, details, sent);
  };
  return new FlowRunner({
    flows: p.flows,
    runs: p.flowRuns,
    tickets,
    contacts,
    connections,
    messages,
    outbound: send.outbound,
    outbox: send.outbox,
    jobQueue: p.jobQueue,
    tags,
    queues,
    users,
    fileLists: p.fileLists,
    blobs: p.blobs,
    http: p.flowHttp,
    model: p.languageModel,
    prompts: p.prompts,
    cipher: p.secretCipher,
    tx: p.tx,
    clock: p.clock,
    ids: p.ids,
    businessHours: businessHoursOf(p),
    announce,
  });
}
