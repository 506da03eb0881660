import {
  createApplication,
  type Actor,
  type Application,
  type ConnectionStatus,
  type DeliveryStatus,
  type MessageView,
  type TicketDetails,
} from '@servicedesk/core';
import { createInMemoryPorts } from '@servicedesk/core/testing';
import { attachSandboxChannel } from './sandbox-channel.js';

/** Who and what the demo creates; exported so tests and readers see the same values. */
export const DEMO = {
  superAdmin: { email: 'root@embed.test', password: 'root-password' },
  company: { name: 'Acme Plants', email: 'owner@acme.test', adminName: 'Olivia Owner', password: 'olivia-password' },
  connection: { name: 'Acme chat', greeting: 'Hello! Thanks for writing to Acme Plants.', apiToken: 'acme-api-token-0123456789' },
  contact: { number: '5511999990000', name: 'Maria Souza' },
  inbound: { providerMessageId: 'sandbox-in-1', body: 'Hi, is my order on its way?' },
  reply: 'Yes, it ships today. Tracking follows by e-mail.',
} as const;

/** The state right after the operator's reply was accepted, before anything was relayed. */
export interface AcceptedReply {
  readonly messageId: string;
  readonly status: DeliveryStatus;
  /** Send commands waiting in the outbox (the greeting's and the reply's). */
  readonly outboxSubjects: readonly string[];
}

export interface EmbedCoreDemoResult {
  readonly company: { readonly id: number; readonly name: string };
  readonly connection: { readonly id: number; readonly name: string; readonly status: ConnectionStatus };
  /** Every ticket the company's admin can see: the demo opens exactly one. */
  readonly ticketCount: number;
  readonly ticket: TicketDetails;
  /** The conversation, oldest first. */
  readonly messages: readonly MessageView[];
  readonly accepted: AcceptedReply;
  /** Outbox entries the relay handed to the broker over the whole run (session start included). */
  readonly relayed: number;
  /** What the sandbox channel was asked to send, in order. */
  readonly sandboxSent: ReadonlyArray<{ readonly to: string; readonly body: string }>;
}

const MINUTE = 60_000;

/** Logs in through the use cases, as an HTTP adapter would, and returns the verified actor. */
async function actorOf(app: Application, email: string, password: string): Promise<Actor> {
  const { token } = await app.identity.login.execute({ email, password, ip: '127.0.0.1' });
  return (await app.identity.authenticate.execute(token)).actor;
}

/**
 * Another application embedding the core: in-memory adapters, no HTTP, no database server.
 * Every step goes through a use case (seed, company, connection, inbound, reply, relay), so the
 * rules that guard the real backend (plans, tenancy, outbox) guard this run too.
 */
export async function runEmbedCoreDemo(): Promise<EmbedCoreDemoResult> {
  const ports = createInMemoryPorts();
  // The demo relays the outbox by hand, to show each step; without `relayAfterCommit: false` the core relays
  // it itself after every commit that wrote to it.
  const app = createApplication({ ...ports, relayAfterCommit: false });
  const { broker, clock } = ports;
  const sandbox = await attachSandboxChannel({ app, broker, clock });
  // Relays what is waiting (joining a run the core may have started by itself) and lets the channel answer.
  const relay = async () => {
    await app.outbox.relayOutbox.execute();
    await broker.idle();
  };
  try {
    await app.tenancy.seedPlatform.execute({ adminEmail: DEMO.superAdmin.email, adminPassword: DEMO.superAdmin.password, passwordIsDefault: false });
    const root = await actorOf(app, DEMO.superAdmin.email, DEMO.superAdmin.password);
    const [plan] = await app.tenancy.listPlans.execute({ actor: root });
    if (!plan) throw new Error('the seed created no plan');
    const { company } = await app.tenancy.createCompany.execute({
      actor: root,
      name: DEMO.company.name,
      email: DEMO.company.email,
      planId: plan.id,
      adminName: DEMO.company.adminName,
      password: DEMO.company.password,
    });
    const admin = await actorOf(app, DEMO.company.email, DEMO.company.password);
    const created = await app.connections.createConnection.execute({
      actor: admin,
      kind: 'chatapp',
      provider: 'sandbox',
      name: DEMO.connection.name,
      isDefault: true,
      greetingMessage: DEMO.connection.greeting,
      token: DEMO.connection.apiToken,
    });
    // The start command was written with the connection; relaying it lets the sandbox connect.
    await relay();

    // The in-memory clock stands still (deterministic runs); move it so the conversation has an order.
    clock.advance(MINUTE);
    const inboundAt = new Date(clock.now().getTime() - 1_000).toISOString();
    const routed = await app.conversations.routeInbound.execute({
      type: 'InboundMessage',
      companyId: company.id,
      chatappId: created.id,
      providerMessageId: DEMO.inbound.providerMessageId,
      from: DEMO.contact.number,
      senderName: DEMO.contact.name,
      body: DEMO.inbound.body,
      isGroup: false,
      at: inboundAt,
    });
    if (routed.ticketId === null) throw new Error('the inbound message opened no ticket');

    clock.advance(MINUTE);
    const reply = await app.conversations.sendTicketMessage.execute({ actor: admin, ticketId: routed.ticketId, body: DEMO.reply });
    const replyId = reply.messages[0]!.id;
    const accepted: AcceptedReply = {
      messageId: replyId,
      status: reply.messages[0]!.status,
      outboxSubjects: (await ports.outbox.pending(100)).map((e) => e.subject),
    };

    clock.advance(MINUTE);
    await relay();

    const page = await app.conversations.listTicketMessages.execute({ actor: admin, ticketId: routed.ticketId });
    const ticket = await app.tickets.showTicket.execute({ actor: admin, ticketId: routed.ticketId });
    const { count } = await app.tickets.listTickets.execute({ actor: admin, showAll: true });
    const connection = await app.connections.showConnection.execute({ actor: admin, connectionId: created.id });
    return {
      company: { id: company.id, name: company.name },
      connection: { id: connection.id, name: connection.name, status: connection.status },
      ticketCount: count,
      ticket,
      messages: page.messages,
      accepted,
      // Everything handed to the broker over the run, by whichever relay run took it.
      relayed: ports.outbox.entries.filter((e) => e.publishedAt !== null).length,
      sandboxSent: sandbox.sent.map((c) => ({ to: c.to, body: c.content.body })),
    };
  } finally {
    await sandbox.stop();
  }
}
