import type { Actor, Application, ConnectionWithQueues, CorePorts, InboundMessageEvent, InProcessBroker, MessageView } from '@servicedesk/core';
import type { FixedClock } from '@servicedesk/core/testing';
import type { Container } from 'inversify';
import { TYPES, type UnitOfWork } from './types.js';

/** The fixed values of the world every scenario and test starts from. */
export const WORLD = {
  root: { email: 'root@swap.test', password: 'root-password' },
  connection: { name: 'Main', greeting: 'Welcome! How can we help?', apiToken: 'swap-api-token-0123456789' },
  contact: { number: '5511999990000', name: 'Ana' },
} as const;

type RouteInboundResult = Awaited<ReturnType<Application['conversations']['routeInbound']['execute']>>;

export interface World {
  readonly app: Application;
  readonly ports: CorePorts;
  readonly broker: InProcessBroker;
  readonly clock: FixedClock;
  readonly inUnitOfWork: UnitOfWork;
  /** The seeded super admin, acting in the seeded company (#1). */
  readonly admin: Actor;
  /** The company's sandbox connection, connected, with a greeting and an API token. */
  readonly connection: ConnectionWithQueues;
  /** One minute later, the contact's message arrives (the provider stamped it a second earlier). */
  receive(providerMessageId: string, body: string, from?: string): Promise<RouteInboundResult>;
  /** A ticket's conversation as the admin reads it, oldest first. */
  conversation(ticketId: number, actor?: Actor): Promise<MessageView[]>;
  /** Logs in through the use cases and returns the verified actor, as the HTTP adapter does. */
  actorOf(email: string, password: string): Promise<Actor>;
  /** Publishes the outbox and waits until every broker consumer handled what it got. */
  relay(): Promise<number>;
}

/**
 * Builds the starting world through the use cases only (seed, login, create connection), so it
 * is the same on any adapter set: that is what lets one test suite run against all of them.
 */
export async function openWorld(container: Container): Promise<World> {
  const app = container.get<Application>(TYPES.Application);
  const ports = container.get<CorePorts>(TYPES.Ports);
  const broker = container.get<InProcessBroker>(TYPES.Broker);
  const clock = container.get<FixedClock>(TYPES.Clock);
  const inUnitOfWork = container.get<UnitOfWork>(TYPES.UnitOfWork);

  const actorOf = (email: string, password: string) =>
    inUnitOfWork(async () => {
      const { token } = await app.identity.login.execute({ email, password, ip: '127.0.0.1' });
      return (await app.identity.authenticate.execute(token)).actor;
    });
  const relay = async () => {
    const published = await inUnitOfWork(() => app.outbox.relayOutbox.execute());
    await broker.idle();
    return published;
  };

  await inUnitOfWork(() => app.tenancy.seedPlatform.execute({ adminEmail: WORLD.root.email, adminPassword: WORLD.root.password, passwordIsDefault: false }));
  const admin = await actorOf(WORLD.root.email, WORLD.root.password);
  const created = await inUnitOfWork(() =>
    app.connections.createConnection.execute({
      actor: admin,
      kind: 'chatapp',
      provider: 'sandbox',
      name: WORLD.connection.name,
      isDefault: true,
      greetingMessage: WORLD.connection.greeting,
      token: WORLD.connection.apiToken,
    }),
  );
  // The start command goes out with the connection; the channel runtime would then report it connected.
  await relay();
  await inUnitOfWork(() =>
    app.conversations.applyChannelEvent.execute({
      type: 'SessionStatusChanged',
      companyId: created.companyId,
      chatappId: created.id,
      status: 'CONNECTED',
      qrcode: null,
      at: clock.now().toISOString(),
    }),
  );
  const connection = await inUnitOfWork(() => app.connections.showConnection.execute({ actor: admin, connectionId: created.id }));

  return {
    app,
    ports,
    broker,
    clock,
    inUnitOfWork,
    admin,
    connection,
    actorOf,
    relay,
    receive(providerMessageId, body, from = WORLD.contact.number) {
      clock.advance(60_000);
      const event: InboundMessageEvent = {
        type: 'InboundMessage',
        companyId: connection.companyId,
        chatappId: connection.id,
        providerMessageId,
        from,
        senderName: WORLD.contact.name,
        body,
        isGroup: false,
        at: new Date(clock.now().getTime() - 1_000).toISOString(),
      };
      return inUnitOfWork(() => app.conversations.routeInbound.execute(event));
    },
    async conversation(ticketId, actor = admin) {
      return (await inUnitOfWork(() => app.conversations.listTicketMessages.execute({ actor, ticketId }))).messages;
    },
  };
}
