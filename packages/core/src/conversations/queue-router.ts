import type { Users } from '../identity/ports.js';
import type { Connection } from '../connections/connection.js';
import type { Contact } from '../contacts/contact.js';
import type { Message } from '../messages/message.js';
import type { Ticket } from '../tickets/ticket.js';
import type { OutboundMessages } from '../messages/outbound.js';
import type { Clock } from '../shared/ports.js';
import type { RoutingCommands } from './routing-commands.js';
import type { RoutingSettings } from './routing-settings.js';
import type { QueueOptions, Queues } from '../queues/ports.js';
import { byQueueOrder, type Queue } from '../queues/queue.js';
import { byMenuOrder, menuLines, menuText, normalizeReply, type QueueOption } from '../queues/queue-option.js';
import { foldForSearch } from '../shared/text.js';

/** Invalid replies after which the menu is no longer sent again: the ticket waits for a human. */
export const MAX_BOT_RETRIES = 3;

/**
 * The flows' part of the routing (flows/flow-runner.ts): `resume` feeds the message to the ticket's
 * active run, `trigger` starts a run of a published flow whose trigger the message matches. Each
 * answers the messages sent, or null when no flow took the message.
 */
export interface InboundFlows {
  resume(m: RoutedMessage): Promise<Message[] | null>;
  trigger(m: RoutedMessage): Promise<Message[] | null>;
}

/** One inbound message, already stored, on its (mutable) ticket, inside RouteInbound's transaction. */
export interface RoutedMessage {
  readonly connection: Connection;
  readonly contact: Contact;
  readonly ticket: Ticket;
  readonly message: Message;
  /** The first message of a new conversation: greeting, menu or out-of-hours message go out now. */
  readonly opening: boolean;
  /** The ticket was created by this message's transaction: nothing (a flow run, say) can be attached to it yet. */
  readonly ticketCreated?: boolean;
}

/**
 * The routing engine: the queue menu, then the menu tree of the chosen queue (queue options and
 * chatbots alike). Its state lives on the ticket (`queueId`, `queueOptionId`, `botAttempts`,
 * `botActive`) and is saved with the inbound message that moved it, so a duplicate (stopped
 * before this runs) changes nothing and the same replies always take the same path.
 *
 * - Opening: out of the company's hours (`scheduleType` `company`) the out-of-hours message
 *   goes out instead of anything else. Otherwise the connection's greeting, then: no queue,
 *   nothing more; one queue, the ticket enters it; several, the numbered queue menu.
 * - Entering a queue: out of its hours (`scheduleType` `queue`) its out-of-hours message; else
 *   its greeting with the menu of its top-level options, or just the greeting when it has none.
 * - A reply picks a line of the current menu by its key (a queue also by its name). A node with
 *   children shows their menu; forwarding to a queue or a user, closing, or a leaf end the bot.
 *   An invalid reply sends the menu again, `MAX_BOT_RETRIES` times; the next one hands over.
 * - Assistants (prompts): a connection with a prompt lets it answer a new conversation instead of
 *   the greeting and menu; a queue with a prompt lets it answer once the ticket is in the queue.
 *   Each inbound message then goes to the assistant (a command answered after the commit) until
 *   it hands over, which turns the bot off.
 *
 * - Responsible sellers: with `DirectTicketsToWallets`, a new conversation of a contact with a
 *   seller goes to that seller before anything above (`toSeller`).
 * - Flows (`flows`, when wired): after the seller rule and before everything else, the ticket's
 *   active run takes the message (the answer resumes it); else a published, active flow whose
 *   trigger matches starts a run — a keyword, then on a new conversation `welcome` (the contact's
 *   first on the connection) or `noMatch` (a returning contact). Out-of-hours, greeting, menus
 *   and assistants come only when no flow took the message.
 *
 * Groups and contacts with `disableBot` only get the connection's greeting. Operators end the bot
 * by taking, transferring or closing the ticket; it only talks to pending, unassigned tickets.
 */
export class QueueRouter {
  constructor(
    private readonly deps: {
      queues: Queues;
      options: QueueOptions;
      /** The company's settings and opening hours. */
      settings: RoutingSettings;
      users: Users;
      outbound: OutboundMessages;
      /** The assistants' answers and the integrations' deliveries, as commands. */
      commands: RoutingCommands;
      clock: Clock;
      flows?: InboundFlows;
    },
  ) {}

  /** Moves the ticket (the caller saves it) and returns the messages the bot sent. */
  async route(m: RoutedMessage): Promise<Message[]> {
    const sent = await this.talk(m);
    await this.handToIntegration(m);
    return sent;
  }

  private async talk(m: RoutedMessage): Promise<Message[]> {
    const { connection, contact, ticket } = m;
    const toSeller = m.opening && !ticket.isGroup ? await this.toSeller(m) : null;
    if (toSeller) return toSeller;
    if (ticket.isGroup || contact.disableBot) {
      return m.opening && !ticket.isGroup && connection.greetingMessage ? [await this.send(m, connection.greetingMessage)] : [];
    }
    const byFlow = this.deps.flows ? ((await this.deps.flows.resume(m)) ?? (await this.deps.flows.trigger(m))) : null;
    if (byFlow) return byFlow;
    if (m.opening) return this.open(m);
    if (!ticket.botActive || ticket.status !== 'pending' || ticket.userId !== null) return [];
    if (await this.askAssistant(m)) return [];
    return ticket.queueId === null ? this.chooseQueue(m) : this.walk(m, ticket.queueId);
  }

  /**
   * With the company setting `DirectTicketsToWallets`, a new conversation of a contact whose
   * responsible seller (its wallet's owner) is a user of the company opens assigned to that seller,
   * in the connection's queue when it offers exactly one: no menu, chatbot or assistant. The
   * contact still gets the out-of-hours message when the company is closed, else the connection's
   * greeting. Null when the rule does not apply.
   */
  private async toSeller(m: RoutedMessage): Promise<Message[] | null> {
    const { connection, contact, ticket } = m;
    if (contact.walletUserId === null || ticket.userId !== null || ticket.status !== 'pending') return null;
    if ((await this.deps.settings.setting(ticket.companyId, 'DirectTicketsToWallets')) !== 'true') return null;
    const seller = await this.deps.users.findById(ticket.companyId, contact.walletUserId);
    if (!seller) return null;
    const queues = await this.queuesOf(connection);
    Object.assign(ticket, { status: 'open', userId: seller.id, queueId: queues.length === 1 ? queues[0]!.id : null, queueOptionId: null });
    this.handOver(ticket);
    const closed =
      (await this.deps.settings.setting(ticket.companyId, 'scheduleType')) === 'company' && !(await this.deps.settings.companyOpen(ticket.companyId));
    const text = closed
      ? (connection.outOfHoursMessage ?? (await this.deps.settings.setting(ticket.companyId, 'outOfHoursMessage')))
      : connection.greetingMessage;
    return text ? [await this.send(m, text)] : [];
  }

  /**
   * The ticket's assistant answers, when it has one: its queue's prompt, or without a queue the
   * connection's. The answer is a command in the outbox (the model is called after this commit).
   */
  private async askAssistant(m: RoutedMessage): Promise<boolean> {
    const { ticket } = m;
    const promptId = ticket.queueId === null ? m.connection.promptId : ((await this.deps.queues.findById(ticket.companyId, ticket.queueId))?.promptId ?? null);
    if (promptId === null) return false;
    await this.deps.commands.askAssistant({ companyId: ticket.companyId, ticketId: ticket.id, messageId: m.message.id, promptId });
    return true;
  }

  private async open(m: RoutedMessage): Promise<Message[]> {
    const { connection, ticket } = m;
    const queues = await this.queuesOf(connection);
    if ((await this.deps.settings.setting(ticket.companyId, 'scheduleType')) === 'company' && !(await this.deps.settings.companyOpen(ticket.companyId))) {
      this.handOver(ticket);
      if (queues.length === 1) ticket.queueId = queues[0]!.id;
      const text = connection.outOfHoursMessage ?? (await this.deps.settings.setting(ticket.companyId, 'outOfHoursMessage'));
      return text ? [await this.send(m, text)] : [];
    }
    if (connection.promptId !== null && ticket.userId === null && ticket.status === 'pending') {
      // The connection's assistant greets and answers: no greeting text, no menu.
      Object.assign(ticket, { botActive: true, botAttempts: 0, queueOptionId: null });
      await this.askAssistant(m);
      return [];
    }
    const sent = connection.greetingMessage ? [await this.send(m, connection.greetingMessage)] : [];
    if (queues.length === 0) return sent;
    if (queues.length === 1) return [...sent, ...(await this.enter(m, queues[0]!))];
    Object.assign(ticket, { botActive: true, botAttempts: 0, queueOptionId: null });
    return [...sent, await this.send(m, queueMenu(queues))];
  }

  private async chooseQueue(m: RoutedMessage): Promise<Message[]> {
    const queues = await this.queuesOf(m.connection);
    if (queues.length === 0) return this.handOver(m.ticket);
    const reply = normalizeReply(m.message.body);
    const chosen = (/^\d{1,3}$/.test(reply) ? queues[Number(reply) - 1] : undefined) ?? queues.find((q) => foldForSearch(q.name) === foldForSearch(reply));
    return chosen ? this.enter(m, chosen) : this.retry(m, queueMenu(queues));
  }

  private async enter(m: RoutedMessage, queue: Queue): Promise<Message[]> {
    const { ticket } = m;
    Object.assign(ticket, { queueId: queue.id, queueOptionId: null, botAttempts: 0 });
    if ((await this.deps.settings.setting(ticket.companyId, 'scheduleType')) === 'queue' && !(await this.deps.settings.queueOpen(queue, ticket.companyId))) {
      this.handOver(ticket);
      return queue.outOfHoursMessage ? [await this.send(m, queue.outOfHoursMessage)] : [];
    }
    if (queue.promptId !== null) {
      // The queue's assistant takes over: its greeting, then it answers (the first message too, when it opened the ticket).
      ticket.botActive = true;
      const greeting = queue.greetingMessage ? [await this.send(m, queue.greetingMessage)] : [];
      if (m.opening) await this.askAssistant(m);
      return greeting;
    }
    const roots = await this.menuUnder(ticket.companyId, queue.id, null);
    if (roots.length === 0) {
      this.handOver(ticket);
      return queue.greetingMessage ? [await this.send(m, queue.greetingMessage)] : [];
    }
    ticket.botActive = true;
    return [await this.send(m, menuText(queue.greetingMessage, roots))];
  }

  /** A reply inside a queue's tree: `queueOptionId` is the node whose menu the contact sees (null: the queue's). */
  private async walk(m: RoutedMessage, queueId: number): Promise<Message[]> {
    const { ticket } = m;
    const queue = await this.deps.queues.findById(ticket.companyId, queueId);
    if (!queue) return this.handOver(ticket);
    const found = ticket.queueOptionId === null ? null : await this.deps.options.findById(ticket.companyId, ticket.queueOptionId);
    const node = found && found.queueId === queue.id ? found : null;
    const menu = await this.menuUnder(ticket.companyId, queue.id, node?.id ?? null);
    if (menu.length === 0) return this.handOver(ticket);
    const reply = normalizeReply(m.message.body);
    const chosen = menu.find((o) => o.option.toLowerCase() === reply);
    if (!chosen) return this.retry(m, menuText(node ? node.message : queue.greetingMessage, menu));
    return this.pick(m, chosen);
  }

  private async pick(m: RoutedMessage, option: QueueOption): Promise<Message[]> {
    const { ticket } = m;
    Object.assign(ticket, { botAttempts: 0, queueOptionId: option.id });
    const say = async () => (option.message ? [await this.send(m, option.message)] : []);
    if (option.forwardQueueId !== null) {
      const target = await this.deps.queues.findById(ticket.companyId, option.forwardQueueId);
      if (target) Object.assign(ticket, { queueId: target.id, queueOptionId: null });
      this.handOver(ticket);
      return say();
    }
    if (option.forwardUserId !== null) {
      const user = await this.deps.users.findById(ticket.companyId, option.forwardUserId);
      if (user) Object.assign(ticket, { status: 'open', userId: user.id });
      this.handOver(ticket);
      return say();
    }
    if (option.closeTicket) {
      const sent = await say();
      Object.assign(ticket, { status: 'closed', closedAt: this.deps.clock.now() });
      this.handOver(ticket);
      return sent;
    }
    const children = await this.menuUnder(ticket.companyId, option.queueId, option.id);
    if (children.length === 0) {
      this.handOver(ticket);
      return say();
    }
    return [await this.send(m, menuText(option.message, children))];
  }

  private async retry(m: RoutedMessage, menu: string): Promise<Message[]> {
    m.ticket.botAttempts += 1;
    if (m.ticket.botAttempts > MAX_BOT_RETRIES) return this.handOver(m.ticket);
    return [await this.send(m, menu)];
  }

  /** The bot stops; the ticket waits, pending in its queue (if any), for an operator. */
  private handOver(ticket: Ticket): Message[] {
    ticket.botActive = false;
    return [];
  }

  /** Every inbound message of a ticket in a queue with an integration goes to that integration. */
  private async handToIntegration(m: RoutedMessage): Promise<void> {
    if (m.ticket.queueId === null) return;
    const queue = await this.deps.queues.findById(m.ticket.companyId, m.ticket.queueId);
    if (queue?.integrationId == null) return;
    await this.deps.commands.toIntegration({ integrationId: queue.integrationId, ...m });
  }

  private send(m: RoutedMessage, body: string): Promise<Message> {
    return this.deps.outbound.enqueue({ connection: m.connection, ticket: m.ticket, contact: m.contact, body });
  }

  private async queuesOf(connection: Connection): Promise<Queue[]> {
    const map = await this.deps.queues.ofConnections(connection.companyId, [connection.id]);
    return [...(map.get(connection.id) ?? [])].sort(byQueueOrder);
  }

  private async menuUnder(companyId: number, queueId: number, parentId: number | null): Promise<QueueOption[]> {
    return (await this.deps.options.list({ companyId, queueId, parentId })).sort(byMenuOrder);
  }
}

/** The numbered queue menu: `*1* - Vendas`. */
export function queueMenu(queues: readonly Queue[]): string {
  return menuLines(queues.map((q, i) => ({ key: String(i + 1), title: q.name })));
}
