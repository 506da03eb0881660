import type { ChannelCommand } from '@servicedesk/core';
import type { Container } from 'inversify';
import { openWorld, WORLD } from './world.js';

/** What the scenario observed, in terms that must not depend on the adapters behind the ports. */
export interface ScenarioOutcome {
  readonly greeted: boolean;
  readonly duplicateIgnored: boolean;
  readonly sameTicket: boolean;
  readonly tickets: number;
  /** `who: body`, oldest first. */
  readonly conversation: readonly string[];
  readonly apiSendStatus: string;
  readonly outboxBeforeRelay: number;
  readonly relayed: number;
  readonly sendCommandsAtBroker: number;
}

/**
 * A contact writes, the same message is delivered again, the contact writes once more, then a
 * system answers through the message API and the relay hands the sends to the broker.
 */
export async function runScenario(container: Container): Promise<ScenarioOutcome> {
  const w = await openWorld(container);
  const { app, inUnitOfWork } = w;
  const sends: ChannelCommand[] = [];
  const runtime = await w.broker.subscribe('scenario-runtime', 'cmd.>', async ({ payload }) => {
    const command = payload as ChannelCommand;
    if (command.type === 'SessionSendMessage') sends.push(command);
  });
  try {
    const first = await w.receive('wamid-1', 'Hello, where is my order?');
    const again = await w.receive('wamid-1', 'Hello, where is my order?');
    const second = await w.receive('wamid-2', 'It is order 42.');
    w.clock.advance(60_000);
    const connection = await inUnitOfWork(() => app.connections.authenticateConnection.execute(WORLD.connection.apiToken));
    const api = await inUnitOfWork(() => app.conversations.sendApiMessage.execute({ connection, number: WORLD.contact.number, body: 'Order 42 ships today.' }));
    const accepted = await inUnitOfWork(() => w.ports.messages.findById(connection.companyId, api.messageId));
    const outboxBeforeRelay = (await inUnitOfWork(() => w.ports.outbox.pending(100))).length;
    const relayed = await w.relay();
    const { count } = await inUnitOfWork(() => app.tickets.listTickets.execute({ actor: w.admin, showAll: true }));
    const messages = await w.conversation(first.ticketId!);
    return {
      greeted: first.greeted,
      duplicateIgnored: again.duplicate,
      sameTicket: second.ticketId === first.ticketId && api.ticketId === first.ticketId,
      tickets: count,
      conversation: messages.map((m) => `${m.fromMe ? (m.userId === null ? 'us' : 'operator') : 'contact'}: ${m.body}`),
      apiSendStatus: accepted?.status ?? 'missing',
      outboxBeforeRelay,
      relayed,
      sendCommandsAtBroker: sends.length,
    };
  } finally {
    await runtime.stop();
  }
}
