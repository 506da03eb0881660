import type { Connection } from '../connections/connection.js';
import type { Connections } from '../connections/ports.js';
import type { Contact } from '../contacts/contact.js';
import type { Contacts } from '../contacts/ports.js';
import { enqueueIntegrationDelivery } from '../conversations/deliver-integration-event.js';
import type { InboundFlows, RoutedMessage } from '../conversations/queue-router.js';
import type { FileLists } from '../files/ports.js';
import type { Users } from '../identity/ports.js';
import type { Jobs } from '../jobs/jobs.js';
import type { Message } from '../messages/message.js';
import type { OutboundMessages } from '../messages/outbound.js';
import type { Messages } from '../messages/ports.js';
import type { Outbox } from '../outbox/ports.js';
import { systemTurn } from '../prompts/prompt-decider.js';
import type { ChatTurn, LanguageModel, Prompts } from '../prompts/ports.js';
import { openPromptApiKey } from '../prompts/prompt.js';
import type { Queues } from '../queues/ports.js';
import { ConflictError, DomainError } from '../shared/errors.js';
import type { BlobStorage, Clock, IdGenerator, SecretCipher, Transaction } from '../shared/ports.js';
import { foldForSearch } from '../shared/text.js';
import type { Tags } from '../tags/ports.js';
import type { Tickets } from '../tickets/ports.js';
import type { Ticket } from '../tickets/ticket.js';
import type { TicketPlace } from '../tickets/ticket-events.js';
import { step } from './engine.js';
import type { Flow, FlowTrigger, FlowTriggerType } from './flow.js';
import type { InlineModel } from './flow-graph.js';
import { initialState, type FlowAction, type FlowAiResult, type FlowHttpRequest, type FlowInput, type FlowState } from './flow-run.js';
import { ACTIVE_RUN_STATUSES, type FlowHttp, type FlowRun, type FlowRunStatus, type FlowRuns } from './flow-runs.js';
import type { Flows } from './ports.js';

/** The one-off job that feeds an interval's end or a question's timeout to a run, at `waitingUntil`. */
export const FLOW_TIMER_JOB = 'flows.timer';
/** The one-off job that makes an HTTP node's or an AI agent's call after the commit and feeds the result back. */
export const FLOW_CALL_JOB = 'flows.call';
/** `goToFlow` chains one step may follow (a flow going to itself does not loop for ever). */
const MAX_FLOW_HOPS = 10;

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

/** Where a run talks: the ticket is changed in place, and saved by whoever opened the transaction. */
interface Target {
  readonly connection: Connection;
  readonly contact: Contact;
  readonly ticket: Ticket;
  /** The inbound message being routed (an integration hand-over carries it). */
  readonly message?: Message;
}

export interface FlowRunnerDeps {
  readonly flows: Flows;
  readonly runs: FlowRuns;
  readonly tickets: Tickets;
  readonly contacts: Pick<Contacts, 'findById'>;
  readonly connections: Pick<Connections, 'findById'>;
  readonly messages: Pick<Messages, 'findById'>;
  readonly outbound: OutboundMessages;
  readonly outbox: Outbox;
  readonly jobQueue: Pick<Jobs, 'enqueue'>;
  readonly tags: Pick<Tags, 'findByIds' | 'addTicketTag' | 'removeTicketTags'>;
  readonly queues: Pick<Queues, 'findById'>;
  readonly users: Pick<Users, 'findById'>;
  readonly fileLists: Pick<FileLists, 'options'>;
  readonly blobs: Pick<BlobStorage, 'publicUrl'>;
  readonly http: FlowHttp;
  readonly model: LanguageModel;
  readonly prompts: Pick<Prompts, 'findById'>;
  readonly cipher: SecretCipher;
  readonly tx: Transaction;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  /** The company's business hours, as a test of an instant. */
  readonly businessHours: (companyId: number) => Promise<(at: Date) => boolean>;
  /** Tells the operators, after the commit, about a ticket changed outside the inbound path (from `before`; `created` a new one) and the messages sent. */
  readonly announce: (ticket: Ticket, sent: readonly Message[], before: TicketPlace | 'created') => Promise<void>;
}

/** A run talks only to a waiting ticket nobody took: an operator taking, transferring or closing it cancels the run. */
export const runMayTalk = (t: Pick<Ticket, 'status' | 'userId'>) => t.status === 'pending' && t.userId === null;

const isActive = (r: FlowRun) => ACTIVE_RUN_STATUSES.includes(r.status);

/**
 * Runs published flows on tickets, on the step engine: the state is a `flow_runs` row, each step
 * saved with compare-and-set on its `seq` (two writers of one step: one wins, the other's
 * transaction rolls back and is tried again). Writes (messages through the one send path, tags,
 * transfer, close) happen in the transaction of the input that caused them; calls (HTTP, model) and
 * timers are jobs, whose results come back as the engine's next input. Nothing sleeps.
 */
export class FlowRunner implements InboundFlows {
  constructor(private readonly deps: FlowRunnerDeps) {}

  /** The inbound path: the ticket's active run takes the message (once per message), unless the ticket was taken, which cancels it. */
  async resume(m: RoutedMessage): Promise<Message[] | null> {
    // A ticket created by this very message has no run yet.
    if (m.ticketCreated) return null;
    const run = await this.deps.runs.activeOfTicket(m.ticket.companyId, m.ticket.id);
    if (!run) return null;
    if (!runMayTalk(m.ticket)) {
      await this.finish(run, 'cancelled', 'cancel');
      return null;
    }
    if (run.lastMessageId === m.message.id) return [];
    return this.advance(run, { answer: m.message.body }, m, 0, m.message.id);
  }

  /**
   * The inbound path: a run starts when an active, published flow's trigger matches, by ascending
   * flow id — a keyword first, then, on a new conversation, `welcome` (the contact's first on this
   * connection) or `noMatch` (a returning contact).
   */
  async trigger(m: RoutedMessage): Promise<Message[] | null> {
    const { ticket, connection } = m;
    if (!runMayTalk(ticket)) return null;
    const flows = await this.deps.flows.triggered(ticket.companyId);
    if (!flows.length) return null;
    const on = (t: FlowTrigger) => t.chatappIds.length === 0 || t.chatappIds.includes(connection.id);
    const text = foldForSearch(m.message.body.trim());
    const said = (t: FlowTrigger) =>
      text !== '' && t.keywords.some((k) => (k.match === 'exact' ? foldForSearch(k.text) === text : text.includes(foldForSearch(k.text))));
    let type: FlowTriggerType = 'keyword';
    let flow = flows.find((f) => f.triggers.some((t) => t.type === 'keyword' && on(t) && said(t)));
    if (!flow && m.opening) {
      const returning = (await this.deps.tickets.findLatestClosed(ticket.companyId, m.contact.id, connection.id)) !== null;
      type = returning ? 'noMatch' : 'welcome';
      flow = flows.find((f) => f.triggers.some((t) => t.type === type && on(t)));
    }
    if (!flow) return null;
    return (await this.start(flow, type, m, m.message.id)).sent;
  }

  /**
   * Starts a run of the flow's published version on the ticket, in the caller's transaction (the
   * caller saves the ticket). ConflictError `ERR_FLOW_RUN_ACTIVE` when the ticket already has one.
   */
  async start(flow: Flow, trigger: FlowTriggerType, target: Target, messageId: string | null, hops = 0): Promise<{ run: FlowRun; sent: Message[] }> {
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

  /** Tells the operators about a ticket changed outside the inbound path, after the commit (never throws). */
  async announce(ticket: Ticket, sent: readonly Message[], before: TicketPlace | 'created'): Promise<void> {
    await this.deps.announce(ticket, sent, before).catch(() => undefined);
  }

  /** A timer's job: the interval ended or the question timed out, unless the run moved on or the ticket was taken. */
  async onTimer(p: FlowTimerPayload): Promise<void> {
    await this.fromJob(p, { [p.input]: true } as FlowInput);
  }

  /** A call's job: the call is made outside any transaction, its result fed to the run if it still waits for it. */
  async onCall(p: FlowCallPayload): Promise<void> {
    const run = await this.deps.runs.findById(p.companyId, p.runId);
    if (!run || run.seq !== p.seq || !isActive(run)) return;
    if (p.kind === 'http') {
      const httpResult = await this.deps.http.call(p.request).catch((err: unknown) => ({ error: err instanceof Error ? err.message : 'request failed' }));
      await this.fromJob(p, { httpResult });
    } else {
      await this.fromJob(p, { aiResult: await this.askModel(run, p) });
    }
  }

  /** Cancels a run (the ticket was taken, or it is failed by an error): it never sends again. */
  async finish(run: FlowRun, status: Extract<FlowRunStatus, 'cancelled' | 'failed'>, input: string): Promise<void> {
    const now = this.deps.clock.now();
    const next: FlowRun = { ...run, status, waitingUntil: null, updatedAt: now, endedAt: now, seq: run.seq + 1 };
    if (!(await this.deps.runs.save(next, run.seq))) throw new ConflictError('ERR_FLOW_RUN_CHANGED');
    await this.deps.runs.addStep({ runId: run.id, companyId: run.companyId, seq: next.seq, nodeId: run.state.nodeId, input, actions: [], at: now });
  }

  private async fromJob(p: { companyId: number; runId: number; seq: number }, input: FlowInput): Promise<void> {
    const { runs, tickets, contacts, connections, tx } = this.deps;
    const done = await tx.run(async () => {
      const run = await runs.findById(p.companyId, p.runId);
      if (!run || run.seq !== p.seq || !isActive(run)) return null;
      const ticket = await tickets.findById(run.companyId, run.ticketId);
      const contact = ticket && (await contacts.findById(run.companyId, ticket.contactId));
      const connection = ticket && (await connections.findById(run.companyId, ticket.connectionId));
      if (!ticket || !contact || !connection || !runMayTalk(ticket)) {
        await this.finish(run, 'cancelled', 'cancel');
        return null;
      }
      const message = run.lastMessageId ? await this.deps.messages.findById(run.companyId, run.lastMessageId) : null;
      const place: TicketPlace = { status: ticket.status, userId: ticket.userId, queueId: ticket.queueId };
      const before = JSON.stringify(ticket);
      const sent = await this.advance(run, input, { connection, contact, ticket, ...(message ? { message } : {}) }, 0, null);
      if (sent.length) Object.assign(ticket, { lastMessage: sent[sent.length - 1]!.body });
      const changed = JSON.stringify(ticket) !== before;
      if (changed) await tickets.update({ ...ticket, updatedAt: this.deps.clock.now() });
      return changed ? { ticket, sent, place } : null;
    });
    if (done) await this.announce(done.ticket, done.sent, done.place);
  }

  /**
   * One step of the run on its own version: the engine's actions performed, the state saved with
   * compare-and-set, the step recorded, the next waits scheduled. A graph the engine refuses (a
   * loop) fails the run; an input it does not expect changes nothing.
   */
  private async advance(run: FlowRun, input: FlowInput, target: Target, hops: number, messageId: string | null): Promise<Message[]> {
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
      sent.push(...(await this.perform(next, action, target)));
      if (action.type === 'goToFlow') goTo = action.flowId;
    }
    if (goTo !== null && hops < MAX_FLOW_HOPS) {
      const flow = await flows.findById(run.companyId, goTo);
      if (flow?.publishedVersion != null) sent.push(...(await this.start(flow, run.trigger, target, messageId, hops + 1)).sent);
    }
    return sent;
  }

  /** One action: writes now, calls and timers as jobs carrying the run's new `seq`. */
  private async perform(run: FlowRun, a: FlowAction, target: Target): Promise<Message[]> {
    const { outbound, jobQueue, clock } = this.deps;
    const { ticket, contact, connection } = target;
    const job = { companyId: run.companyId, runId: run.id, seq: run.seq };
    const key = `flow-run-${run.id}-${run.seq}`;
    switch (a.type) {
      case 'sendText':
        return [await outbound.enqueue({ connection, ticket, contact, body: a.text })];
      case 'sendMedia':
        return this.sendMedia(a.fileListId, a.fileOptionId, target);
      case 'setTags': {
        const { tags } = this.deps;
        const known = new Set((await tags.findByIds(run.companyId, [...a.add, ...a.remove])).map((t) => t.id));
        for (const id of a.add.filter((i) => known.has(i))) await tags.addTicketTag(run.companyId, ticket.id, id);
        const removed = a.remove.filter((i) => known.has(i));
        if (removed.length) await tags.removeTicketTags(run.companyId, ticket.id, removed);
        return [];
      }
      case 'transfer': {
        const queue = a.queueId === null ? null : await this.deps.queues.findById(run.companyId, a.queueId);
        const user = a.userId === null ? null : await this.deps.users.findById(run.companyId, a.userId);
        if (queue) Object.assign(ticket, { queueId: queue.id, queueOptionId: null });
        if (user?.companyId === run.companyId) Object.assign(ticket, { status: 'open', userId: user.id });
        ticket.botActive = false;
        return [];
      }
      case 'close':
        Object.assign(ticket, { status: 'closed', closedAt: clock.now(), botActive: false });
        return [];
      case 'wait':
        if (a.until) {
          const input = a.kind === 'interval' ? 'intervalDone' : 'timeout';
          await jobQueue.enqueue<FlowTimerPayload>({ name: FLOW_TIMER_JOB, at: new Date(a.until), payload: { ...job, input }, key });
        }
        return [];
      case 'callHttp':
        await jobQueue.enqueue<FlowCallPayload>({ name: FLOW_CALL_JOB, at: clock.now(), payload: { ...job, kind: 'http', request: a.request }, key });
        return [];
      case 'callAi':
        await jobQueue.enqueue<FlowCallPayload>({
          name: FLOW_CALL_JOB,
          at: clock.now(),
          payload: { ...job, kind: 'ai', promptId: a.promptId, model: a.model, messages: a.messages },
          key,
        });
        return [];
      case 'startIntegration':
        if (target.message)
          await enqueueIntegrationDelivery(this.deps, { integrationId: a.integrationId, connection, contact, ticket, message: target.message });
        return [];
      case 'goToFlow':
      case 'end':
        return [];
      default: {
        const unknown: never = a;
        return unknown;
      }
    }
  }

  /** A file list's files (one option, or all with a file) through the one send path, each captioned with its option's name. */
  private async sendMedia(fileListId: number, optionId: number | null, target: Target): Promise<Message[]> {
    const { ticket, contact, connection } = target;
    const options = (await this.deps.fileLists.options(ticket.companyId, [fileListId]))
      .filter((o) => (optionId === null || o.id === optionId) && o.blobKey !== null)
      .sort((a, b) => a.position - b.position || a.id - b.id);
    const sent: Message[] = [];
    for (const o of options) {
      const media = {
        key: o.blobKey!,
        url: this.deps.blobs.publicUrl(o.blobKey!),
        contentType: o.mediaType ?? 'application/octet-stream',
        filename: o.fileName ?? o.name,
        size: o.size ?? 0,
      };
      sent.push(await this.deps.outbound.enqueue({ connection, ticket, contact, body: o.name, media }));
    }
    return sent;
  }

  /** The model's answer to an AI agent's turn: a company prompt (its key opened, its instructions first) or the node's keyless model. */
  private async askModel(run: FlowRun, p: Extract<FlowCallPayload, { kind: 'ai' }>): Promise<FlowAiResult> {
    try {
      const contact = await this.deps.contacts.findById(run.companyId, run.contactId);
      if (p.promptId !== null) {
        const prompt = await this.deps.prompts.findById(run.companyId, p.promptId);
        if (!prompt) return { error: 'ERR_NO_PROMPT_FOUND' };
        const endpoint = { baseUrl: prompt.baseUrl, model: prompt.model, apiKey: openPromptApiKey(this.deps.cipher, prompt) };
        const messages = [systemTurn(prompt, { name: contact?.name ?? '' }), ...p.messages];
        return { text: (await this.deps.model.complete(endpoint, { messages, maxTokens: prompt.maxTokens, temperature: prompt.temperature })).text };
      }
      if (!p.model) return { error: 'ERR_FLOW_AI_CONFIG_REQUIRED' };
      const m = p.model;
      const messages = [systemTurn({ prompt: m.instructions, maxTokens: m.maxTokens }, { name: contact?.name ?? '' }), ...p.messages];
      const answer = await this.deps.model.complete(
        { baseUrl: m.baseUrl, model: m.model, apiKey: null },
        { messages, maxTokens: m.maxTokens, temperature: m.temperature },
      );
      return { text: answer.text };
    } catch (err) {
      return { error: err instanceof DomainError ? err.code : 'ERR_LANGUAGE_MODEL_UNAVAILABLE' };
    }
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
