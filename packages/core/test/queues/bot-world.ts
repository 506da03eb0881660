import {
  createApplication,
  type BusinessHours,
  type Connection,
  type InboundMessageEvent,
  type NewQueueOption,
  type Queue,
  type User,
} from '../../src/index.js';
import { createInMemoryPorts } from '../../src/testing.js';
import { connectionFixture } from '../contracts/messaging-contract.js';
import { optionFixture, queueFixture } from '../contracts/queues-contract.js';
import { companyFixture, planFixture, userFixture } from '../contracts/repositories-contract.js';

/** Monday to Friday, 08:00 to 18:00. */
export const OFFICE_HOURS: BusinessHours[] = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday'].map((d) => ({
  weekday: d,
  weekdayEn: d as BusinessHours['weekdayEn'],
  startTime: '08:00',
  endTime: '18:00',
}));

/**
 * Acme on in-memory ports, its clock on Thursday 2026-01-01 09:00 in São Paulo: a connection that
 * greets, two queues (Sales with Ana, Support with Bia) offered by it, admins and operators.
 */
export async function botWorld(overrides: { connection?: Partial<Connection>; queues?: number; relayByHand?: boolean } = {}) {
  const ports = createInMemoryPorts();
  const app = createApplication(overrides.relayByHand ? { ...ports, relayAfterCommit: false } : ports);
  const plan = await ports.plans.add(planFixture('P', { queues: 10 }));
  const acme = await ports.companies.add(companyFixture(plan.id, 'Acme', { schedules: OFFICE_HOURS }));
  const user = async (email: string, extra: Partial<User> = {}) => {
    const u = await ports.users.add(userFixture(acme.id, email, extra));
    return { userId: u.id, companyId: acme.id, profile: u.profile };
  };
  const admin = await user('admin@acme.test', { profile: 'admin' });
  const ana = await user('ana@acme.test', { name: 'Ana' });
  const bia = await user('bia@acme.test', { name: 'Bia' });
  const connection = await ports.connections.add(
    connectionFixture(acme.id, 'Main', {
      status: 'CONNECTED',
      greetingMessage: 'Welcome!',
      outOfHoursMessage: 'We are closed.',
      ...overrides.connection,
    }),
  );
  const sales = await ports.queues.add(queueFixture(acme.id, 'Sales', { orderQueue: 1, greetingMessage: 'Sales here.' }));
  const support = await ports.queues.add(queueFixture(acme.id, 'Support', { orderQueue: 2, greetingMessage: 'Support here.' }));
  await ports.queues.setUsers(acme.id, sales.id, [ana.userId]);
  await ports.queues.setUsers(acme.id, support.id, [bia.userId]);
  await ports.queues.setConnectionQueues(acme.id, connection.id, [sales.id, support.id].slice(0, overrides.queues ?? 2));
  let n = 0;
  const event = (body: string, extra: Partial<InboundMessageEvent> = {}): InboundMessageEvent => ({
    type: 'InboundMessage',
    companyId: acme.id,
    chatappId: connection.id,
    providerMessageId: `wamid-${++n}`,
    from: '5511999990000',
    senderName: 'Carla',
    body,
    isGroup: false,
    at: ports.clock.now().toISOString(),
    ...extra,
  });
  /** The contact writes; resolves with the event (to replay it as a duplicate). */
  const say = async (body: string, extra: Partial<InboundMessageEvent> = {}) => {
    const e = event(body, extra);
    await app.conversations.routeInbound.execute(e);
    return e;
  };
  /** What the bot sent so far, in order. */
  const sent = () => [...ports.messages.rows.values()].filter((m) => m.fromMe).map((m) => m.body);
  const ticket = async (from = '5511999990000') => {
    const contact = await ports.contacts.findByNumber(acme.id, from);
    return ports.tickets.table.filter((t) => t.contactId === contact?.id).sort((a, b) => b.id - a.id)[0]!;
  };
  const option = (queue: Queue, key: string, extra: Partial<NewQueueOption> = {}) => ports.queueOptions.add(optionFixture(acme.id, queue.id, key, extra));
  const setting = (key: string, value: string) => ports.settings.put(acme.id, key, value);
  return { ports, app, acme, plan, admin, ana, bia, connection, sales, support, say, sent, ticket, option, setting };
}

export type BotWorld = Awaited<ReturnType<typeof botWorld>>;
